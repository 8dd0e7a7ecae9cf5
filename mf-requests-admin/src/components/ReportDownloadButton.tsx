import Button from '@mui/material/Button';
import type { RequestRow } from '@portal/contracts';
import { reportDownloadLink } from '@portal/domain';

/**
 * Spec 03 §7: a report is downloaded by its link — cloudinary opens the link, savi the report builder's
 * download, pdfReports the IRiS download; an unrecognised link is only logged.
 */
export function openReport(row: Pick<RequestRow, 'requestID' | 'reportPdfUrl' | 'reportId'>): void {
  const link = reportDownloadLink({
    id: row.requestID,
    reportPdfUrl: row.reportPdfUrl,
    reportId: row.reportId,
  });
  if (!link) {
    console.warn('Report link not recognised', { requestID: row.requestID, reportPdfUrl: row.reportPdfUrl });
    return;
  }
  window.open(link.url, '_blank', 'noopener');
}

export function ReportDownloadButton({ row }: { row: RequestRow }) {
  if (!row.reportPdfUrl) return null;
  return (
    <Button size="small" variant="outlined" onClick={() => openReport(row)}>
      Download report
    </Button>
  );
}
