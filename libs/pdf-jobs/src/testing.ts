import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import type { Worker } from 'bullmq';
import { BrowserPool } from './browser';
import { startPdfWorker, type PdfWorkerOptions } from './worker';

/** A free TCP port on the loopback (a spawned worker process's /health port). */
export const freePort = () =>
  new Promise<number>((resolvePort) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolvePort(port));
    });
  });

/**
 * The PDF workers of a service's test (services/iris, services/reportbuilder): in-process workers, each
 * with its own Chromium, and worker processes (a built dist/worker.js) to kill mid-job. `options` is read
 * when a worker starts (the test's database and storage exist by then); close() in afterAll stops them all.
 */
export class PdfTestWorkers {
  private readonly workers: Worker[] = [];
  private readonly pools: BrowserPool[] = [];
  private readonly children: ChildProcess[] = [];

  constructor(private readonly options: () => Omit<PdfWorkerOptions, 'pool' | 'concurrency'>) {}

  /** A worker in this process rendering one job at a time. */
  start(): Worker {
    const pool = new BrowserPool();
    this.pools.push(pool);
    const { worker } = startPdfWorker({ ...this.options(), pool, concurrency: 1 });
    this.workers.push(worker);
    return worker;
  }

  /** Lets the running workers finish their jobs and stops them. */
  async stop(): Promise<void> {
    await Promise.all(this.workers.splice(0).map((worker) => worker.close()));
  }

  /**
   * The built worker process `entry` with `env` over this process's environment and a free PORT, in a
   * process group of its own: killing the group (-pid) takes its Chromium with it, as a killed container
   * would.
   */
  async spawnProcess(entry: string, env: Record<string, string>, buildHint: string): Promise<ChildProcess> {
    if (!existsSync(entry)) throw new Error(`${entry} is not built: run \`${buildHint}\` first.`);
    const child = spawn(process.execPath, [entry], {
      detached: true,
      stdio: 'ignore',
      env: { ...process.env, PORT: String(await freePort()), ...env },
    });
    child.unref();
    this.children.push(child);
    return child;
  }

  /** Kills the worker processes, stops the workers at once and closes their browsers. */
  async close(): Promise<void> {
    for (const child of this.children) {
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    await Promise.all(this.workers.map((worker) => worker.close(true)));
    await Promise.all(this.pools.map((pool) => pool.close()));
  }
}
