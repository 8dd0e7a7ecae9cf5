import { Queue } from 'bullmq';
import { unavailableStore } from './errors';
import type { Redis } from 'ioredis';
import { bullProducerConnection, closeQueue } from './redis';
import { startThrowawayRedis, type ThrowawayRedis } from './testing';

// A Redis of its own, so stopping it disturbs nothing else.
let redis: ThrowawayRedis;
beforeAll(async () => {
  redis = await startThrowawayRedis();
});
afterAll(() => redis.stop());

describe("a producer queue's connection (bullProducerConnection)", () => {
  it('fails an add at once while Redis is down (a 503 naming Redis), and adds again once it is back', async () => {
    const queue = new Queue('exports', { connection: bullProducerConnection(redis.url) });
    queue.on('error', () => undefined);
    try {
      expect((await queue.add('before', {})).id).toBeDefined();
      await redis.stop();
      // With an offline queue this add would wait for Redis (the caller's request open all that time);
      // Jest's timeout is what would catch it.
      const refused = await queue.add('while down', {}).then(
        () => null,
        (error: unknown) => error,
      );
      expect(refused).toBeInstanceOf(Error);
      expect(unavailableStore(refused)).toBe('redis');
      await redis.start();
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

  it('fails a command already sent when Redis goes away, instead of sending it again once Redis is back', async () => {
    const queue = new Queue('exports-in-flight', { connection: bullProducerConnection(redis.url) });
    queue.on('error', () => undefined);
    try {
      // BullMQ types its client by what it needs itself; the producer's connection is an ioredis client.
      const client = (await queue.backend.connection.client) as unknown as Redis;
      // A command that is still waiting for its answer when Redis dies (an add caught at that moment is the
      // same): the connection's own pending command, not one of the offline queue.
      const inFlight = client.blpop('portal-test-never-filled', 20).then(
        () => null,
        (error: unknown) => error,
      );
      await new Promise((resolve) => setTimeout(resolve, 100));
      await redis.stop();
      // Redis stays down: kept for a resend, the command would only settle when Jest gives up.
      const failed = await inFlight;
      expect(failed).toBeInstanceOf(Error);
      expect(unavailableStore(failed)).toBe('redis');
    } finally {
      await redis.start();
      // Still reconnecting: closeQueue drops the connection rather than send a QUIT it cannot.
      await closeQueue(queue);
    }
  });
});
