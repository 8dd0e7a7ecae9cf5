import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { IrisReport } from '@portal/contracts';
import { formatSast } from '@portal/domain';
import { TEXT } from '../../../texts';
import { formatCoordinate } from '@portal/charts';
import { CrimeSection, ElevationSection, FireSection, SoilSection, WaterSection } from './Sections';

/**
 * The IRiS report (spec 03 §2, §3): its header (GRiP reference, address, coordinates to 6 decimals, the
 * time it was computed in SAST), the steps beside each other (the page gives them: the imagery step and the
 * PDF's progress), and the sections, each naming its data source.
 */
export function ReportView({
  report,
  steps,
  onClose,
}: {
  report: IrisReport;
  steps: ReactNode;
  onClose: () => void;
}) {
  const { data } = report;
  const { lat, lng } = data.coordinates;
  return (
    <Stack spacing={2} component="article" aria-label={TEXT.title}>
      <Paper variant="outlined" sx={{ p: 2 }}>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ justifyContent: 'space-between' }}>
          <Box
            component="dl"
            sx={{ m: 0, display: 'grid', gridTemplateColumns: 'auto 1fr', columnGap: 2, rowGap: 0.5 }}
          >
            <Typography component="dt" color="text.secondary">
              {TEXT.gripReference}
            </Typography>
            <Typography component="dd" sx={{ m: 0, fontWeight: 600 }} data-testid="grip-reference">
              {report.gripReference}
            </Typography>
            <Typography component="dt" color="text.secondary">
              {TEXT.address}
            </Typography>
            <Typography component="dd" sx={{ m: 0 }} data-testid="report-address">
              {report.address || TEXT.noAddress}
            </Typography>
            <Typography component="dt" color="text.secondary">
              {TEXT.coordinates}
            </Typography>
            <Typography component="dd" sx={{ m: 0 }} data-testid="report-coordinates">
              {formatCoordinate(lat)}, {formatCoordinate(lng)}
            </Typography>
            <Typography component="dt" color="text.secondary">
              {TEXT.computed}
            </Typography>
            <Typography component="dd" sx={{ m: 0 }} data-testid="report-computed">
              {formatSast(data.computedAt)}
            </Typography>
          </Box>
          <Box>
            <Button variant="outlined" onClick={onClose}>
              {TEXT.close}
            </Button>
          </Box>
        </Stack>
      </Paper>
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' } }}>{steps}</Box>
      <ElevationSection data={data.elevation} />
      <CrimeSection data={data.crimeData} />
      <WaterSection data={data.waterBodyData} />
      <FireSection data={data.fireServicesData} />
      <SoilSection data={data.soilData} />
    </Stack>
  );
}
