import { Queue } from 'bullmq';
import { unavailableStore } from './errors';
import { bullProducerConnection } from './redis';
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
});
