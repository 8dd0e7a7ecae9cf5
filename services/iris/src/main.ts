import 'reflect-metadata';
import { startService } from '@portal/server-kit';
import { buildApp } from './app';
import { loadIrisConfig } from './config';
import { openDatabase } from './database';

startService({ config: loadIrisConfig(), openDatabase, buildApp });
