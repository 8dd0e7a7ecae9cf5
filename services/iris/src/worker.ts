import 'reflect-metadata';
import { PORTAL_QUEUES } from '@portal/contracts';
import { runPdfWorkerProcess } from '@portal/pdf-jobs';
import { loadIrisConfig } from './config';
import { openDatabase } from './database';
import { IRIS_PDF_KIND } from './reports';
import { irisPdfRenderer } from './pdf/renderer';

/**
 * The IRiS PDF worker (a process of its own, config/services.json `iris-worker`): renders the queue
 * 'iris-pdf' with one Chromium (libs/pdf-jobs). Start more processes to scale out.
 */
const config = loadIrisConfig();
runPdfWorkerProcess({
  name: 'iris-worker',
  queueName: PORTAL_QUEUES.irisPdf,
  config,
  openDatabase,
  renderers: ({ ds, storage, redis }) => ({
    [IRIS_PDF_KIND]: irisPdfRenderer({ ds, storage, redis, redisPrefix: config.redisPrefix }),
  }),
});
