import 'reflect-metadata';
import { startService } from '@portal/server-kit';
import { loadLocatorConfig } from './config';
import { buildApp } from './app';
import { openDatabase } from './database';

startService({ config: loadLocatorConfig(), openDatabase, buildApp });
