import 'reflect-metadata';
import { startService } from '@portal/server-kit';
import { loadServicesAdminConfig } from './config';
import { buildApp } from './app';
import { openDatabase } from './database';

startService({ config: loadServicesAdminConfig(), openDatabase, buildApp });
