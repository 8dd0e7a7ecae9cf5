import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { Queue } from 'bullmq';
import { unavailableStore } from './errors';
import { bullProducerConnection } from './redis';

// A Redis of its own (redis-server on a free port, nothing kept on disk), so stopping it disturbs nothing.
let port = 0;
let server: ChildProcess | undefined;

const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port: free } = probe.address() as { port: number };
      probe.close(() => resolve(free));
    });
  });

async function startRedis(): Promise<void> {
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', ''], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  server = child;
  await new Promise<void>((resolve, reject) => {
    let output = '';
    child.once('error', reject);
    child.stdout!.on('data', (chunk) => {
      output += chunk;
      if (output.includes('Ready to accept connections')) resolve();
    });
  });
}

async function stopRedis(): Promise<void> {
  const child = server;
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

beforeAll(async () => {
  port = await freePort();
  await startRedis();
});

afterAll(stopRedis);

describe("a producer queue's connection (bullProducerConnection)", () => {
  it('fails an add at once while Redis is down (a 503 naming Redis), and adds again once it is back', async () => {
    const queue = new Queue('exports', { connection: bullProducerConnection(`redis://127.0.0.1:${port}`) });
    queue.on('error', () => undefined);
    try {
      expect((await queue.add('before', {})).id).toBeDefined();
      await stopRedis();
      // With an offline queue this add would wait for Redis (the caller's request open all that time);
      // Jest's timeout is what would catch it.
      const refused = await queue.add('while down', {}).then(
        () => null,
        (error: unknown) => error,
      );
      expect(refused).toBeInstanceOf(Error);
      expect(unavailableStore(refused)).toBe('redis');
      await startRedis();
      // ioredis reconnects by itself within its retry pause; until then adds keep failing fast.
      let added: string | undefined;
      while (!added) {
        added = await queue.add('after', {}).then(
          (job) => job.id,
          () => new Promise<undefined>((resolve) => setTimeout(resolve, 100)),
        );
      }
      expect(await queue.getJobCounts('waiting')).toEqual({ waiting: 1 });
    } finally {
      await queue.close();
    }
  });
});
