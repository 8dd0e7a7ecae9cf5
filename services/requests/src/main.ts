import 'reflect-metadata';
import { startService } from '@portal/server-kit';
import { loadRequestsConfig } from './config';
import { buildApp } from './app';
import { openDatabase } from './database';

startService({ config: loadRequestsConfig(), openDatabase, buildApp });
