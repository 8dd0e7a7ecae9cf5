import type { DataSource } from 'typeorm';
import { formatSaLongDate } from '@portal/domain';
import { imageDataUrl, pageFooterOptions, type PdfRenderer } from '@portal/pdf-jobs';
import { recordRequestUsage, type Storage } from '@portal/server-kit';
import { isImageId, targetImageKey, type ImageTarget } from '../images/keys';
import { readImageryRecord } from '../images/imagery';
import { addressOf, extraFieldOf, sectionsOf, totalsOf, totalsSettingsOf, versionOf } from '../store';
import { SAVI_PDF_KIND, finaliseReportPdf, jobState, saviReportPdfKey } from './report';
import { saviReportHtml } from './template';

/**
 * A target's cropped image as a data URL: the compressed JPEG (made for the PDF, at most 1280 px wide) when
 * it is stored, else the cropped PNG, else null.
 */
async function targetImageDataUrl(
  storage: Storage,
  requestId: string,
  target: ImageTarget,
): Promise<string | null> {
  for (const variant of ['compressed', 'cropped'] as const) {
    let key: string;
    try {
      key = targetImageKey(requestId, target, variant);
    } catch {
      return null; // an identifier no image can have
    }
    const file = await storage.get(key);
    if (file) return imageDataUrl(file);
  }
  return null;
}

/**
 * The SAVi kind of PDF: the HTML of the report version the job names (its row kept in the job's payload),
 * with the property's and the sections' cropped images from the storage; once the PDF is stored, a copy
 * under the key services/requests' zip reads, then the request's report_pdf_url and rve_total.
 */
export function saviPdfRenderer(deps: { ds: DataSource; storage: Storage; defaultVat: number }): PdfRenderer {
  return {
    async html(job) {
      const state = await jobState(deps.ds, job, deps.defaultVat);
      const sections = sectionsOf(state);
      const requestId = state.request.id;
      const sectionImages: Record<string, string> = {};
      const sectionImagesCapturedOn: Record<string, string> = {};
      for (const [id, section] of Object.entries(sections)) {
        if (!section.includeImage || !isImageId(id)) continue;
        const target: ImageTarget = { kind: 'section', section: id };
        const image = await targetImageDataUrl(deps.storage, requestId, target);
        if (!image) continue;
        sectionImages[id] = image;
        const imagery = await readImageryRecord(deps.storage, requestId, target, 'cropped');
        if (imagery) sectionImagesCapturedOn[id] = imagery.capturedOn;
      }
      const property: ImageTarget = { kind: 'property' };
      const propertyImagery = await readImageryRecord(deps.storage, requestId, property, 'cropped');
      const address = addressOf(state);
      const extraField = extraFieldOf(state);
      return saviReportHtml({
        gripReference: state.request.gripReference,
        location: address.location,
        suburbTownCity: address.suburbTownCity,
        groupName: state.request.group?.name ?? '',
        sections,
        totals: totalsOf(state),
        settings: totalsSettingsOf(state),
        extraField: { include: extraField.include, description: extraField.description },
        note: state.row?.note ?? '',
        comments: state.row?.comments ?? '',
        version: versionOf(state),
        propertyImage: await targetImageDataUrl(deps.storage, requestId, property),
        sectionImages,
        propertyImageCapturedOn: propertyImagery?.capturedOn ?? null,
        sectionImagesCapturedOn,
        madeOn: formatSaLongDate(new Date()),
      });
    },
    async afterDone(job) {
      if (job.kind !== SAVI_PDF_KIND || !job.file_key) return;
      // Usage metering: every PDF generated counts, for the request's group (docs/architecture.md).
      await recordRequestUsage(deps.ds, job.subject_id, 'reportbuilder', 'pdf');
      // Only the newest finished version is copied and recorded (an older one finishing late changes nothing).
      const [newer] = (await deps.ds.query(
        `SELECT 1 FROM pdf.jobs WHERE kind = $1 AND subject_id = $2 AND state = 'done' AND version > $3 LIMIT 1`,
        [SAVI_PDF_KIND, job.subject_id, job.version],
      )) as unknown[];
      if (newer) return;
      const file = await deps.storage.get(job.file_key);
      if (!file) throw new Error(`The PDF ${job.file_key} is not in the storage.`);
      await deps.storage.put(saviReportPdfKey(job.subject_id), file.data, { contentType: 'application/pdf' });
      await finaliseReportPdf(deps.ds, job, deps.defaultVat);
    },
    pdfOptions: pageFooterOptions('SAVi replacement value report'),
  };
}
