import { Client } from 'pg';

export interface PgListenerOptions {
  databaseUrl: string;
  /** Shown in pg_stat_activity (e.g. 'requests-worker webhooks'). */
  applicationName: string;
  channels: readonly string[];
  /** Each notification with a payload: the channel and the payload (an id). */
  onId: (channel: string, id: string) => void;
  /** Run on each (re)connection, for what was committed while nobody listened (the sweeper). */
  onConnected: () => Promise<unknown>;
  /** A failed connection, logged before the next try. */
  onError: (err: Error) => void;
}

export interface PgListener {
  /**
   * Settles once the first connection LISTENs on every channel (or `waitMs` passed, the database still
   * away). A worker waits for it before it says it is started: a change committed before the LISTEN is
   * heard by no one, and waits for the sweeper (a minute) instead of milliseconds.
   */
  listening(waitMs?: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * LISTENs on a connection of its own. A lost connection is opened again after a second; on each
 * (re)connection `onConnected` runs once. The webhook and notification workers both listen this way.
 */
export function startPgListener(options: PgListenerOptions): PgListener {
  let client: Client | null = null;
  let heard: () => void = () => undefined;
  const firstListen = new Promise<void>((resolve) => (heard = resolve));
  let closed = false;
  let retry: NodeJS.Timeout | null = null;
  const connect = async () => {
    const next = new Client({
      connectionString: options.databaseUrl,
      application_name: options.applicationName,
    });
    client = next;
    next.on('notification', (message) => {
      if (message.payload) options.onId(message.channel, message.payload);
    });
    const again = () => {
      if (closed || client !== next) return;
      client = null;
      next.end().catch(() => undefined);
      retry = setTimeout(() => void connect(), 1000);
    };
    next.on('error', again);
    next.on('end', again);
    try {
      await next.connect();
      for (const channel of options.channels) await next.query(`LISTEN ${channel}`);
      heard();
      await options.onConnected();
    } catch (err) {
      options.onError(err as Error);
      again();
    }
  };
  void connect();
  return {
    async listening(waitMs = 10_000) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        firstListen,
        new Promise<void>((resolve) => (timer = setTimeout(resolve, waitMs))),
      ]);
      clearTimeout(timer);
    },
    async close() {
      closed = true;
      if (retry) clearTimeout(retry);
      const current = client;
      client = null;
      await current?.end().catch(() => undefined);
    },
  };
}
