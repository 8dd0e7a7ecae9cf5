import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request as playwrightRequest } from '@playwright/test';
import { Webhook } from 'standardwebhooks';
import { harness, queryRun } from './env';

// What the tests of the portal's API for machines (issue 22) share: a group's id, a request context that
// carries only an API key, and a webhook receiver that checks every delivery's signature.

export const groupIdOf = async (code: string) =>
  (await queryRun<{ id: string }>('SELECT id FROM identity.groups WHERE code = $1', [code]))[0].id;

/** A request context that sends only the key: what a machine has. */
export const withKey = (key: string) =>
  playwrightRequest.newContext({
    baseURL: harness().baseURL,
    extraHTTPHeaders: { authorization: `Bearer ${key}` },
  });

/** An event as a receiver gets it: `{ type, timestamp, data }`, data being the request's row. */
export interface ReceivedEvent<Data = unknown> {
  type: string;
  data: Data;
}

/**
 * A webhook receiver on 127.0.0.1 that verifies each delivery's signature (Standard Webhooks) with the
 * endpoint's secret, given with `useSecret` once the endpoint is made: verified events are kept in
 * `received` (answered 204), anything else in `problems` (answered 400).
 */
export function startWebhookReceiver<Data = unknown>() {
  const received: ReceivedEvent<Data>[] = [];
  const problems: string[] = [];
  let verifier: Webhook | undefined;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      try {
        if (!verifier) throw new Error('no secret yet');
        const body = Buffer.concat(chunks).toString('utf8');
        received.push(verifier.verify(body, req.headers as Record<string, string>) as ReceivedEvent<Data>);
        res.writeHead(204).end();
      } catch (err) {
        problems.push(String(err));
        res.writeHead(400).end();
      }
    });
  });
  return {
    received,
    problems,
    useSecret: (secret: string) => (verifier = new Webhook(secret)),
    /** Starts listening; answers the URL to register. */
    listen: () =>
      new Promise<string>((resolve) =>
        server.listen(0, '127.0.0.1', () =>
          resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`),
        ),
      ),
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}
