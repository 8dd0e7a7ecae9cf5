import 'reflect-metadata';
import { startService } from '@portal/server-kit';
import { buildApp } from './app';
import { loadReportBuilderConfig } from './config';
import { openDatabase } from './database';

startService({ config: loadReportBuilderConfig(), openDatabase, buildApp });
