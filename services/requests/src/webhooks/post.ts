import http from 'node:http';
import https from 'node:https';
import { performance } from 'node:perf_hooks';
import { Webhook } from 'standardwebhooks';
import { WebhookTargetRefused, guardedLookup, isPrivateAddress, targetHost } from '@portal/server-kit';
import { isIP } from 'node:net';
import type { AttemptOutcome } from './store';

/** The most of an answer's body read (and then dropped): a receiver's answer is not kept. */
const MAX_ANSWER_BYTES = 64 * 1024;

export interface SignedMessage {
  /** The event's id, the `webhook-id` (the same on every attempt: receivers de-duplicate on it). */
  id: string;
  body: string;
  /** `webhook-timestamp`: the time of this attempt (receivers refuse old timestamps, against replays). */
  at: Date;
}

/** The Standard Webhooks headers of a message, signed with the endpoint's `whsec_…` secret. */
export function signedHeaders(secret: string, message: SignedMessage): Record<string, string> {
  const signature = new Webhook(secret).sign(message.id, message.at, message.body);
  return {
    'webhook-id': message.id,
    'webhook-timestamp': String(Math.floor(message.at.getTime() / 1000)),
    'webhook-signature': signature,
  };
}

/**
 * One attempt: POSTs the signed body to the URL and answers the status code (or the error) and the time it
 * took. Redirects are not followed (a 3xx is an answer, and not a 2xx). The connection's address is
 * checked as it is resolved (guardedLookup), so a name that now points inside the network is refused.
 */
export function postSigned(
  url: string,
  secret: string,
  message: SignedMessage,
  options: { timeoutMs: number; allowPrivate: boolean },
): Promise<AttemptOutcome> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  return new Promise((resolve) => {
    const fail = (error: string, statusCode: number | null = null) =>
      resolve({ statusCode, durationMs: elapsed(), error });
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      return fail('The URL is not valid.');
    }
    const host = targetHost(target);
    // An address literal is not looked up: it is checked here.
    if (isIP(host) && !options.allowPrivate && isPrivateAddress(host))
      return fail(
        new WebhookTargetRefused(`The address ${host} is private, loopback or link-local.`, host, host)
          .message,
      );
    const client = target.protocol === 'https:' ? https : target.protocol === 'http:' ? http : null;
    if (!client) return fail('Only http and https URLs are delivered to.');
    const request = client.request(
      target,
      {
        method: 'POST',
        headers: {
          ...signedHeaders(secret, message),
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(message.body),
          'user-agent': 'PropertyPortal-Webhooks/1.0',
        },
        lookup: guardedLookup(options.allowPrivate) as unknown as http.RequestOptions['lookup'],
        timeout: options.timeoutMs,
      },
      (response) => {
        let read = 0;
        const statusCode = response.statusCode ?? 0;
        const done = () =>
          statusCode >= 200 && statusCode < 300
            ? resolve({ statusCode, durationMs: elapsed(), error: null })
            : fail(`The endpoint answered HTTP ${statusCode}.`, statusCode);
        response.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > MAX_ANSWER_BYTES) response.destroy();
        });
        response.on('end', done);
        response.on('close', done);
        response.on('error', done);
      },
    );
    // The whole attempt (connect, send, answer) within the limit.
    const timer = setTimeout(() => request.destroy(new Error('timeout')), options.timeoutMs);
    request.on('timeout', () => request.destroy(new Error('timeout')));
    request.on('error', (err) => {
      clearTimeout(timer);
      fail(
        err.message === 'timeout'
          ? `No answer within ${Math.round(options.timeoutMs / 1000)} s.`
          : err instanceof WebhookTargetRefused
            ? err.message
            : `Could not send: ${err.message}`,
      );
    });
    request.on('close', () => clearTimeout(timer));
    request.end(message.body);
  });
}
