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

// The console's realtime channel on a listening service: socket.io with the Redis adapter, signed in with
// the session cookie; a change made through the API reaches the sockets that may see it.

jest.setTimeout(60_000);

const varDir = mkdtempSync(join(tmpdir(), 'realtime-test-'));
const privateKeyFile = join(varDir, 'keys/jwt-private.pem');
const publicKeyFile = join(varDir, 'keys/jwt-public.pem');
const redis = createRedis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', 'realtime-test');
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

function connect(cookie: string | null): Promise<Socket> {
  const socket = io(base, {
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
