import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { DataSource, EntityManager } from 'typeorm';
import { USAGE_SESSION_SOURCE, type UsageMetric } from '@portal/contracts';
import { SAST_OFFSET_MINUTES } from '@portal/domain';
import type { Redis } from './redis';

/**
 * Usage metering (issue 22; docs/architecture.md "Usage metering"). Each process counts what its callers
 * use — per group, service, SAST day, metric and source (an API key's id, or 'session') — and adds it to
 * PostgreSQL (`metering.usage_daily`) so that no answered call is lost or counted twice when the process
 * is killed or Redis restarts:
 *
 * - A count adds to the process's in-memory running total of the unit and to its journal in Redis
 *   (`<prefix>:usage:live:<processId>`, HINCRBY), which the answer waits for (at most a short time: a
 *   Redis outage never holds up or fails an answer).
 * - Every few seconds and when it closes the process adds what it counted since its last flush to
 *   `usage_daily` and records, in the same transaction, its running totals as added so far
 *   (`metering.process_totals.flushed`).
 * - A process killed between two flushes leaves its journal behind and its heartbeat key expires; another
 *   process's flusher (under a Redis lock) adds (journal − flushed) for it, then deletes the journal and
 *   the rows. Additions never move `flushed` down (GREATEST), and every addition for one process holds one
 *   advisory lock, so the flush and a recovery cannot both add the same part.
 * - A Redis restart loses the journal, not the counts: the live process still has its running totals
 *   and writes them into its journal again (HSET) as soon as it reconnects, and with each heartbeat.
 *
 * What is not exact: a call cut by the kill before its answer may be counted (its journal write done, its
 * answer never sent); and a process that stalls for longer than the heartbeat's lifetime is taken for
 * dead — what it counted in its last flush interval may then be counted twice (logged).
 */

export interface MeteringSettings {
  /** Off (USAGE_METERING=off): nothing is counted (the benchmark's baseline). */
  enabled: boolean;
  /** How often the in-memory counts are added to PostgreSQL (USAGE_FLUSH_MS). */
  flushMs: number;
  /** How long a process's heartbeat lives without being renewed (USAGE_HEARTBEAT_SECONDS). */
  heartbeatSeconds: number;
  /** How long an answer waits for its journal write at most (USAGE_JOURNAL_TIMEOUT_MS). */
  journalTimeoutMs: number;
}

export const DEFAULT_METERING: MeteringSettings = {
  enabled: true,
  flushMs: 5_000,
  heartbeatSeconds: 30,
  journalTimeoutMs: 250,
};

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
const fieldOf = (u: UsageUnit) => `${u.groupId ?? '-'}|${u.service}|${u.day}|${u.metric}|${u.source}`;
const unitOf = (field: string): UsageUnit | null => {
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

/** Today in SAST (UTC+2 all year: no daylight saving), 'YYYY-MM-DD'. */
export const sastDay = (at = Date.now()) =>
  new Date(at + SAST_OFFSET_MINUTES * 60_000).toISOString().slice(0, 10);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type Log = Pick<FastifyInstance['log'], 'warn' | 'error'>;

export interface UsageMeterOptions {
  ds: Pick<DataSource, 'transaction'>;
  redis: Redis;
  /** The service counting (config.serviceName). */
  service: string;
  /** Prefix of the portal's Redis keys (config.redisPrefix; 'portal' by default). */
  redisPrefix?: string;
  settings?: Partial<MeteringSettings>;
  log?: Log;
  /** This process's id (tests); by default host, pid and a random part. */
  processId?: string;
}

/** The SQL of one addition (a flush, or a recovery on a dead process's behalf). */
async function addTotals(
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
async function forget(manager: EntityManager, processId: string): Promise<void> {
  await manager.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [`metering:${processId}`]);
  await manager.query(`DELETE FROM metering.process_totals WHERE process_id = $1`, [processId]);
}

/** A process's usage meter (see the top of this file). Counting never throws. */
export class UsageMeter {
  readonly processId: string;
  readonly settings: MeteringSettings;
  private readonly totals = new Map<string, number>();
  /** What this process has added to PostgreSQL of each total. */
  private readonly flushed = new Map<string, number>();
  private keyUses = new Map<string, { calls: number; lastAt: number }>();
  private readonly journalKey: string;
  private readonly aliveKey: string;
  private readonly prefix: string;
  private timers: NodeJS.Timeout[] = [];
  private flushing: Promise<void> = Promise.resolve();
  private hasApiKeys: boolean | undefined;
  private closed = false;
  private readonly onReady = () => this.heartbeat();

  constructor(private readonly options: UsageMeterOptions) {
    this.settings = { ...DEFAULT_METERING, ...options.settings };
    this.prefix = options.redisPrefix ?? 'portal';
    this.processId =
      options.processId ??
      `${options.service}:${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
    this.journalKey = `${this.prefix}:usage:live:${this.processId}`;
    this.aliveKey = `${this.prefix}:usage:alive:${this.processId}`;
  }

  get service() {
    return this.options.service;
  }

  /** Starts the heartbeat, the flushes and the recovery of dead processes' journals. */
  async start(): Promise<void> {
    if (!this.settings.enabled) return;
    await this.heartbeat();
    // After a reconnect the journal may be gone (Redis restarted): written again at once from memory.
    this.options.redis.on('ready', this.onReady);
    const every = (ms: number, run: () => Promise<unknown>) => {
      const timer = setInterval(() => void run().catch(() => undefined), ms);
      timer.unref();
      this.timers.push(timer);
    };
    every(Math.max(200, (this.settings.heartbeatSeconds * 1000) / 3), () => this.heartbeat());
    every(this.settings.flushMs, async () => {
      await this.flush();
      await this.recoverOrphans();
    });
    // A process restarted after a kill recovers its predecessor's journal at once, not a flush later.
    void this.recoverOrphans();
  }

  /**
   * Counts `n` units; the promise settles once the journal holds them, or after the journal timeout (the
   * in-memory total holds them anyway). Never rejects.
   */
  count(unit: UsageUnit, n = 1): Promise<void> {
    if (!this.settings.enabled || this.closed || !(n > 0) || !Number.isSafeInteger(n))
      return Promise.resolve();
    const field = fieldOf(unit);
    this.totals.set(field, (this.totals.get(field) ?? 0) + n);
    const written = this.options.redis.hincrby(this.journalKey, field, n).then(
      () => undefined,
      () => undefined,
    );
    const ac = new AbortController();
    return Promise.race([
      written.finally(() => ac.abort()),
      sleep(this.settings.journalTimeoutMs, undefined, { signal: ac.signal }).catch(() => undefined),
    ]);
  }

  /** One call with an API key (its use count and last use, written by the flush). */
  keyUsed(keyId: string, at = Date.now()): void {
    if (!this.settings.enabled || this.closed) return;
    const use = this.keyUses.get(keyId);
    if (use) {
      use.calls++;
      use.lastAt = Math.max(use.lastAt, at);
    } else this.keyUses.set(keyId, { calls: 1, lastAt: at });
  }

  /** The running totals (tests). */
  snapshot(): Map<string, number> {
    return new Map(this.totals);
  }

  /**
   * Renews the heartbeat and writes the running totals into the journal (HSET: right whatever the journal
   * held). Both are sent in the order of the counts' HINCRBYs on the one connection, so a count issued
   * after this snapshot lands on top of it, and one issued before is in it and overwritten.
   */
  private async heartbeat(): Promise<void> {
    if (this.closed) return;
    const { redis } = this.options;
    const alive = redis.set(this.aliveKey, String(Date.now()), 'EX', this.settings.heartbeatSeconds);
    const seeded = this.totals.size
      ? redis.hset(this.journalKey, Object.fromEntries(this.totals))
      : Promise.resolve(0);
    await Promise.all([alive, seeded]).catch(() => undefined);
  }

  private async apiKeysTable(manager: EntityManager): Promise<boolean> {
    if (this.hasApiKeys === undefined) {
      const [row]: { found: string | null }[] = await manager.query(
        `SELECT to_regclass('identity.api_keys')::text AS found`,
      );
      this.hasApiKeys = !!row?.found;
    }
    return this.hasApiKeys;
  }

  /** Adds what was counted since the last flush to PostgreSQL (one transaction). Never rejects. */
  flush(): Promise<void> {
    const run = this.flushing.then(() => this.flushNow());
    this.flushing = run.catch(() => undefined);
    return this.flushing;
  }

  private async flushNow(): Promise<void> {
    const changed = new Map<string, number>();
    for (const [field, total] of this.totals)
      if (total > (this.flushed.get(field) ?? 0)) changed.set(field, total);
    const keyUses = this.keyUses;
    if (!changed.size && !keyUses.size) return;
    this.keyUses = new Map();
    try {
      const known = await this.options.ds.transaction(async (manager) =>
        addTotals(manager, this.processId, changed, keyUses, await this.apiKeysTable(manager)),
      );
      for (const [field, total] of changed) {
        if ((this.flushed.get(field) ?? 0) > 0 && !known.has(field))
          this.options.log?.error(
            { field, processId: this.processId },
            'usage metering: this process was taken for dead and its journal recovered; counts of its last flush interval may be counted twice',
          );
        this.flushed.set(field, total);
      }
    } catch (err) {
      // Kept for the next flush.
      for (const [id, use] of keyUses) {
        const now = this.keyUses.get(id);
        this.keyUses.set(id, {
          calls: use.calls + (now?.calls ?? 0),
          lastAt: Math.max(use.lastAt, now?.lastAt ?? 0),
        });
      }
      this.options.log?.warn({ err }, 'usage metering: flush failed, retried at the next one');
    }
  }

  /**
   * Adds, for each process whose heartbeat expired while its journal is left (a killed process), what
   * its journal holds beyond what it added itself; one process at a time does so (a Redis lock). Answers how
   * many journals it recovered. Never rejects.
   */
  async recoverOrphans(): Promise<number> {
    const { redis, ds } = this.options;
    const lockKey = `${this.prefix}:usage:recovery-lock`;
    const token = `${this.processId}:${Date.now()}`;
    let recovered = 0;
    try {
      const journals: string[] = [];
      const live = `${this.prefix}:usage:live:`;
      let cursor = '0';
      do {
        const [next, keys] = await redis.scan(cursor, 'MATCH', `${live}*`, 'COUNT', 200);
        cursor = next;
        journals.push(...keys.filter((key) => key !== this.journalKey));
      } while (cursor !== '0');
      if (!journals.length) return 0;
      if ((await redis.set(lockKey, token, 'PX', 60_000, 'NX')) !== 'OK') return 0;
      try {
        for (const journal of journals) {
          const processId = journal.slice(live.length);
          if (await redis.exists(`${this.prefix}:usage:alive:${processId}`)) continue;
          const held = await redis.hgetall(journal);
          const totals = new Map<string, number>();
          for (const [field, value] of Object.entries(held)) {
            const n = Number(value);
            if (Number.isSafeInteger(n) && n > 0) totals.set(field, n);
          }
          await ds.transaction((manager) => addTotals(manager, processId, totals, new Map(), false));
          // The journal goes first: rows left without it are harmless, a journal left without its rows
          // would be added again in full.
          await redis.del(journal);
          await ds.transaction((manager) => forget(manager, processId));
          recovered++;
        }
      } finally {
        // Only our own lock is taken off (it may have expired and been taken by another since).
        await redis
          .eval(
            `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0`,
            1,
            lockKey,
            token,
          )
          .catch(() => undefined);
      }
    } catch (err) {
      this.options.log?.warn(
        { err },
        'usage metering: recovering journals failed, tried again at the next flush',
      );
    }
    return recovered;
  }

  /**
   * Stops counting and flushes what is left. The journal and heartbeat are taken off only once the flush
   * succeeded; otherwise they stay, and another process recovers them once the heartbeat expired.
   */
  async close(): Promise<void> {
    if (this.closed) return;
    for (const timer of this.timers) clearInterval(timer);
    this.options.redis.off('ready', this.onReady);
    await this.flush();
    this.closed = true;
    const unflushed = [...this.totals].some(([field, total]) => total > (this.flushed.get(field) ?? 0));
    if (unflushed || !this.settings.enabled) return;
    try {
      // The journal first, as in the recovery.
      await this.options.redis.del(this.journalKey, this.aliveKey);
      await this.options.ds.transaction((manager) => forget(manager, this.processId));
    } catch {
      // Left for the recovery: with its rows there it adds nothing more.
    }
  }
}

/** The caller's API key id, when the call came with one (server-kit's auth sets request.apiKey). */
const apiKeyIdOf = (request: FastifyRequest): string | undefined =>
  (request as { apiKey?: { id?: string } | null }).apiKey?.id ?? undefined;

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Counts `n` units of `metric` for the caller (their group, this service, today in SAST, their API key
     * or 'session'); the answer is sent once the count is journaled (or after the journal's timeout).
     * Never throws. A no-op where metering is not installed or turned off.
     */
    meter: (request: FastifyRequest, metric: UsageMetric, n?: number) => void;
    usageMeter: UsageMeter | null;
  }
}

/** Answers that wait for their journal writes (see installMetering). */
const pending = new WeakMap<FastifyRequest, Promise<void>[]>();

/**
 * Gives the app `app.meter(request, metric, n)` backed by a UsageMeter of the service's own, started with
 * the app and flushed when it closes. Calls without a group count under no group (group_id null): kept
 * for the operators, never on a group's invoice. Every call with an API key also counts as one use of it.
 */
export async function installMetering(
  app: FastifyInstance,
  config: { serviceName: string; metering?: MeteringSettings; redisPrefix?: string },
  deps: { ds: Pick<DataSource, 'transaction'>; redis: Redis },
): Promise<UsageMeter> {
  const meter = new UsageMeter({
    ds: deps.ds,
    redis: deps.redis,
    service: config.serviceName,
    redisPrefix: config.redisPrefix,
    settings: config.metering,
    log: app.log,
  });
  app.decorate('usageMeter', meter);
  app.decorate('meter', (request: FastifyRequest, metric: UsageMetric, n = 1) => {
    if (!meter.settings.enabled) return;
    try {
      const written = meter.count(
        {
          groupId: request.user?.groupId ?? null,
          service: meter.service,
          day: sastDay(),
          metric,
          source: apiKeyIdOf(request) ?? USAGE_SESSION_SOURCE,
        },
        n,
      );
      const list = pending.get(request);
      if (list) list.push(written);
      else pending.set(request, [written]);
    } catch (err) {
      request.log.warn({ err }, 'usage metering: a count failed');
    }
  });
  if (meter.settings.enabled) {
    app.addHook('onSend', async (request) => {
      const list = pending.get(request);
      if (list) await Promise.all(list);
    });
    app.addHook('onResponse', async (request) => {
      const keyId = apiKeyIdOf(request);
      if (keyId) meter.keyUsed(keyId);
    });
  }
  app.addHook('onReady', () => meter.start());
  app.addHook('onClose', () => meter.close());
  return meter;
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
      [unit.groupId, unit.service, unit.day ?? sastDay(), unit.metric, unit.source, n],
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
