import {
  INSIGHT_DAILY_MAX_DAYS,
  INSIGHT_MAX_DAYS,
  INSIGHT_TEXTS,
  REQUEST_TYPES,
  ROLE,
  insightPresetRange,
  type InsightQuery,
} from '@portal/contracts';
import { badRequest, forbidden, type Caller } from '@portal/server-kit';

/** The request sub-types the table allows (requests_request_sub_type_check). */
export const REQUEST_SUB_TYPES = [
  'Replacement Value Estimate',
  'Building Size Calculation',
  "Can't Locate",
  'Report',
] as const;

/** What one answer covers: the period's SAST days, its buckets, and the requests counted. */
export interface InsightScope {
  /** 'YYYY-MM-DD', both included. */
  from: string;
  to: string;
  bucket: 'day' | 'week';
  /** Every bucket's first day, in order. */
  buckets: string[];
  group: string | null;
  type: string | null;
  subtype: string | null;
  latePage: number;
}

const DAY_MS = 86_400_000;
const dayNumber = (day: string) => Date.parse(`${day}T00:00:00Z`) / DAY_MS;
const dayOf = (n: number) => new Date(n * DAY_MS).toISOString().slice(0, 10);

function checkDay(name: string, day: string): number {
  const n = dayNumber(day);
  // 2026-02-30 parses to NaN in V8's strict ISO form; a day that rolls over is refused too.
  if (!Number.isFinite(n) || dayOf(n) !== day) throw badRequest(INSIGHT_TEXTS.badDay(name));
  return n;
}

/** The buckets' first days: each day, or each Monday from the one on or before `from` (weeks run Monday to Sunday). */
export function bucketsOf(from: string, to: string, bucket: 'day' | 'week'): string[] {
  const start = dayNumber(from);
  const end = dayNumber(to);
  // 1970-01-01 was a Thursday: day n is a Monday when (n + 3) % 7 === 0.
  const first = bucket === 'day' ? start : start - ((start + 3) % 7);
  const step = bucket === 'day' ? 1 : 7;
  const days: string[] = [];
  for (let n = first; n <= end; n += step) days.push(dayOf(n));
  return days;
}

/**
 * The period and the requests the caller asked for and may see: the days checked (400 that says why), the
 * type and sub-type known ones, and the group: an administrator or SAVi operator any (or all), a group's
 * admin only their own — their group when they name none, a 403 for another.
 */
export function insightScope(caller: Caller, query: InsightQuery, now = new Date()): InsightScope {
  const preset = insightPresetRange('thisWeek', now);
  const from = query.from ?? (query.to ? query.to : preset.from);
  const to = query.to ?? (query.from ? insightPresetRange('custom', now).to : preset.to);
  const start = checkDay('from', from);
  const end = checkDay('to', to);
  if (start > end) throw badRequest(INSIGHT_TEXTS.badRange);
  if (end - start + 1 > INSIGHT_MAX_DAYS) throw badRequest(INSIGHT_TEXTS.tooLong);
  if (query.type !== undefined && !(REQUEST_TYPES as readonly string[]).includes(query.type))
    throw badRequest(`type must be one of ${REQUEST_TYPES.join(', ')}.`);
  if (query.subtype !== undefined && !(REQUEST_SUB_TYPES as readonly string[]).includes(query.subtype))
    throw badRequest(`subtype must be one of ${REQUEST_SUB_TYPES.join(', ')}.`);

  const seesAll = caller.roles.includes(ROLE.admin) || caller.roles.includes(ROLE.saviOperator);
  let group = query.group?.toLowerCase() ?? null;
  if (!seesAll) {
    // The gate let in a group's admin (the role read from the database on this call, server-kit callerHooks).
    if (!caller.roles.includes(ROLE.groupAdmin)) throw forbidden(INSIGHT_TEXTS.staffOnly);
    if (!caller.group) throw forbidden(INSIGHT_TEXTS.noGroup);
    if (group !== null && group !== caller.group.id.toLowerCase()) throw forbidden(INSIGHT_TEXTS.otherGroup);
    group = caller.group.id;
  }
  const bucket = end - start + 1 > INSIGHT_DAILY_MAX_DAYS ? 'week' : 'day';
  return {
    from,
    to,
    bucket,
    buckets: bucketsOf(from, to, bucket),
    group,
    type: query.type ?? null,
    subtype: query.subtype ?? null,
    latePage: query.latePage ?? 1,
  };
}
