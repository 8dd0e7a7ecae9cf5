import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { DataSource, EntityManager } from 'typeorm';
import { USAGE_SESSION_SOURCE, type UsageMetric } from '@portal/contracts';
import { formatSaIsoDate } from '@portal/domain';
import { addTotals, fieldOf, forget, type UsageUnit } from './metering-sql';
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
          day: formatSaIsoDate(Date.now()),
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
