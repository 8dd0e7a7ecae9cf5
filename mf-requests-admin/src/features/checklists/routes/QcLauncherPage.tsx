import { useEffect, useState } from 'react';
import Alert from '@mui/material/Alert';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { QueuePage } from '../../../layout/QueuePage';
import { qcChecklistHref, satelliteMapHref, viewReportHref } from '../../../paths';
import { TEXT } from '../../../texts';
import { useChecklistParams } from '../../../hooks/useChecklistParams';

/**
 * requests/admin/qc-checklist-launcher (spec 02 §2.2): opens the QC checklist, a satellite map at the
 * request's point and the report view in new tabs, then closes itself. When the browser blocks the
 * tabs, it stays open with the three links instead.
 */
export function QcLauncherPage() {
  const { requestID, point } = useChecklistParams();
  const [blocked, setBlocked] = useState(false);
  const links = [
    { label: 'QC checklist', href: qcChecklistHref(requestID, point) },
    ...(point ? [{ label: 'Satellite map', href: satelliteMapHref(requestID, point) }] : []),
    { label: 'Report', href: viewReportHref(requestID) },
  ];
  useEffect(() => {
    const opened = links.map((link) => window.open(link.href, '_blank'));
    if (opened.some((tab) => tab === null)) setBlocked(true);
    else window.close();
    // Once, when the launcher opens.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return (
    <QueuePage title="QC check">
      <Typography sx={{ mb: 2 }}>{TEXT.launcherTitle}</Typography>
      {blocked && <Alert severity="warning">{TEXT.popupBlocked}</Alert>}
      <Stack spacing={1} sx={{ mt: 2 }} aria-label="QC links">
        {links.map((link) => (
          <Link key={link.label} href={link.href} target="_blank" rel="noopener">
            {link.label}
          </Link>
        ))}
      </Stack>
    </QueuePage>
  );
}
