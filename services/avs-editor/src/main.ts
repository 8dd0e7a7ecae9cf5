import 'reflect-metadata';
import { startService } from '@portal/server-kit';
import { loadAvsEditorConfig } from './config';
import { buildApp } from './app';
import { openDatabase } from './database';

startService({ config: loadAvsEditorConfig(), openDatabase, buildApp });
