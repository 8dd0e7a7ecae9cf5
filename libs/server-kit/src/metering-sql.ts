import type { EntityManager } from 'typeorm';
import { USAGE_SESSION_SOURCE, type UsageMetric } from '@portal/contracts';
import { formatSaIsoDate } from '@portal/domain';

/**
 * The usage meter's PostgreSQL side (metering.ts has the meter itself): a unit and its journal field, the
 * one addition a flush or a recovery makes, and the direct counts of rare units (a worker's PDFs) that
 * need no journal.
 */

/** One counted unit. */
export interface UsageUnit {
  groupId: string | null;
  service: string;
  /** 'YYYY-MM-DD' in SAST. */
  day: string;
  metric: UsageMetric;
  source: string;
}

/** The journal's field of a unit (one string: Redis hash fields are flat). */
export const fieldOf = (u: UsageUnit) => `${u.groupId ?? '-'}|${u.service}|${u.day}|${u.metric}|${u.source}`;
export const unitOf = (field: string): UsageUnit | null => {
  const [groupId, service, day, metric, source] = field.split('|');
  if (!groupId || !service || !/^\d{4}-\d{2}-\d{2}$/.test(day ?? '') || !metric || !source) return null;
  return {
    groupId: groupId === '-' ? null : groupId,
    service,
    day: day!,
    metric: metric as UsageMetric,
    source,
  };
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The SQL of one addition (a flush, or a recovery on a dead process's behalf). */
export async function addTotals(
  manager: EntityManager,
  processId: string,
  totals: Map<string, number>,
  keyUses: Map<string, { calls: number; lastAt: number }>,
  hasApiKeys: boolean,
): Promise<Set<string>> {
  await manager.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [`metering:${processId}`]);
  const fields = [...totals.keys()];
  const known = new Map<string, number>();
  if (fields.length) {
    const rows: { field: string; flushed: string }[] = await manager.query(
      `SELECT field, flushed FROM metering.process_totals WHERE process_id = $1 AND field = ANY($2::text[])`,
      [processId, fields],
    );
    for (const row of rows) known.set(row.field, Number(row.flushed));
  }
  const units: UsageUnit[] = [];
  const deltas: number[] = [];
  const upFields: string[] = [];
  const upTotals: number[] = [];
  for (const [field, total] of totals) {
    const unit = unitOf(field);
    if (!unit) continue;
    const delta = total - (known.get(field) ?? 0);
    if (delta <= 0) continue;
    units.push(unit);
    deltas.push(delta);
    upFields.push(field);
    upTotals.push(total);
  }
  if (units.length) {
    await manager.query(
      `INSERT INTO metering.usage_daily (group_id, service, day, metric, source, count)
       SELECT * FROM unnest($1::uuid[], $2::text[], $3::date[], $4::text[], $5::text[], $6::bigint[])
       ON CONFLICT ON CONSTRAINT usage_daily_unit DO UPDATE SET count = usage_daily.count + excluded.count`,
      [
        units.map((u) => u.groupId),
        units.map((u) => u.service),
        units.map((u) => u.day),
        units.map((u) => u.metric),
        units.map((u) => u.source),
        deltas,
      ],
    );
    await manager.query(
      `INSERT INTO metering.process_totals (process_id, field, flushed)
       SELECT $1, * FROM unnest($2::text[], $3::bigint[])
       ON CONFLICT (process_id, field) DO UPDATE
         SET flushed = GREATEST(process_totals.flushed, excluded.flushed), updated_at = now()`,
      [processId, upFields, upTotals],
    );
  }
  const keys = [...keyUses].filter(([id]) => UUID.test(id));
  if (hasApiKeys && keys.length)
    await manager.query(
      `UPDATE identity.api_keys k
          SET use_count = k.use_count + u.calls,
              last_used_at = GREATEST(k.last_used_at, u.last_at)
         FROM unnest($1::uuid[], $2::bigint[], $3::timestamptz[]) AS u(id, calls, last_at)
        WHERE k.id = u.id`,
      [keys.map(([id]) => id), keys.map(([, u]) => u.calls), keys.map(([, u]) => new Date(u.lastAt))],
    );
  return new Set(known.keys());
}

/** Takes a process's rows off once its journal is gone (it added everything). */
export async function forget(manager: EntityManager, processId: string): Promise<void> {
  await manager.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [`metering:${processId}`]);
  await manager.query(`DELETE FROM metering.process_totals WHERE process_id = $1`, [processId]);
}

/**
 * Counts a rare unit straight into PostgreSQL (no journal, no flush): a PDF done in a worker process,
 * counted once where its job turns done. Never rejects (a failure is logged by the caller's `log`).
 */
export async function recordUsageNow(
  db: { query(sql: string, params?: unknown[]): Promise<unknown> },
  unit: Omit<UsageUnit, 'day'> & { day?: string },
  n = 1,
  log?: (err: unknown) => void,
): Promise<void> {
  try {
    await db.query(
      `INSERT INTO metering.usage_daily (group_id, service, day, metric, source, count)
       VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT ON CONSTRAINT usage_daily_unit DO UPDATE SET count = usage_daily.count + excluded.count`,
      [unit.groupId, unit.service, unit.day ?? formatSaIsoDate(Date.now()), unit.metric, unit.source, n],
    );
  } catch (err) {
    log?.(err);
  }
}

/**
 * Counts a unit of a request's (a PDF of its report) for the request's group and the source it was made
 * with: the API key whose account logged it, or 'session'. Never rejects.
 */
export async function recordRequestUsage(
  db: { query(sql: string, params?: unknown[]): Promise<unknown> },
  requestId: string,
  service: string,
  metric: UsageMetric,
  log?: (err: unknown) => void,
): Promise<void> {
  try {
    const [row] = (await db.query(
      `SELECT r.group_id AS "groupId", k.id AS "keyId"
         FROM requests.requests r LEFT JOIN identity.api_keys k ON k.user_id = r.user_id
        WHERE r.id = $1`,
      [requestId],
    )) as { groupId: string | null; keyId: string | null }[];
    if (!row) return;
    await recordUsageNow(
      db,
      { groupId: row.groupId, service, metric, source: row.keyId ?? USAGE_SESSION_SOURCE },
      1,
      log,
    );
  } catch (err) {
    log?.(err);
  }
}
