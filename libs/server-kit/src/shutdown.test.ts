import { randomUUID } from 'node:crypto';
import { connect, type AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { Queue, Worker } from 'bullmq';
import { createServiceApp } from './app';
import { registerHealth } from './health';
import { loadBaseConfig } from './config';
import { bullConnection } from './redis';
import { runServer } from './server';
import { closeGracefully, type ShutdownLog } from './shutdown';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const config = { ...loadBaseConfig('shutdown-test', 0), logLevel: 'silent' };

// closeGracefully ends the process when it is done: here process.exit is only recorded, and the signal
// listeners close-with-grace installs are taken off again after each test.
const EVENTS = ['SIGTERM', 'SIGINT', 'uncaughtException', 'unhandledRejection', 'beforeExit'] as const;
type Listener = (...args: unknown[]) => void;
// One signature for the signals and the error events alike (Node types them apart).
const listenersOf = (event: string) => process.listeners(event as NodeJS.Signals) as Listener[];
let exit: jest.SpyInstance;
let listenersBefore: Map<string, Listener[]>;
beforeEach(() => {
  // close-with-grace's grace timer outlives a quick stop; a short one lets Jest end soon after.
  process.env.SHUTDOWN_GRACE_MS = '1000';
  exit = jest.spyOn(process, 'exit').mockImplementation((() => undefined) as never);
  listenersBefore = new Map(EVENTS.map((event) => [event, listenersOf(event)]));
});
afterEach(() => {
  delete process.env.SHUTDOWN_GRACE_MS;
  delete process.env.SHUTDOWN_READY_GRACE_MS;
  delete process.env.SHUTDOWN_DRAIN_MIN_MS;
  exit.mockRestore();
  for (const event of EVENTS)
    for (const listener of listenersOf(event))
      if (!listenersBefore.get(event)!.includes(listener))
        process.removeListener(event as NodeJS.Signals, listener);
});

async function waitFor(check: () => Promise<boolean>, ms = 5_000) {
  for (const deadline = Date.now() + ms; !(await check()); await sleep(20))
    if (Date.now() > deadline) throw new Error('timed out');
}

async function until(check: () => boolean, ms = 5_000) {
  for (const deadline = Date.now() + ms; !check(); await sleep(20))
    if (Date.now() > deadline) throw new Error('timed out');
}

const quietLog = (): ShutdownLog & { lines: string[] } => {
  const lines: string[] = [];
  return { lines, info: (_d, msg) => lines.push(msg), error: (_d, msg) => lines.push(msg) };
};

describe('stopping gracefully', () => {
  it('a service says it is stopping, then refuses new connections, answers those in flight, exits 0', async () => {
    process.env.SHUTDOWN_READY_GRACE_MS = '300';
    const app = createServiceApp(config);
    registerHealth(app, 'shutdown-test', {});
    app.get('/slow', async () => {
      await sleep(800);
      return { done: true };
    });
    const shutdown = await runServer(app, '127.0.0.1', 0, 'shutdown-test');
    const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    const inFlight = fetch(`${base}/slow`);
    await sleep(100);
    const stopping = shutdown.close(); // what SIGTERM runs
    // First /ready answers 503 (still listening: a load balancer reading it sends elsewhere), and each
    // answer closes its connection.
    const ready = await fetch(`${base}/ready`);
    expect([ready.status, ready.headers.get('connection')]).toEqual([503, 'close']);
    expect(await ready.json()).toEqual({
      status: 'degraded',
      service: 'shutdown-test',
      checks: { process: 'stopping' },
    });
    // Then new connections are refused.
    await waitFor(async () => {
      try {
        await fetch(`${base}/ready`);
        return false;
      } catch {
        return true;
      }
    });
    const answer = await inFlight;
    expect([answer.status, await answer.json()]).toEqual([200, { done: true }]);
    // Its connection closes with it (kept alive, idle, it would hold the stop up).
    expect(answer.headers.get('connection')).toBe('close');
    await stopping;
    expect(exit).toHaveBeenCalledWith(0);
  });

  it('keeps taking new connections for SHUTDOWN_DRAIN_MIN_MS even with none open (a Service still routing)', async () => {
    process.env.SHUTDOWN_READY_GRACE_MS = '100';
    process.env.SHUTDOWN_DRAIN_MIN_MS = '2000';
    process.env.SHUTDOWN_GRACE_MS = '5000';
    const app = createServiceApp(config);
    registerHealth(app, 'shutdown-test', {});
    const shutdown = await runServer(app, '127.0.0.1', 0, 'shutdown-test');
    const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    const stopping = shutdown.close();
    // Past the ready grace, with no connection open: without the minimum it would no longer listen.
    await sleep(500);
    const late = await fetch(`${base}/ready`);
    expect([late.status, late.headers.get('connection')]).toEqual([503, 'close']);
    await stopping;
    expect(exit).toHaveBeenCalledWith(0);
  });

  it('a kept-alive connection is not cut once the listener is closed: a request on it is answered', async () => {
    process.env.SHUTDOWN_READY_GRACE_MS = '100';
    const app = createServiceApp(config);
    app.get('/quick', async () => ({ quick: true }));
    const shutdown = await runServer(app, '127.0.0.1', 0, 'shutdown-test');
    const port = (app.server.address() as AddressInfo).port;
    const socket = connect(port, '127.0.0.1');
    let received = '';
    socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
    const closed = new Promise((resolve) => socket.on('close', resolve));
    socket.write('GET /quick HTTP/1.1\r\nHost: x\r\n\r\n');
    await until(() => received.includes('{"quick":true}'));
    const stopping = shutdown.close();
    // The listener closes (a new connection is refused) while the idle kept-alive connection stays open …
    await waitFor(
      () =>
        new Promise<boolean>((resolve) => {
          const probe = connect(port, '127.0.0.1');
          probe.once('connect', () => {
            probe.destroy();
            resolve(false);
          });
          probe.once('error', () => resolve(true));
        }),
    );
    expect(socket.destroyed).toBe(false);
    // … so a request the gateway sends on it just then is answered, and the connection closes after it.
    socket.write('GET /quick HTTP/1.1\r\nHost: x\r\n\r\n');
    await closed;
    const answers = received.split('HTTP/1.1 ').slice(1);
    expect(answers.map((answer) => answer.slice(0, 3))).toEqual(['200', '200']);
    expect(answers[1]).toMatch(/connection: close/i);
    expect(answers[1]).toContain('{"quick":true}');
    await stopping;
    expect(exit).toHaveBeenCalledWith(0);
  });

  it('a request arriving on an open connection while it stops is answered, not refused', async () => {
    const app = createServiceApp(config);
    app.get('/quick', async () => ({ quick: true }));
    // Holds the stop between its start and the closing of idle connections, as a slower preClose would.
    app.addHook('preClose', () => sleep(300));
    const shutdown = await runServer(app, '127.0.0.1', 0, 'shutdown-test');
    const socket = connect((app.server.address() as AddressInfo).port, '127.0.0.1');
    let received = '';
    socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
    const closed = new Promise((resolve) => socket.on('close', resolve));
    socket.write('GET /quick HTTP/1.1\r\nHost: x\r\n\r\n');
    await until(() => received.includes('{"quick":true}'));
    const stopping = shutdown.close();
    await sleep(50);
    // The kept-alive connection is still open: the next request on it is answered, and closes it.
    socket.write('GET /quick HTTP/1.1\r\nHost: x\r\n\r\n');
    await closed;
    const answers = received.split('HTTP/1.1 ').slice(1);
    expect(answers.map((answer) => answer.slice(0, 3))).toEqual(['200', '200']);
    expect(answers[1]).toMatch(/connection: close/i);
    expect(answers[1]).toContain('{"quick":true}');
    await stopping;
    expect(exit).toHaveBeenCalledWith(0);
  });

  it('a worker finishes the job it is running, takes no new one, then exits 0', async () => {
    const prefix = `shutdown-test-${randomUUID()}`;
    const queue = new Queue('jobs', { connection: bullConnection(REDIS_URL), prefix });
    const done: string[] = [];
    const worker = new Worker(
      'jobs',
      async (job) => {
        await sleep(500);
        done.push(job.name);
      },
      { connection: bullConnection(REDIS_URL), prefix },
    );
    const log = quietLog();
    const shutdown = closeGracefully({ name: 'test-worker', graceMs: 10_000, log }, () => worker.close());
    const active = new Promise<void>((resolve) => worker.once('active', () => resolve()));
    await queue.add('running', {});
    await active;
    await queue.add('queued later', {});
    await shutdown.close();
    expect(done).toEqual(['running']);
    expect(exit).toHaveBeenCalledWith(0);
    expect(log.lines).toEqual([
      'test-worker: stopping, letting the work in flight finish',
      'test-worker: stopped',
    ]);
    expect(await queue.getWaitingCount()).toBe(1);
    await queue.obliterate({ force: true });
    await queue.close();
  });

  it('exits 1 when the work outlasts the grace time (SHUTDOWN_GRACE_MS over the default)', async () => {
    process.env.SHUTDOWN_GRACE_MS = '100';
    const log = quietLog();
    const shutdown = closeGracefully({ name: 'stuck', graceMs: 10_000, log }, () =>
      sleep(1_000, undefined, { ref: false }),
    );
    await shutdown.close();
    expect(exit).toHaveBeenCalledWith(1);
    expect(log.lines).toContain('stuck: work still running after the grace time, exiting');
  });
});
