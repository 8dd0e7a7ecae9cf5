import closeWithGrace from 'close-with-grace';
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
