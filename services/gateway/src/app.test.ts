// The gateway against stand-in services (real HTTP servers that echo what they receive). One file over 500
// lines: every case drives the one gateway and its stand-ins built at the top, the proxy, the remotes, the
// shell, the headers and the services' own answers being the one path a request takes through it.
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import { buildApp } from './app';
import { loadGatewayConfig, type GatewayConfig } from './config';
import { createServiceApp, findWorkspaceRoot, loadBaseConfig } from '@portal/server-kit';
import type { Route } from './route-table';
import { readServicesTable, routesOf } from './services-table';
import { IMMUTABLE, REVALIDATE } from './static-files';

/** A stand-in service: a real HTTP server that answers every request with what it received. */
async function startUpstream(service: string): Promise<{ app: FastifyInstance; url: string }> {
  const app = Fastify();
  app.all('/*', async (request, reply) => {
    if (request.url.startsWith('/api/v1.0/login'))
      reply.header('set-cookie', 'portal_session=from-upstream; Path=/; HttpOnly');
    return {
      service,
      method: request.method,
      url: request.url,
      headers: request.headers,
      body: request.body,
      padding: 'x'.repeat(4096),
    };
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  return { app, url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}` };
}

/** A port nothing listens on: a service that is down. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const root = mkdtempSync(join(tmpdir(), 'gateway-test-'));
const shellDist = join(root, 'shell', 'dist');
const remoteDist = join(root, 'remote-a', 'dist');
const remotesFile = join(root, 'remotes.json');

const REMOTES = [
  { name: 'remoteA', entry: '/remotes/remoteA/remoteEntry.js', routes: ['/a'], dist: 'remote-a/dist' },
  {
    name: 'remoteGone',
    entry: '/remotes/remoteGone/remoteEntry.js',
    routes: ['/gone'],
    dist: 'remote-gone/dist',
  },
];

function writeRemotes(remotes: unknown[]) {
  writeFileSync(remotesFile, JSON.stringify({ remotes }));
}

/** Every service the table routes to (config/services.json), each faked by an upstream of its own. */
const ROUTED = [
  ...new Set(
    routesOf(readServicesTable(join(findWorkspaceRoot(), 'config', 'services.json'))).map((r) => r.service),
  ),
].sort();
const upstreams: Record<string, { app: FastifyInstance; url: string }> = {};
let config: GatewayConfig;

beforeAll(async () => {
  mkdirSync(join(shellDist, 'assets'), { recursive: true });
  writeFileSync(
    join(shellDist, 'index.html'),
    '<!doctype html><title>Property portal</title><div id="root"></div>',
  );
  writeFileSync(
    join(shellDist, 'main.0123abcd.js'),
    `console.log(${JSON.stringify('shell '.repeat(1000))});`,
  );
  writeFileSync(join(shellDist, 'mf-manifest.json'), '{}');
  mkdirSync(remoteDist, { recursive: true });
  writeFileSync(join(remoteDist, 'remoteEntry.js'), 'var remoteA;');
  writeFileSync(join(remoteDist, '812.89abcdef.js'), 'chunk();');
  writeRemotes(REMOTES);
  for (const name of ROUTED) upstreams[name] = await startUpstream(name);
  const defaults = loadGatewayConfig({});
  config = {
    ...defaults,
    logLevel: 'silent',
    // The gateway's metrics port: any free one (the table's 9080 may be a running portal's).
    metricsPort: 0,
    workspaceRoot: root,
    shellDist,
    remotesFile,
    serviceUrls: {
      ...defaults.serviceUrls,
      ...Object.fromEntries(ROUTED.map((name) => [name, upstreams[name].url])),
    },
  };
});

afterAll(async () => {
  await Promise.all(Object.values(upstreams).map((upstream) => upstream.app.close()));
  rmSync(root, { recursive: true, force: true });
});

async function gateway(overrides: Partial<GatewayConfig> = {}, routes?: Route[]) {
  const app = buildApp({ ...config, ...overrides }, { routes });
  await app.ready();
  return app;
}

describe('proxying by the route table', () => {
  it("sends identity's paths to identity, keeping path, query, body and cookies both ways", async () => {
    const app = await gateway();
    const answer = await app.inject({
      method: 'POST',
      url: '/api/v1.0/login?next=%2Fhome',
      payload: { email: 'a@b.co.za', password: 'secret' },
      headers: { cookie: 'portal_session=abc', 'x-forwarded-for': '6.6.6.6', 'x-request-id': 'req-1' },
      remoteAddress: '10.1.2.3',
    });
    expect(answer.statusCode).toBe(200);
    const seen = answer.json();
    expect(seen).toMatchObject({ service: 'identity', method: 'POST', url: '/api/v1.0/login?next=%2Fhome' });
    expect(seen.body).toEqual({ email: 'a@b.co.za', password: 'secret' });
    expect(seen.headers).toMatchObject({
      cookie: 'portal_session=abc',
      // The client's own X-Forwarded-For is not believed: the gateway is the edge.
      'x-forwarded-for': '10.1.2.3',
      'x-forwarded-proto': 'http',
      'x-request-id': 'req-1',
    });
    expect(answer.headers['set-cookie']).toContain('portal_session=from-upstream');
    expect(answer.headers['x-request-id']).toBe('req-1');
    await app.close();
  });

  it('sends the address service, imagery and tile paths to the locator', async () => {
    const app = await gateway();
    for (const url of [
      '/api/avs/search',
      '/api/idanCoverage?lat=-33.9&lng=18.8',
      '/api/idanImageUrl?lat=-33.9&lng=18.8&orientation=n',
      '/api/idanSmallImageUrl?lat=-33.9&lng=18.8&orientation=o',
      '/api/imagery/images/abc.jpg',
      '/api/pictometry/proxy/viewer',
      '/api/v1.0/tiles/parcels/14/9000/9800.mvt',
    ]) {
      expect({ url, service: (await app.inject(url)).json().service }).toEqual({ url, service: 'locator' });
    }
    // Exact entries do not swallow look-alike paths.
    expect((await app.inject('/api/idanCoverageX')).statusCode).toBe(404);
    await app.close();
  });

  it('sends request creation, reading and the map points to requests', async () => {
    const app = await gateway();
    for (const [method, url] of [
      ['PUT', '/api/v1.0/request/'],
      ['PUT', '/api/v1.0/request'],
      ['GET', '/api/v1.0/request/0b5c1f5e-4a8e-4f36-9d55-2b1f0f0c1a11/any'],
      ['GET', '/api/v1.0/request/map?west=18&south=-34&east=19&north=-33&status=New'],
    ] as const) {
      const answer = await app.inject({ method, url });
      expect({ url, service: answer.json().service }).toEqual({ url, service: 'requests' });
    }
    // The prefix is a whole path segment: look-alikes are nobody's.
    expect((await app.inject('/api/v1.0/requestsx')).statusCode).toBe(404);
    await app.close();
  });

  it('sends the exact /api/v1.0/services to identity and the paths below it to services-admin', async () => {
    const app = await gateway();
    expect((await app.inject('/api/v1.0/services')).json()).toMatchObject({ service: 'identity' });
    expect((await app.inject('/api/v1.0/services/all')).json()).toMatchObject({
      service: 'services-admin',
      url: '/api/v1.0/services/all',
    });
    expect((await app.inject('/api/v1.0/users/me')).json()).toMatchObject({ service: 'identity' });
    expect((await app.inject('/api/v1.0/users?limit=5')).json()).toMatchObject({ service: 'services-admin' });
    await app.close();
  });

  it('routes by the longest matching prefix', async () => {
    const app = await gateway({}, [
      { prefix: '/api/things', service: 'identity' },
      { prefix: '/api/things/special', service: 'locator' },
    ]);
    expect((await app.inject('/api/things/1')).json().service).toBe('identity');
    expect((await app.inject('/api/things/special/1')).json().service).toBe('locator');
    expect((await app.inject('/api/thingsx')).statusCode).toBe(404);
    await app.close();
  });

  it('answers a JSON 404 in the one error shape for an API path no service owns', async () => {
    const app = await gateway();
    for (const method of ['GET', 'POST'] as const) {
      const answer = await app.inject({
        method,
        url: '/api/v1.0/nothing-here?x=1',
        headers: { accept: 'text/html' },
      });
      expect(answer.statusCode).toBe(404);
      expect(answer.headers['content-type']).toMatch(/application\/json/);
      expect(answer.json()).toEqual({
        statusCode: 404,
        error: 'Not Found',
        message: `No route for ${method} /api/v1.0/nothing-here`,
        requestId: answer.headers['x-request-id'],
      });
    }
    await app.close();
  });

  it('answers a JSON 502 naming the service when it is down', async () => {
    const app = await gateway({
      serviceUrls: { ...config.serviceUrls, identity: `http://127.0.0.1:${await closedPort()}` },
    });
    const answer = await app.inject('/api/v1.0/loggedin');
    expect(answer.statusCode).toBe(502);
    expect(answer.json()).toEqual({
      statusCode: 502,
      error: 'Bad Gateway',
      message: 'The identity service is not available right now. Please try again shortly.',
      requestId: answer.headers['x-request-id'],
    });
    await app.close();
  });

  it('retries a GET once when the connection is refused, so a service restarting drops nothing', async () => {
    const port = await closedPort();
    const app = await gateway({
      serviceUrls: { ...config.serviceUrls, identity: `http://127.0.0.1:${port}` },
      retryDelayMs: 600,
    });
    // The service comes back while the gateway waits to try again.
    const back = Fastify();
    back.get('/api/v1.0/loggedin', async () => ({ back: true }));
    const answer = app.inject('/api/v1.0/loggedin');
    await new Promise((resolve) => setTimeout(resolve, 100));
    await back.listen({ host: '127.0.0.1', port });
    expect((await answer).json()).toEqual({ back: true });
    // Calls that change something are never sent twice: a refused POST is a 502 at once.
    await back.close();
    await app.listen({ host: '127.0.0.1', port: 0 });
    const post = fetch(`http://127.0.0.1:${(app.server.address() as AddressInfo).port}/api/v1.0/login`, {
      method: 'POST',
      body: '{}',
      headers: { 'content-type': 'application/json' },
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const again = Fastify();
    again.post('/api/v1.0/login', async () => ({ sent: 'twice' }));
    await again.listen({ host: '127.0.0.1', port });
    expect((await post).status).toBe(502);
    await again.close();
    await app.close();
  });

  describe('a service of several instances (<NAME>_URL lists them, comma-separated)', () => {
    /** A stand-in instance that names itself in each answer and counts the bodies it received. */
    async function instance(name: string, { closing = false } = {}) {
      const app = Fastify();
      // What a stopping service does (server-kit's drainAndClose): each answer closes its connection.
      if (closing)
        app.addHook('onSend', async (_request, reply) => {
          reply.header('connection', 'close');
        });
      const bodies: unknown[] = [];
      app.all('/*', async (request) => {
        if (request.body !== undefined) bodies.push(request.body);
        return { instance: name, method: request.method, body: request.body ?? null };
      });
      await app.listen({ host: '127.0.0.1', port: 0 });
      return { app, bodies, url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}` };
    }

    it('takes the instances in turn', async () => {
      const [a, b] = [await instance('a'), await instance('b')];
      const app = await gateway({ serviceUrls: { ...config.serviceUrls, identity: `${a.url},${b.url}/` } });
      const seen: string[] = [];
      for (let i = 0; i < 6; i++) seen.push((await app.inject('/api/v1.0/loggedin')).json().instance);
      expect(seen.sort()).toEqual(['a', 'a', 'a', 'b', 'b', 'b']);
      await app.close();
      await Promise.all([a.app.close(), b.app.close()]);
    });

    it('sends a POST whose connection was refused to the other instance, body and all, once', async () => {
      const live = await instance('live');
      const down = `http://127.0.0.1:${await closedPort()}`;
      const app = await gateway({ serviceUrls: { ...config.serviceUrls, identity: `${down},${live.url}` } });
      // Over a real socket: the body streams from the client's connection to the instance that takes it.
      await app.listen({ host: '127.0.0.1', port: 0 });
      const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
      const payload = { email: 'a@b.co.za', note: 'x'.repeat(200_000) };
      for (let i = 0; i < 4; i++) {
        const answer = await fetch(`${base}/api/v1.0/login`, {
          method: 'POST',
          body: JSON.stringify({ ...payload, i }),
          headers: { 'content-type': 'application/json' },
        });
        expect(answer.status).toBe(200);
        expect(await answer.json()).toEqual({ instance: 'live', method: 'POST', body: { ...payload, i } });
      }
      // Each POST reached the live instance exactly once.
      expect(live.bodies.map((body) => (body as { i: number }).i)).toEqual([0, 1, 2, 3]);
      await app.close();
      await live.app.close();
    });

    it("sends a POST to the other instance when an instance's name does not resolve (a stopped container)", async () => {
      const live = await instance('live');
      // compose's DNS drops a stopped container's name: the lookup fails (ENOTFOUND), nothing is sent.
      const stopped = 'http://stopped-instance.invalid:3001';
      const app = await gateway({
        serviceUrls: { ...config.serviceUrls, identity: `${stopped},${live.url}` },
      });
      for (let i = 0; i < 4; i++) {
        const answer = await app.inject({ method: 'POST', url: '/api/v1.0/login', payload: { i } });
        expect(answer.statusCode).toBe(200);
        expect(answer.json()).toEqual({ instance: 'live', method: 'POST', body: { i } });
      }
      expect(live.bodies).toEqual([{ i: 0 }, { i: 1 }, { i: 2 }, { i: 3 }]);
      await app.close();
      await live.app.close();
    });

    it('leaves an instance that closes its connections (it is stopping) out of the turn', async () => {
      const [a, b] = [await instance('a', { closing: true }), await instance('b')];
      const app = await gateway({
        serviceUrls: { ...config.serviceUrls, identity: `${a.url},${b.url}` },
        upstreamDrainMs: 60_000,
      });
      const seen: string[] = [];
      for (let i = 0; i < 6; i++) seen.push((await app.inject('/api/v1.0/loggedin')).json().instance);
      expect(seen).toEqual(['a', 'b', 'b', 'b', 'b', 'b']);
      await app.close();
      await Promise.all([a.app.close(), b.app.close()]);
    });

    it('answers a JSON 502 naming the service when every instance refuses', async () => {
      const downs = [await closedPort(), await closedPort()].map((port) => `http://127.0.0.1:${port}`);
      const app = await gateway({
        serviceUrls: { ...config.serviceUrls, identity: downs.join(',') },
        retryDelayMs: 10,
      });
      for (const method of ['GET', 'POST'] as const) {
        const answer = await app.inject({
          method,
          url: '/api/v1.0/login',
          payload: method === 'POST' ? {} : undefined,
        });
        expect(answer.statusCode).toBe(502);
        expect(answer.json()).toMatchObject({
          statusCode: 502,
          message: 'The identity service is not available right now. Please try again shortly.',
        });
      }
      await app.close();
    });

    it('reports each instance in /ready', async () => {
      const live = await instance('live');
      const down = `http://127.0.0.1:${await closedPort()}`;
      const app = await gateway({ serviceUrls: { ...config.serviceUrls, identity: `${live.url},${down}` } });
      const checks = (await app.inject('/ready')).json().checks;
      expect(checks['identity (info)']).toBe(`${live.url}: ok; ${down}: unavailable: ECONNREFUSED`);
      await app.close();
      await live.app.close();
    });
  });

  it('answers 504 naming the service when it does not answer in time', async () => {
    const slow = Fastify();
    slow.get('/api/v1.0/loggedin', async () => {
      await new Promise((resolve) => setTimeout(resolve, 1500));
      return { late: true };
    });
    await slow.listen({ host: '127.0.0.1', port: 0 });
    const app = await gateway({
      serviceUrls: {
        ...config.serviceUrls,
        identity: `http://127.0.0.1:${(slow.server.address() as AddressInfo).port}`,
      },
      upstreamTimeoutMs: 300,
    });
    const answer = await app.inject('/api/v1.0/loggedin');
    expect(answer.statusCode).toBe(504);
    expect(answer.json()).toEqual({
      statusCode: 504,
      error: 'Gateway Timeout',
      message: 'The identity service did not answer in time. Please try again shortly.',
      requestId: answer.headers['x-request-id'],
    });
    await app.close();
    await slow.close();
  });

  it('tunnels websocket upgrades on entries marked websocket, and refuses them elsewhere', async () => {
    const seen: { url?: string; cookie?: string } = {};
    const upstreamSockets: Duplex[] = [];
    // A bare websocket server: completes the handshake and sends one text frame.
    const upstream: Server = createServer((_request, response) => response.end());
    upstream.on('upgrade', (request, socket: Duplex) => {
      upstreamSockets.push(socket);
      seen.url = request.url;
      seen.cookie = request.headers.cookie;
      const accept = createHash('sha1')
        .update(`${request.headers['sec-websocket-key']}258EAFA5-E914-47DA-95CA-C5AB0DC85B11`)
        .digest('base64');
      socket.write(
        `HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`,
      );
      const text = Buffer.from('hello through the gateway');
      socket.write(Buffer.concat([Buffer.from([0x81, text.length]), text]));
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    const upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
    const down = `http://127.0.0.1:${await closedPort()}`;
    const app = await gateway({ serviceUrls: { ...config.serviceUrls, requests: upstreamUrl, iris: down } }, [
      { prefix: '/socket', service: 'requests', websocket: true },
      { prefix: '/iris-socket', service: 'iris', websocket: true },
      { prefix: '/api/plain', service: 'identity' },
    ]);
    await app.listen({ host: '127.0.0.1', port: 0 });
    const port = (app.server.address() as AddressInfo).port;

    const upgrade = (path: string) =>
      new Promise<{ status: number; received: string }>((resolve, reject) => {
        const request = httpRequest({
          host: '127.0.0.1',
          port,
          path,
          headers: {
            connection: 'Upgrade',
            upgrade: 'websocket',
            'sec-websocket-key': randomBytes(16).toString('base64'),
            'sec-websocket-version': '13',
            cookie: 'portal_session=abc',
          },
        });
        request.on('upgrade', (response, socket) => {
          let received = '';
          socket.on('data', (chunk: Buffer) => {
            received += chunk.toString('latin1');
            if (received.includes('hello through the gateway')) {
              socket.destroy();
              resolve({ status: response.statusCode ?? 0, received });
            }
          });
        });
        request.on('response', (response) => resolve({ status: response.statusCode ?? 0, received: '' }));
        request.on('error', reject);
        request.end();
      });

    const tunnelled = await upgrade('/socket/live?room=7');
    expect(tunnelled.status).toBe(101);
    expect(tunnelled.received).toContain('hello through the gateway');
    expect(seen).toEqual({ url: '/socket/live?room=7', cookie: 'portal_session=abc' });
    expect((await upgrade('/api/plain/x')).status).toBe(404);
    // A service that is down: no 101 and a socket closed before the handshake, but the 502 naming it.
    const refused = await new Promise<string>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () =>
        socket.write(
          [
            'GET /iris-socket/live HTTP/1.1',
            'Host: portal.test',
            'Connection: Upgrade',
            'Upgrade: websocket',
            `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}`,
            'Sec-WebSocket-Version: 13',
            '',
            '',
          ].join('\r\n'),
        ),
      );
      let received = '';
      socket.on('data', (chunk: Buffer) => (received += chunk.toString('utf8')));
      socket.on('close', () => resolve(received));
      socket.on('error', reject);
    });
    expect(refused).toMatch(/^HTTP\/1\.1 502 /);
    expect(JSON.parse(refused.slice(refused.indexOf('\r\n\r\n') + 4)).message).toBe(
      'The iris service is not available right now. Please try again shortly.',
    );

    await app.close();
    // The bare server does not answer close frames: end its sockets rather than wait for the ws timeout.
    upstreamSockets.forEach((socket) => socket.destroy());
    await new Promise((resolve) => upstream.close(resolve));
  });
});

describe('/remotes.json', () => {
  it('lists the remotes without their dist folders, never cached', async () => {
    const app = await gateway();
    const answer = await app.inject('/remotes.json');
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['cache-control']).toBe('no-cache');
    expect(answer.json()).toEqual({
      remotes: [
        { name: 'remoteA', entry: '/remotes/remoteA/remoteEntry.js', routes: ['/a'] },
        { name: 'remoteGone', entry: '/remotes/remoteGone/remoteEntry.js', routes: ['/gone'] },
      ],
    });
    await app.close();
  });

  it('re-reads the file when it changes, and keeps the last good list while it is invalid', async () => {
    const app = await gateway();
    expect((await app.inject('/remotes.json')).json().remotes).toHaveLength(2);
    const bumpMtime = () => {
      const later = new Date(statSync(remotesFile).mtimeMs + 2000);
      utimesSync(remotesFile, later, later);
    };
    try {
      writeRemotes([
        {
          name: 'moved',
          entry: 'http://cdn.example/moved/mf-manifest.json',
          routes: ['/m'],
          roles: ['admin'],
          authenticated: true,
        },
      ]);
      bumpMtime();
      expect((await app.inject('/remotes.json')).json()).toEqual({
        remotes: [
          {
            name: 'moved',
            entry: 'http://cdn.example/moved/mf-manifest.json',
            routes: ['/m'],
            roles: ['admin'],
            authenticated: true,
          },
        ],
      });
      writeFileSync(remotesFile, '{ "remotes": [ half-written');
      bumpMtime();
      expect((await app.inject('/remotes.json')).json().remotes[0].name).toBe('moved');
    } finally {
      writeRemotes(REMOTES);
      bumpMtime();
      await app.close();
    }
  });

  it("serves a remote's files from its dist folder, with the cache rules of the shell", async () => {
    const app = await gateway();
    const entry = await app.inject('/remotes/remoteA/remoteEntry.js');
    expect(entry.statusCode).toBe(200);
    expect(entry.body).toBe('var remoteA;');
    expect(entry.headers['cache-control']).toBe(REVALIDATE);
    expect((await app.inject('/remotes/remoteA/812.89abcdef.js')).headers['cache-control']).toBe(IMMUTABLE);
    for (const missing of [
      '/remotes/remoteA/nope.js',
      '/remotes/remoteGone/remoteEntry.js',
      '/remotes/unknown/remoteEntry.js',
    ]) {
      const answer = await app.inject(missing);
      expect([missing, answer.statusCode]).toEqual([missing, 404]);
      expect(answer.json()).toMatchObject({ statusCode: 404, error: 'Not Found' });
    }
    expect((await app.inject('/remotes/remoteA/..%2F..%2Fremotes.json')).statusCode).not.toBe(200);
    await app.close();
  });
});

describe('the shell', () => {
  it('serves index.html at / and for page loads of client-side routes, never cached', async () => {
    const app = await gateway();
    for (const url of ['/', '/requests/admin/queue', '/services/admin/users/someone@example.co.za']) {
      const answer = await app.inject({ url, headers: { accept: 'text/html,application/xhtml+xml' } });
      expect([url, answer.statusCode]).toEqual([url, 200]);
      expect(answer.body).toContain('<title>Property portal</title>');
      expect(answer.headers['cache-control']).toBe(REVALIDATE);
    }
    await app.close();
  });

  it('serves content-hashed files as immutable and the manifest as no-cache', async () => {
    const app = await gateway();
    const script = await app.inject('/main.0123abcd.js');
    expect(script.statusCode).toBe(200);
    expect(script.headers['cache-control']).toBe(IMMUTABLE);
    expect(script.headers['content-type']).toMatch(/javascript/);
    expect((await app.inject('/mf-manifest.json')).headers['cache-control']).toBe(REVALIDATE);
    await app.close();
  });

  it('answers 404 (not the page) for a missing file or a non-page request', async () => {
    const app = await gateway();
    expect(
      (await app.inject({ url: '/missing.0123abcd.js', headers: { accept: 'text/html' } })).statusCode,
    ).toBe(404);
    const json = await app.inject({ url: '/no/such/thing', headers: { accept: 'application/json' } });
    expect(json.statusCode).toBe(404);
    expect(json.json()).toMatchObject({ statusCode: 404, error: 'Not Found' });
    await app.close();
  });

  it('reports readiness by the shell build, and the services for information', async () => {
    const ready = await gateway();
    const answer = await ready.inject('/ready');
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual({
      status: 'ok',
      service: 'gateway',
      checks: { shell: 'ok', ...Object.fromEntries(ROUTED.map((name) => [`${name} (info)`, 'ok'])) },
    });
    await ready.close();

    const unbuilt = await gateway({
      shellDist: join(root, 'not-built'),
      serviceUrls: { ...config.serviceUrls, identity: `http://127.0.0.1:${await closedPort()}` },
    });
    const notReady = await unbuilt.inject('/ready');
    expect(notReady.statusCode).toBe(503);
    expect(notReady.json().checks['identity (info)']).toBe('unavailable: ECONNREFUSED');
    const page = await unbuilt.inject({ url: '/', headers: { accept: 'text/html' } });
    expect(page.statusCode).toBe(503);
    expect(page.json().message).toMatch(/not built yet/);
    expect((await unbuilt.inject('/health')).json()).toEqual({ status: 'ok', service: 'gateway' });
    await unbuilt.close();
  });
});

describe('security headers and compression', () => {
  it('sends the content security policy and the other helmet headers on pages and API answers', async () => {
    const app = await gateway({ cspExtraOrigins: ['https://tiles.example'] });
    for (const url of ['/', '/api/v1.0/loggedin']) {
      const answer = await app.inject({ url, headers: { accept: 'text/html' } });
      const csp = String(answer.headers['content-security-policy']);
      expect(csp).toContain("default-src 'self'");
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("style-src 'self' 'unsafe-inline'");
      expect(csp).toContain("img-src 'self' data: blob: https://tiles.example");
      expect(csp).toContain("connect-src 'self' ws: wss: https://tiles.example");
      expect(csp).toContain("worker-src 'self' blob:");
      expect(csp).not.toContain('upgrade-insecure-requests');
      expect(answer.headers['x-content-type-options']).toBe('nosniff');
      expect(answer.headers['x-frame-options']).toBe('SAMEORIGIN');
      expect(answer.headers['referrer-policy']).toBe('no-referrer');
    }
    await app.close();
  });

  it('compresses static files with brotli and proxied JSON with gzip', async () => {
    const app = await gateway();
    const script = await app.inject({ url: '/main.0123abcd.js', headers: { 'accept-encoding': 'br, gzip' } });
    expect(script.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(script.rawPayload).toString()).toContain('shell shell');
    const json = await app.inject({ url: '/api/v1.0/users/me', headers: { 'accept-encoding': 'gzip' } });
    expect(json.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(json.rawPayload).toString())).toMatchObject({
      service: 'identity',
      url: '/api/v1.0/users/me',
    });
    await app.close();
  });

  it("sends the build's precompressed copy as it is, for the shell's and a remote's files", async () => {
    // Bodies that differ from the file, so the answer shows which one was sent.
    const shellCopy = join(shellDist, 'framework.0badcafe.js');
    writeFileSync(shellCopy, 'framework();');
    writeFileSync(`${shellCopy}.br`, brotliCompressSync('"the brotli copy"'));
    writeFileSync(`${shellCopy}.gz`, gzipSync('"the gzip copy"'));
    writeFileSync(join(remoteDist, '812.89abcdef.js.br'), brotliCompressSync('"the remote copy"'));
    const app = await gateway();
    const br = await app.inject({
      url: '/framework.0badcafe.js',
      headers: { 'accept-encoding': 'br, gzip' },
    });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(br.headers['cache-control']).toBe(IMMUTABLE);
    expect(br.headers['vary']).toMatch(/accept-encoding/i);
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe('"the brotli copy"');
    const gz = await app.inject({ url: '/framework.0badcafe.js', headers: { 'accept-encoding': 'gzip' } });
    expect(gunzipSync(gz.rawPayload).toString()).toBe('"the gzip copy"');
    const plain = await app.inject({
      url: '/framework.0badcafe.js',
      headers: { 'accept-encoding': 'identity' },
    });
    expect([plain.headers['content-encoding'], plain.body]).toEqual([undefined, 'framework();']);
    const remote = await app.inject({
      url: '/remotes/remoteA/812.89abcdef.js',
      headers: { 'accept-encoding': 'br' },
    });
    expect(brotliDecompressSync(remote.rawPayload).toString()).toBe('"the remote copy"');
    expect(remote.headers['cache-control']).toBe(IMMUTABLE);
    await app.close();
  });
});

describe("the services' own answers", () => {
  // A service on the portal's ground (server-kit's createServiceApp: 1 MB body limit, the one error shape),
  // with answers of its own.
  let service: FastifyInstance;
  let serviceUrl: string;
  let hits = 0;
  let app: FastifyInstance;
  let portal: string;

  beforeAll(async () => {
    service = createServiceApp({ ...loadBaseConfig('identity', 0), logLevel: 'silent' });
    service.post('/api/v1.0/register', async () => ({ registered: true }));
    service.get('/api/v1.0/loggedin', async (_request, reply) => {
      hits++;
      return reply
        .code(503)
        .send({ statusCode: 503, error: 'Service Unavailable', message: 'Redis is down.' });
    });
    service.post('/api/v1.0/login', async (_request, reply) =>
      reply.code(409).send({ statusCode: 409, error: 'Conflict', message: 'Already there.' }),
    );
    await service.listen({ host: '127.0.0.1', port: 0 });
    serviceUrl = `http://127.0.0.1:${(service.server.address() as AddressInfo).port}`;
    app = await gateway({ serviceUrls: { ...config.serviceUrls, identity: serviceUrl } });
    await app.listen({ host: '127.0.0.1', port: 0 });
    portal = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await app.close();
    await service.close();
  });

  const post = (url: string, body: string) =>
    fetch(url, { method: 'POST', body, headers: { 'content-type': 'application/json' } });

  it('gives its request id to the service, whose log lines carry it', async () => {
    const lines: { reqId?: string; msg?: string; service?: string }[] = [];
    const logged = createServiceApp(
      { ...loadBaseConfig('identity', 0), logLevel: 'info' },
      { logger: { level: 'info', stream: { write: (line: string) => lines.push(JSON.parse(line)) } } },
    );
    logged.get('/api/v1.0/users/me', async (request) => {
      request.log.info('reading the user');
      return { id: request.id };
    });
    await logged.listen({ host: '127.0.0.1', port: 0 });
    const edge = await gateway({
      serviceUrls: {
        ...config.serviceUrls,
        identity: `http://127.0.0.1:${(logged.server.address() as AddressInfo).port}`,
      },
    });
    const answer = await edge.inject('/api/v1.0/users/me');
    const id = answer.headers['x-request-id'];
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(answer.json()).toEqual({ id });
    expect(lines.filter((line) => line.reqId === id).map((line) => line.msg)).toEqual([
      'incoming request',
      'reading the user',
      'request completed',
    ]);
    await edge.close();
    await logged.close();
  });

  it('answers its metrics on their own port, by route and status, never on the portal URL', async () => {
    const metricsPort = await closedPort();
    const edge = await gateway({ metricsPort });
    await edge.listen({ host: '127.0.0.1', port: 0 });
    const base = `http://127.0.0.1:${(edge.server.address() as AddressInfo).port}`;
    await fetch(`${base}/api/v1.0/users/me`);
    await fetch(`${base}/api/v1.0/users/me`);
    const onPortal = await fetch(`${base}/metrics`, { headers: { accept: 'text/plain' } });
    expect(await onPortal.text()).not.toContain('http_request_duration_seconds');
    const metrics = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
    expect(metrics).toMatch(
      /^http_request_duration_seconds_count\{service="gateway",method="GET",route="\/api\/v1\.0\/users\/me",status_code="200"\} 2$/m,
    );
    await edge.close();
  });

  it("passes a body-too-large 413 through with the service's JSON, as it does small bodies", async () => {
    const big = JSON.stringify({ name: 'x'.repeat(6 * 1024 * 1024) });
    for (let i = 0; i < 3; i++) {
      const answer = await post(`${portal}/api/v1.0/register`, big);
      expect(answer.status).toBe(413);
      expect(await answer.json()).toMatchObject({
        statusCode: 413,
        error: 'Payload Too Large',
        message: 'Request body is too large',
      });
    }
    // The connection to the service is fine afterwards.
    const small = await post(`${portal}/api/v1.0/register`, JSON.stringify({ name: 'Thandi' }));
    expect([small.status, await small.json()]).toEqual([200, { registered: true }]);
  });

  it('passes 4xx and 5xx answers through unchanged, and never retries an answered GET', async () => {
    const conflict = await post(`${portal}/api/v1.0/login`, '{}');
    expect([conflict.status, await conflict.json()]).toEqual([
      409,
      { statusCode: 409, error: 'Conflict', message: 'Already there.' },
    ]);
    hits = 0;
    const unavailable = await fetch(`${portal}/api/v1.0/loggedin`);
    expect([unavailable.status, await unavailable.json()]).toEqual([
      503,
      { statusCode: 503, error: 'Service Unavailable', message: 'Redis is down.' },
    ]);
    expect(hits).toBe(1);
  });
});
