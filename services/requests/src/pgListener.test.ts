import { Client } from 'pg';
import { createTestDatabase, type TestDatabase } from '@portal/db';
import { startPgListener } from './pgListener';

let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase();
});

afterAll(async () => {
  await db?.drop();
});

async function notify(channel: string, payload: string) {
  const client = new Client({ connectionString: db.url });
  await client.connect();
  try {
    await client.query('SELECT pg_notify($1, $2)', [channel, payload]);
  } finally {
    await client.end();
  }
}

describe('startPgListener', () => {
  it('hears a notification sent right after `listening` settles, and runs onConnected once', async () => {
    const heard: string[] = [];
    let connected = 0;
    const listener = startPgListener({
      databaseUrl: db.url,
      applicationName: 'pg-listener test',
      channels: ['pg_listener_test'],
      onId: (channel, id) => heard.push(`${channel}:${id}`),
      onConnected: async () => {
        connected += 1;
      },
      onError: (err) => {
        throw err;
      },
    });
    try {
      // Sent the moment the worker would say it is started: before `listening` this was lost when the
      // LISTEN had not gone out yet (the webhook tests then waited for a sweeper a minute away).
      await listener.listening();
      await notify('pg_listener_test', '42');
      for (let i = 0; i < 100 && heard.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
      expect(heard).toEqual(['pg_listener_test:42']);
      expect(connected).toBe(1);
    } finally {
      await listener.close();
    }
  });

  it('stops waiting after waitMs when the database cannot be reached', async () => {
    const listener = startPgListener({
      databaseUrl: 'postgres://postgres@127.0.0.1:1/none',
      applicationName: 'pg-listener test',
      channels: ['pg_listener_test'],
      onId: () => undefined,
      onConnected: async () => undefined,
      onError: () => undefined,
    });
    try {
      const started = Date.now();
      await listener.listening(300);
      expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    } finally {
      await listener.close();
    }
  });
});
