import 'reflect-metadata';
import { PORTAL_QUEUES } from '@portal/contracts';
import { runPdfWorkerProcess } from '@portal/pdf-jobs';
import { loadReportBuilderConfig } from './config';
import { openDatabase } from './database';
import { SAVI_PDF_KIND } from './pdf/report';
import { saviPdfRenderer } from './pdf/renderer';

/**
 * The report PDF worker (a process of its own, config/services.json `reportbuilder-worker`): renders the
 * queue 'reportbuilder-pdf' with one Chromium (libs/pdf-jobs). Start more processes to scale out.
 */
const config = loadReportBuilderConfig();
runPdfWorkerProcess({
  name: 'reportbuilder-worker',
  queueName: PORTAL_QUEUES.reportbuilderPdf,
  config,
  openDatabase,
  renderers: ({ ds, storage }) => ({
    [SAVI_PDF_KIND]: saviPdfRenderer({ ds, storage, defaultVat: config.vatPercentage }),
  }),
});
