import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { INSIGHT_CHART_TITLES, type InsightChart } from '@portal/contracts';
import { insightExportHref, type InsightArgs } from '../insightApi';
import { CHART_NOTES, INSIGHT_TEXT } from '../texts';

export type Cell = string | number | null;

/** A table of a chart's numbers: its text alternative, and what the export holds. */
export interface DataTable {
  columns: string[];
  /** Columns holding numbers (right-aligned). */
  numeric?: number[];
  rows: Cell[][];
}

/** The chart's exports: the same rows as its table, from the server (xlsx or CSV). */
export function ExportButtons({ chart, args }: { chart: InsightChart; args: InsightArgs }) {
  const title = INSIGHT_CHART_TITLES[chart];
  return (
    <Stack direction="row" spacing={1}>
      {(['xlsx', 'csv'] as const).map((format) => (
        <Button
          key={format}
          size="small"
          variant="outlined"
          href={insightExportHref(args, chart, format)}
          download
          aria-label={INSIGHT_TEXT.exportLabel(title, format === 'xlsx' ? 'xlsx' : 'CSV')}
          data-export={`${chart}.${format}`}
        >
          {format === 'xlsx' ? INSIGHT_TEXT.exportXlsx : INSIGHT_TEXT.exportCsv}
        </Button>
      ))}
    </Stack>
  );
}

export function NumbersTable({ table, label }: { table: DataTable; label: string }) {
  if (table.rows.length === 0)
    return (
      <Typography variant="body2" color="text.secondary">
        {INSIGHT_TEXT.noData}
      </Typography>
    );
  const numeric = new Set(table.numeric ?? []);
  return (
    <Box sx={{ overflowX: 'auto', maxHeight: 320 }}>
      <Table size="small" aria-label={label} stickyHeader>
        <TableHead>
          <TableRow>
            {table.columns.map((column, i) => (
              <TableCell key={column} align={numeric.has(i) ? 'right' : 'left'}>
                {column}
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {table.rows.map((row, r) => (
            <TableRow key={r}>
              {row.map((cell, i) => (
                <TableCell key={i} align={numeric.has(i) ? 'right' : 'left'}>
                  {cell ?? '–'}
                </TableCell>
              ))}
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Box>
  );
}

/**
 * One chart of the dashboard: its title and what it shows, the SVG of @portal/charts (role="img" named by
 * its title), its numbers in a table under a disclosure (the chart's text alternative; a native details
 * element, so it opens from the keyboard), and its exports.
 */
export function ChartCard({
  chart,
  args,
  svg,
  table,
  children,
}: {
  chart: InsightChart;
  args: InsightArgs;
  /** Built by @portal/charts from numbers, every text escaped: no user HTML goes in. */
  svg?: string;
  /** The chart's numbers (none where the content is itself a table). */
  table?: DataTable;
  children?: ReactNode;
}) {
  const title = INSIGHT_CHART_TITLES[chart];
  const headingId = `insight-${chart}-heading`;
  return (
    <Paper
      component="section"
      variant="outlined"
      aria-labelledby={headingId}
      data-chart={chart}
      sx={{ p: 2, display: 'flex', flexDirection: 'column', gap: 1, minWidth: 0 }}
    >
      <Stack
        direction="row"
        sx={{ justifyContent: 'space-between', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}
      >
        <Typography variant="h2" id={headingId} sx={{ fontSize: '1.1rem', fontWeight: 600 }}>
          {title}
        </Typography>
        <ExportButtons chart={chart} args={args} />
      </Stack>
      {CHART_NOTES[chart] && (
        <Typography variant="body2" color="text.secondary">
          {CHART_NOTES[chart]}
        </Typography>
      )}
      {children}
      {svg && (
        <Box
          sx={{ m: 0, '& svg': { maxWidth: '100%', height: 'auto', display: 'block' } }}
          dangerouslySetInnerHTML={{ __html: svg }}
        />
      )}
      {table && (
        <Box
          component="details"
          open={!svg}
          sx={{ '& > summary': { cursor: 'pointer', fontWeight: 500, py: 0.5 } }}
        >
          <summary>{INSIGHT_TEXT.showData}</summary>
          <NumbersTable table={table} label={`${title}: ${INSIGHT_TEXT.showData}`} />
        </Box>
      )}
    </Paper>
  );
}
