import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { DataSource } from 'typeorm';
import { io, type Socket } from 'socket.io-client';
import {
  REALTIME_EVENTS,
  REALTIME_PATH,
  REQUEST_ADMIN_API,
  SESSION_COOKIE,
  type RequestRow,
} from '@portal/contracts';
import { UserEntity, createTestDatabase, type TestDatabase } from '@portal/db';
import { createRedis, ensureKeyPair } from '@portal/server-kit';
import { signTestSessionFor } from '@portal/server-kit/testing';
import { buildApp } from './app';
import { loadRequestsConfig } from './config';
import { openDatabase } from './database';
import { createConsoleQueue } from './jobs/consoleJobs';

// The console's realtime channel on a listening service: socket.io with the Redis adapter, signed in with
// the session cookie; a change made through the API reaches the sockets that may see it.

jest.setTimeout(60_000);

const varDir = mkdtempSync(join(tmpdir(), 'realtime-test-'));
const privateKeyFile = join(varDir, 'keys/jwt-private.pem');
const publicKeyFile = join(varDir, 'keys/jwt-public.pem');
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const redis = createRedis(redisUrl, 'realtime-test');
let db: TestDatabase;
let appDatabase: DataSource;
let app: FastifyInstance;
let base: string;
const sockets: Socket[] = [];

beforeAll(async () => {
  ensureKeyPair(privateKeyFile, publicKeyFile);
  db = await createTestDatabase({ seed: true });
  const config = { ...loadRequestsConfig({ VAR_DIR: varDir, NODE_ENV: 'test' }), logLevel: 'silent' };
  appDatabase = await openDatabase(db.url);
  app = await buildApp(config, { ds: appDatabase, redis });
  await app.listen({ host: '127.0.0.1', port: 0 });
  base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  for (const socket of sockets) socket.close();
  await app?.close();
  await appDatabase?.destroy();
  await db?.drop();
  await redis.quit();
});

const cookieOf = async (email: string) => {
  const user = await db.dataSource.getRepository(UserEntity).findOneByOrFail({ email });
  const token = signTestSessionFor(privateKeyFile, user);
  return { user, cookie: `${SESSION_COOKIE}=${token}` };
};

function connect(cookie: string | null, at = base): Promise<Socket> {
  const socket = io(at, {
    path: REALTIME_PATH,
    transports: ['websocket'],
    reconnection: false,
    extraHeaders: cookie ? { cookie } : {},
  });
  sockets.push(socket);
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', reject);
  });
}

async function requestOf(userId: string): Promise<string> {
  const [{ id }] = (await db.dataSource.query(
    `INSERT INTO requests.requests (request_type, user_id, user_name, user_email, address)
     SELECT 'SAVI', id, name, email, '1 Main Road' FROM identity.users WHERE id = $1 RETURNING id`,
    [userId],
  )) as { id: string }[];
  return id;
}

const heard = (socket: Socket, event: string, timeoutMs = 3000) =>
  new Promise<unknown>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${event} not heard`)), timeoutMs);
    socket.once(event, (payload: unknown) => {
      clearTimeout(timer);
      resolve(payload);
    });
  });

it('refuses a socket without a valid session', async () => {
  await expect(connect(null)).rejects.toThrow('Authentication required.');
  await expect(connect(`${SESSION_COOKIE}=not-a-token`)).rejects.toThrow('Authentication required.');
});

it('sends update_request to staff and the owner, not to other users; a bulk change as update_requests', async () => {
  const operator = await cookieOf('operator@portal.test');
  const owner = await cookieOf('user@portal.test');
  const other = await cookieOf('claims@portal.test');
  const [staffSocket, ownerSocket, otherSocket] = await Promise.all([
    connect(operator.cookie),
    connect(owner.cookie),
    connect(other.cookie),
  ]);
  const id = await requestOf(owner.user.id);
  const otherHeard = jest.fn();
  otherSocket.on(REALTIME_EVENTS.updateRequest, otherHeard);
  otherSocket.on(REALTIME_EVENTS.updateRequests, otherHeard);

  const staffHeard = heard(staffSocket, REALTIME_EVENTS.updateRequest);
  const ownerHeard = heard(ownerSocket, REALTIME_EVENTS.updateRequest);
  const admin = await cookieOf('admin@portal.test');
  const answer = await fetch(`${base}${REQUEST_ADMIN_API.priority}`, {
    method: 'POST',
    headers: { cookie: admin.cookie, 'content-type': 'application/json' },
    body: JSON.stringify({ id, priority: true, version: 1 }),
  });
  expect(answer.status).toBe(200);
  for (const payload of await Promise.all([staffHeard, ownerHeard]))
    expect((payload as { row: RequestRow }).row).toMatchObject({
      requestID: id,
      priority: 'Yes',
      version: 2,
    });

  const bulkHeard = heard(staffSocket, REALTIME_EVENTS.updateRequests);
  await fetch(`${base}${REQUEST_ADMIN_API.updateAllFees}`, {
    method: 'POST',
    headers: { cookie: operator.cookie, 'content-type': 'application/json' },
    body: JSON.stringify({
      ids: [id, await requestOf(owner.user.id)],
      type: 'RESIDENTIAL',
      buildings: 1,
      price: 100,
    }),
  });
  expect(((await bulkHeard) as { ids: string[] }).ids).toContain(id);
  await new Promise((resolve) => setTimeout(resolve, 200));
  expect(otherHeard).not.toHaveBeenCalled();
});

it('two portals sharing one Redis (PORTAL_REDIS_PREFIX) neither hear each other’s changes nor take each other’s jobs', async () => {
  const otherConfig = {
    ...loadRequestsConfig({ VAR_DIR: varDir, NODE_ENV: 'test', PORTAL_REDIS_PREFIX: `other-${process.pid}` }),
    logLevel: 'silent',
  };
  const otherApp = await buildApp(otherConfig, { ds: appDatabase, redis });
  await otherApp.listen({ host: '127.0.0.1', port: 0 });
  const otherBase = `http://127.0.0.1:${(otherApp.server.address() as AddressInfo).port}`;
  try {
    const operator = await cookieOf('operator@portal.test');
    const here = await connect(operator.cookie);
    const thereSocket = await connect(operator.cookie, otherBase);
    const thereHeard = jest.fn();
    thereSocket.on(REALTIME_EVENTS.updateRequest, thereHeard);
    thereSocket.on(REALTIME_EVENTS.updateRequests, thereHeard);

    const owner = await cookieOf('user@portal.test');
    const id = await requestOf(owner.user.id);
    const hereHeard = heard(here, REALTIME_EVENTS.updateRequest);
    const admin = await cookieOf('admin@portal.test');
    const answer = await fetch(`${base}${REQUEST_ADMIN_API.priority}`, {
      method: 'POST',
      headers: { cookie: admin.cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ id, priority: true, version: 1 }),
    });
    expect(answer.status).toBe(200);
    await hereHeard;

    // A job queued by this portal waits under its own prefix only.
    const exported = await fetch(`${base}${REQUEST_ADMIN_API.exportToExcel}`, {
      method: 'POST',
      headers: { cookie: admin.cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ requests: [id] }),
    });
    expect(exported.status).toBe(202);
    const job = (await exported.json()) as { id: string };
    const mine = createConsoleQueue(redisUrl, 'portal');
    const theirs = createConsoleQueue(redisUrl, otherConfig.redisPrefix);
    try {
      expect(await mine.getJob(job.id)).toBeDefined();
      expect(await theirs.getJob(job.id)).toBeUndefined();
    } finally {
      await Promise.all([mine.close(), theirs.close()]);
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(thereHeard).not.toHaveBeenCalled();
  } finally {
    await otherApp.close();
  }
});
