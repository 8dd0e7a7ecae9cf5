import type { Server } from 'node:http';
import { Server as NetServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import closeWithGrace from 'close-with-grace';
import type { FastifyInstance } from 'fastify';
import { intFromEnv } from './config';

/** How a process reports its shutdown: pino's `app.log` for services, a JSON line for workers. */
export interface ShutdownLog {
  info(detail: object, message: string): void;
  error(detail: object, message: string): void;
}

/** A worker's log lines (no pino there): one JSON object a line, as the start script formats them. */
export const jsonLineLog = (service: string): ShutdownLog => {
  const line = (level: number) => (detail: object, msg: string) =>
    process.stdout.write(`${JSON.stringify({ level, time: Date.now(), service, msg, ...detail })}\n`);
  return { info: line(30), error: line(50) };
};

export interface ShutdownOptions {
  /** The process's name in config/services.json, for the log lines. */
  name: string;
  /**
   * How long the work in flight may take before the process exits anyway (code 1). `SHUTDOWN_GRACE_MS`
   * overrides it; the default is each kind of process's own (requests: 10 s, PDF and export jobs: 60 s).
   */
  graceMs: number;
  log: ShutdownLog;
}

/**
 * The one way a portal process stops (services, the gateway and workers alike): on SIGTERM or SIGINT (and
 * after an uncaught error) `close` runs once. It stops taking new work (listener closed, queue worker
 * closed), lets what is in flight finish (requests answered, jobs done) and closes the pools; then the
 * process exits 0 (1 after an error). Work that outlasts the grace time is cut: exit 1. A second signal
 * exits at once. So a rolling restart or `kill <pid>` drops no request and no job.
 */
export function closeGracefully(options: ShutdownOptions, close: () => Promise<void>) {
  const graceMs = intFromEnv(process.env, 'SHUTDOWN_GRACE_MS', options.graceMs);
  const { log, name } = options;
  return closeWithGrace(
    {
      delay: graceMs,
      // Its own messages go through `log` (below and in the callbacks), not to the console.
      logger: false,
      onTimeout: () => log.error({ graceMs }, `${name}: work still running after the grace time, exiting`),
      onSecondSignal: (signal) => log.error({ signal }, `${name}: second ${signal}, exiting at once`),
    },
    async ({ err, signal }) => {
      if (err) log.error({ err }, `${name}: stopping after an uncaught error`);
      else log.info({ signal, graceMs }, `${name}: stopping, letting the work in flight finish`);
      const started = Date.now();
      try {
        await close();
      } catch (failure) {
        log.error({ err: failure }, `${name}: could not stop cleanly`);
        throw failure;
      }
      log.info({ ms: Date.now() - started }, `${name}: stopped`);
    },
  );
}

/** The HTTP servers that are stopping (keyed by server: a Fastify app and its plugin scopes share one). */
const drainingServers = new WeakSet<object>();

/**
 * Whether the app is stopping (drainAndClose began): /ready answers 503 and every answer carries
 * `Connection: close` from then on.
 */
export const isDraining = (app: { server: object }): boolean => drainingServers.has(app.server);

export interface DrainOptions {
  /**
   * How long it keeps taking new connections after the signal while /ready answers 503, so a load balancer
   * that reads /ready stops sending first; cut short when no connection is open. `SHUTDOWN_READY_GRACE_MS`.
   */
  readyGraceMs: number;
  /**
   * How long it keeps listening after the signal however few connections are open (default 0). Behind a
   * Kubernetes Service the pod's endpoint is taken out a moment after SIGTERM, and until then new
   * connections still come to it: refused, a POST among them would fail. The manifests set 5 s (the usual
   * preStop pause, without a hook). `SHUTDOWN_DRAIN_MIN_MS`.
   */
  minDrainMs?: number;
  /**
   * How long it waits, no longer listening, for the open connections to close before closing the idle
   * ones itself; each closes after its next answer, and the gateway closes its idle ones after
   * GATEWAY_UPSTREAM_IDLE_MS (2 s), so this stays short. `SHUTDOWN_LINGER_MS`.
   */
  lingerMs: number;
}

const openConnections = (server: Server) =>
  new Promise<number>((resolve) => server.getConnections((err, count) => resolve(err ? 0 : count)));

async function whileConnectionsOpen(server: Server, ms: number): Promise<void> {
  for (const deadline = Date.now() + ms; Date.now() < deadline; await sleep(25))
    if ((await openConnections(server)) === 0) return;
}

/**
 * How a service's HTTP side stops, so that a restart under load fails no request, whatever its method:
 *  1. draining: /ready answers 503 and every answer closes its connection (`Connection: close`), while it
 *     still takes new connections for `readyGraceMs`;
 *  2. it stops listening: a new connection is refused, and a refused connection carried nothing, so the
 *     gateway sends the request to another instance (or, a GET, once more to this service once it is back);
 *  3. it waits (`lingerMs` at most) for the connections still open to close: a request arriving on one is
 *     answered as usual. Closing an idle kept-alive connection itself could cut a request the gateway is
 *     sending on it just then, which nobody could safely send again;
 *  4. app.close(): the requests in flight are answered, what is left idle is closed, the pools close.
 */
export async function drainAndClose(
  app: FastifyInstance,
  options: DrainOptions = {
    readyGraceMs: intFromEnv(process.env, 'SHUTDOWN_READY_GRACE_MS', 1_000),
    minDrainMs: intFromEnv(process.env, 'SHUTDOWN_DRAIN_MIN_MS', 0),
    lingerMs: intFromEnv(process.env, 'SHUTDOWN_LINGER_MS', 5_000),
  },
): Promise<void> {
  const server = app.server;
  drainingServers.add(server);
  if (server.listening) {
    const minDrainMs = options.minDrainMs ?? 0;
    if (minDrainMs > 0) await sleep(minDrainMs);
    await whileConnectionsOpen(server, Math.max(0, options.readyGraceMs - minDrainMs));
    // net.Server's close: no new connections; http.Server's would also close the idle ones at once.
    NetServer.prototype.close.call(server);
    await whileConnectionsOpen(server, options.lingerMs);
  }
  await app.close();
}
