import fp from 'fastify-plugin';
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { HttpError } from './errors';

export const tooManyAttemptsMessage = (retryAfterSeconds: number) =>
  `Too many attempts. Please wait ${Math.max(1, Math.ceil(retryAfterSeconds / 60))} minute(s) and try again.`;

/**
 * Per-IP limits through @fastify/rate-limit with its Redis store, so several instances share counters.
 * Nothing is limited globally; a route opts in with `config: { rateLimit: { max, timeWindow } }`.
 */
export const rateLimitPlugin = fp(
  async (app: FastifyInstance, opts: { redis: Redis }) => {
    await app.register(rateLimit, {
      global: false,
      redis: opts.redis,
      nameSpace: 'ratelimit:ip:',
      errorResponseBuilder: (_request, context) =>
        new HttpError(429, tooManyAttemptsMessage(Math.ceil(context.ttl / 1000)), undefined, {
          'retry-after': String(Math.ceil(context.ttl / 1000)),
        }),
    });
  },
  { name: 'portal-rate-limit' },
);

/**
 * A fixed-window counter in Redis for limits keyed by something other than the IP (e.g. the e-mail a
 * login or reset is attempted for), which @fastify/rate-limit cannot key on before the body is parsed.
 */
export class AttemptLimiter {
  constructor(
    private readonly redis: Redis,
    private readonly name: string,
    private readonly max: number,
    private readonly windowSeconds: number,
  ) {}

  private key(subject: string) {
    return `ratelimit:${this.name}:${subject}`;
  }

  /** Counts one attempt; throws a 429 HttpError once the window's allowance is used up. */
  async hit(subject: string): Promise<void> {
    const key = this.key(subject);
    const [[, count], [, ttl]] = (await this.redis
      .multi()
      .incr(key)
      .expire(key, this.windowSeconds, 'NX')
      .ttl(key)
      .exec()) as [[null, number], [null, number], [null, number]];
    void ttl;
    if (count > this.max) {
      const retryAfter = Math.max(1, await this.redis.ttl(key));
      throw new HttpError(429, tooManyAttemptsMessage(retryAfter), undefined, {
        'retry-after': String(retryAfter),
      });
    }
  }

  /** Forgets a subject's attempts (e.g. after a successful login). */
  async reset(subject: string): Promise<void> {
    await this.redis.del(this.key(subject));
  }
}
