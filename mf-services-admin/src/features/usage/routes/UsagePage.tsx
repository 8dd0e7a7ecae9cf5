import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { dailyCountsSvg, formatNumber } from '@portal/charts';
import { USAGE_ROUTES } from '@portal/contracts';
import { canAccess } from '@portal/domain';
import { useCurrentUser } from '@portal/web-kit';
import { ADMIN_ROLES } from '../../../access';
import { useAllGroupsQuery } from '../../../api/groupsApi';
import { AdminPage } from '../../../layout/AdminPage';
import { USAGE_TEXT } from '../../../texts';
import { usageParams, useUsageQuery, type UsageArgs } from '../usageApi';
import { dailySeries, tableRows, usedMetrics } from '../usageRows';
import { DownloadIcon } from '../../../layout/icons';

/** The month of today in South Africa (UTC+2, no daylight saving), 'YYYY-MM'. */
const currentMonth = () => new Date(Date.now() + 2 * 3600_000).toISOString().slice(0, 7);

/** 'All groups' in the picker (administrators): an empty value, since no group id is empty. */
const ALL = '';

/**
 * /services/admin/usage (issue 22): what a group used in a month — a chart per metric over the days, the
 * month's totals per metric, service and source (API key or people), and the invoicing exports.
 * Administrators pick any group or all of them; a group's admin sees their own group.
 */
export function UsagePage() {
  const { user } = useCurrentUser();
  const isAdmin = canAccess(user, ADMIN_ROLES);
  const [groupId, setGroupId] = useState<string>(isAdmin ? ALL : (user?.groupID ?? ALL));
  const [month, setMonth] = useState(currentMonth);
  const args: UsageArgs = { month, ...(groupId ? { groupId } : {}) };
  const usage = useUsageQuery(args);
  const groups = useAllGroupsQuery(undefined, { skip: !isAdmin });
  const query = usageParams(args);

  return (
    <AdminPage
      title={USAGE_TEXT.title}
      backToAdmin={isAdmin}
      subtitle={USAGE_TEXT.subtitle}
      actions={
        <>
          <Button
            variant="outlined"
            startIcon={<DownloadIcon />}
            href={`${USAGE_ROUTES.exportXlsx}?${query}`}
            download
          >
            {USAGE_TEXT.exportXlsx}
          </Button>
          <Button
            variant="outlined"
            startIcon={<DownloadIcon />}
            href={`${USAGE_ROUTES.exportCsv}?${query}`}
            download
          >
            {USAGE_TEXT.exportCsv}
          </Button>
        </>
      }
    >
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ mb: 3 }}>
        {isAdmin ? (
          <TextField
            select
            label={USAGE_TEXT.group}
            value={groupId}
            onChange={(event) => setGroupId(event.target.value)}
            sx={{ minWidth: 280 }}
            size="small"
          >
            <MenuItem value={ALL}>{USAGE_TEXT.allGroups}</MenuItem>
            {(groups.data ?? []).map((group) => (
              <MenuItem key={group._id} value={group._id}>
                {group.name} ({group.code})
              </MenuItem>
            ))}
          </TextField>
        ) : (
          <TextField
            label={USAGE_TEXT.group}
            value={user?.groupName || USAGE_TEXT.ownGroup}
            size="small"
            slotProps={{ input: { readOnly: true } }}
          />
        )}
        <TextField
          type="month"
          label={USAGE_TEXT.month}
          value={month}
          onChange={(event) => event.target.value && setMonth(event.target.value)}
          size="small"
          slotProps={{ inputLabel: { shrink: true } }}
        />
      </Stack>
      {usage.isFetching && !usage.data && <CircularProgress aria-label={USAGE_TEXT.loading} />}
      {usage.isError && <Alert severity="error">{USAGE_TEXT.loadingFailed}</Alert>}
      {usage.data && <UsageReport answer={usage.data} />}
    </AdminPage>
  );
}

function UsageReport({ answer }: { answer: NonNullable<ReturnType<typeof useUsageQuery>['data']> }) {
  const metrics = usedMetrics(answer);
  if (metrics.length === 0) return <Alert severity="info">{USAGE_TEXT.nothing(answer.month)}</Alert>;
  const rows = tableRows(answer, USAGE_TEXT.session);
  return (
    <Stack spacing={3}>
      <Box
        sx={{
          display: 'grid',
          gap: 2,
          gridTemplateColumns: { xs: '1fr', lg: '1fr 1fr' },
        }}
      >
        {metrics.map((metric) => {
          const title = `${USAGE_TEXT.metrics[metric]}: ${formatNumber(answer.totals[metric] ?? 0)}`;
          return (
            <Paper key={metric} variant="outlined" sx={{ p: 1 }}>
              <Box
                component="figure"
                aria-label={title}
                sx={{ m: 0, '& svg': { maxWidth: '100%', height: 'auto', display: 'block' } }}
                // Built by @portal/charts from numbers, every text escaped: no user HTML goes in.
                dangerouslySetInnerHTML={{
                  __html: dailyCountsSvg(dailySeries(answer, metric), {
                    title,
                    unit: USAGE_TEXT.metrics[metric].toLowerCase(),
                  }),
                }}
              />
            </Paper>
          );
        })}
      </Box>
      <TableContainer component={Paper} variant="outlined">
        <Table size="small" aria-label={USAGE_TEXT.tableLabel(answer.month)}>
          <TableHead>
            <TableRow>
              <TableCell>{USAGE_TEXT.columns.metric}</TableCell>
              <TableCell>{USAGE_TEXT.columns.service}</TableCell>
              <TableCell>{USAGE_TEXT.columns.source}</TableCell>
              <TableCell align="right">{USAGE_TEXT.columns.count}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map((row) => (
              <TableRow key={row.key}>
                <TableCell>{USAGE_TEXT.metrics[row.metric] ?? row.metric}</TableCell>
                <TableCell>{row.service}</TableCell>
                <TableCell>{row.source}</TableCell>
                <TableCell align="right">{formatNumber(row.count)}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
      <Typography variant="body2" color="text.secondary">
        {USAGE_TEXT.sast}
      </Typography>
    </Stack>
  );
}
