import { useEffect, useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import type { InsightAnswer } from '@portal/contracts';
import { canAccess } from '@portal/domain';
import { useCurrentUser } from '@portal/web-kit';
import { CONSOLE_ROLES } from '../../../access';
import { QueuePage } from '../../../layout/QueuePage';
import { ChartCard } from '../components/ChartCard';
import { InsightFilters, initialFilters, type InsightFilterValues } from '../components/InsightFilters';
import { LateList } from '../components/LateList';
import { useInsightQuery, type InsightArgs } from '../insightApi';
import {
  backlogView,
  flowView,
  groupsView,
  headline,
  operatorsView,
  queuesView,
  sendBacksView,
  statusTimesView,
  turnaroundView,
} from '../insightViews';
import { INSIGHT_TEXT } from '../texts';

/**
 * /requests/insight (issue 24): how the request work is going over a period — the headline figures, the
 * late requests (one click from the console), and a chart per concern, each with its numbers in a table and
 * its data as xlsx/CSV. Every figure comes from the server (GET /api/v1.0/requests/insight). Administrators
 * and SAVi operators see every group (or pick one); a group's admin sees their own.
 */
export function InsightPage() {
  const { user } = useCurrentUser();
  const seesAll = canAccess(user, CONSOLE_ROLES);
  const [filters, setFilters] = useState<InsightFilterValues>(() => initialFilters());
  const [latePage, setLatePage] = useState(1);
  const args: InsightArgs = {
    from: filters.from,
    to: filters.to,
    ...(filters.group ? { group: filters.group } : {}),
    ...(filters.type ? { type: filters.type } : {}),
    latePage,
  };
  const insight = useInsightQuery(args);
  const answer = insight.data;
  // The groups met in the figures so far (the busiest of each answer), so a picked group keeps the others listed.
  const [knownGroups, setKnownGroups] = useState<ReadonlyMap<string, string>>(new Map());
  useEffect(() => {
    const found = (answer?.groups ?? []).filter((g) => g.groupId && !knownGroups.has(g.groupId));
    if (found.length)
      setKnownGroups(
        new Map([...knownGroups, ...found.map((g) => [g.groupId as string, g.groupName] as const)]),
      );
  }, [answer, knownGroups]);
  const groups = [...knownGroups]
    .map(([id, name]) => ({ id, name }))
    .sort((a, b) => a.name.localeCompare(b.name));

  const changeFilters = (next: InsightFilterValues) => {
    setFilters(next);
    setLatePage(1);
  };

  return (
    <QueuePage title={INSIGHT_TEXT.title} subtitle={INSIGHT_TEXT.subtitle}>
      <InsightFilters
        values={filters}
        onChange={changeFilters}
        groups={seesAll ? groups : null}
        ownGroupName={user?.groupName}
      />
      <Box aria-live="polite" aria-busy={insight.isFetching}>
        {insight.isFetching && !answer && <CircularProgress aria-label={INSIGHT_TEXT.loading} />}
        {insight.isError && <Alert severity="error">{INSIGHT_TEXT.loadingFailed}</Alert>}
      </Box>
      {answer && <Figures answer={answer} args={args} onLatePage={setLatePage} />}
    </QueuePage>
  );
}

function Figures({
  answer,
  args,
  onLatePage,
}: {
  answer: InsightAnswer;
  args: InsightArgs;
  onLatePage: (page: number) => void;
}) {
  const top = headline(answer);
  const flow = flowView(answer);
  const groups = groupsView(answer);
  const turnaround = turnaroundView(answer);
  const statusTimes = statusTimesView(answer);
  const backlog = backlogView(answer);
  const sendBacks = sendBacksView(answer);
  const operators = operatorsView(answer);
  const queues = queuesView(answer);
  const figures: [string, string, string][] = [
    ['created', INSIGHT_TEXT.headline.created, String(top.created)],
    ['finished', INSIGHT_TEXT.headline.finished, String(top.finished)],
    ['median', INSIGHT_TEXT.headline.median, INSIGHT_TEXT.hours(top.median)],
    ['p90', INSIGHT_TEXT.headline.p90, INSIGHT_TEXT.hours(top.p90)],
    ['late', INSIGHT_TEXT.headline.late, String(top.late)],
    ['sendBackRate', INSIGHT_TEXT.headline.sendBackRate, INSIGHT_TEXT.percent(top.sendBackRate)],
  ];
  return (
    <>
      <Box
        component="dl"
        aria-label={`${answer.period.from} to ${answer.period.to}`}
        sx={{
          display: 'grid',
          gap: 1.5,
          gridTemplateColumns: 'repeat(auto-fill, minmax(170px, 1fr))',
          m: 0,
          mb: 2,
        }}
      >
        {figures.map(([key, label, value]) => (
          <Paper key={key} variant="outlined" sx={{ p: 1.5 }} data-figure={key}>
            <Typography component="dt" variant="body2" color="text.secondary">
              {label}
            </Typography>
            <Typography component="dd" sx={{ m: 0, fontSize: '1.5rem', fontWeight: 600 }}>
              {value}
            </Typography>
          </Paper>
        ))}
      </Box>
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', xl: '1fr 1fr' } }}>
        <ChartCard chart="turnaround" args={args} svg={turnaround.svg} table={turnaround.table} />
        <ChartCard chart="late" args={args}>
          <LateList late={answer.late} onPage={onLatePage} />
        </ChartCard>
        <ChartCard chart="flow" args={args} table={flow.table}>
          <Typography variant="body2" color="text.secondary">
            {INSIGHT_TEXT.perBucket[answer.period.bucket]}
          </Typography>
          <Box sx={{ '& svg': { maxWidth: '100%', height: 'auto', display: 'block' } }}>
            {/* Built by @portal/charts from numbers, every text escaped: no user HTML goes in. */}
            <div dangerouslySetInnerHTML={{ __html: flow.createdSvg }} />
            <div dangerouslySetInnerHTML={{ __html: flow.finishedSvg }} />
          </Box>
        </ChartCard>
        <ChartCard chart="statusTimes" args={args} svg={statusTimes.svg} table={statusTimes.table} />
        <ChartCard chart="backlog" args={args} svg={backlog.svg} table={backlog.table} />
        <ChartCard chart="groups" args={args} svg={groups.svg} table={groups.table} />
        <ChartCard chart="sendBacks" args={args} svg={sendBacks.svg} table={sendBacks.table} />
        <ChartCard chart="operators" args={args} svg={operators.svg} table={operators.table} />
        {answer.queues.length > 0 && (
          <ChartCard chart="queues" args={args} svg={queues.svg} table={queues.table}>
            <Typography variant="body2" color="text.secondary">
              {INSIGHT_TEXT.queuesIntro}
            </Typography>
          </ChartCard>
        )}
      </Box>
    </>
  );
}
