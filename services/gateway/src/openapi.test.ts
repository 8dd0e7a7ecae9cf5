// The API's documentation through the gateway: the merge of the services' OpenAPI documents, and
// /api/openapi.json and /api/docs against stand-in services that publish real documents (server-kit's
// createServiceApp with its OpenAPI document, as every service has).
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { createHash } from 'node:crypto';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { ErrorAnswer, errorAnswers } from '@portal/contracts';
import { createServiceApp, loadBaseConfig } from '@portal/server-kit';
import { buildApp } from './app';
import { loadGatewayConfig, type GatewayConfig } from './config';
import { mergeOpenapi, OpenapiMergeError, type OpenapiDocument } from './openapi';
import type { Route } from './route-table';

/** A service's document as the merge sees it: one path, its own component schema `def-0`. */
const documentOf = (path: string, tag: string, own: object): OpenapiDocument => ({
  openapi: '3.1.0',
  info: { title: tag, version: '1.0' },
  paths: {
    [path]: {
      get: {
        summary: 's',
        tags: [tag],
        responses: {
          200: { content: { 'application/json': { schema: { $ref: '#/components/schemas/def-0' } } } },
          401: { content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorAnswer' } } } },
        },
      },
    },
  },
  components: {
    schemas: { 'def-0': own, ErrorAnswer: { type: 'object', title: 'the same in both' } },
    securitySchemes: { session: { type: 'apiKey', in: 'cookie', name: 'portal_session' } },
  },
});

describe('mergeOpenapi', () => {
  it("merges two services' paths, tags and schemas, keeping shared names and qualifying clashing ones", () => {
    const merged = mergeOpenapi([
      { service: 'iris', document: documentOf('/api/v1.0/iris/{reportId}', 'IRiS', { type: 'string' }) },
      { service: 'requests', document: documentOf('/api/v1.0/request/', 'Requests', { type: 'integer' }) },
    ]);
    expect(merged.openapi).toBe('3.1.0');
    // The spec's path kept exactly (its trailing slash too).
    expect(Object.keys(merged.paths!)).toEqual(['/api/v1.0/iris/{reportId}', '/api/v1.0/request/']);
    expect(merged.tags!.map((tag) => tag.name)).toEqual(['Requests', 'IRiS']);
    expect(Object.keys(merged.components!.schemas!).sort()).toEqual([
      'ErrorAnswer',
      'iris-def-0',
      'requests-def-0',
    ]);
    const answers = (path: string) =>
      JSON.stringify((merged.paths![path].get as { responses: unknown }).responses);
    expect(answers('/api/v1.0/iris/{reportId}')).toContain('#/components/schemas/iris-def-0');
    expect(answers('/api/v1.0/request/')).toContain('#/components/schemas/requests-def-0');
    expect(answers('/api/v1.0/request/')).toContain('#/components/schemas/ErrorAnswer');
    expect(merged.components!.securitySchemes).toEqual({
      session: { type: 'apiKey', in: 'cookie', name: 'portal_session' },
    });
  });

  it('refuses a path two services claim, in either spelling, naming both', () => {
    const twice = () =>
      mergeOpenapi([
        { service: 'requests', document: documentOf('/api/v1.0/request/', 'Requests', {}) },
        { service: 'iris', document: documentOf('/api/v1.0/request', 'IRiS', {}) },
      ]);
    expect(twice).toThrow(OpenapiMergeError);
    expect(twice).toThrow(/\/api\/v1\.0\/request is claimed by two services, requests and iris/);
  });
});

/** A stand-in service with its real OpenAPI document (server-kit's) and one documented route. */
async function documentedService(path: string, tag: string) {
  const app = createServiceApp({ ...loadBaseConfig(tag, 0), logLevel: 'silent' }, {}, { openapi: true });
  app.get(
    path,
    {
      schema: {
        summary: `Read ${tag}`,
        description: `The ${tag} of the test.`,
        tags: [tag],
        response: { 200: Type.Object({ ok: Type.Boolean() }), ...errorAnswers(404) },
      },
    },
    async () => ({ ok: true }),
  );
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

describe('/api/openapi.json and /api/docs', () => {
  const root = mkdtempSync(join(tmpdir(), 'gateway-openapi-test-'));
  const services: { app: FastifyInstance; url: string }[] = [];
  let config: GatewayConfig;
  const routes: Route[] = [
    { prefix: '/api/alpha', service: 'alpha' },
    { prefix: '/api/beta', service: 'beta' },
  ];

  beforeAll(async () => {
    services.push(await documentedService('/api/alpha/:id', 'Alpha'));
    services.push(await documentedService('/api/beta/things', 'Beta'));
    config = {
      ...loadGatewayConfig({}),
      logLevel: 'silent',
      metricsPort: 0,
      shellDist: join(root, 'shell'),
      remotesFile: join(root, 'remotes.json'),
      serviceUrls: { alpha: services[0].url, beta: services[1].url },
      openapiCacheMs: 0,
    };
  });
  afterAll(async () => {
    await Promise.all(services.map((service) => service.app.close()));
    rmSync(root, { recursive: true, force: true });
  });

  const gateway = async (overrides: Partial<GatewayConfig> = {}, table = routes) => {
    const app = buildApp({ ...config, ...overrides }, { routes: table });
    await app.ready();
    return app;
  };

  it("answers the services' documents merged into one", async () => {
    const app = await gateway();
    try {
      const answer = await app.inject({ url: '/api/openapi.json' });
      expect(answer.statusCode).toBe(200);
      const document = answer.json<OpenapiDocument>();
      expect(document.openapi).toBe('3.1.0');
      expect(Object.keys(document.paths!)).toEqual(['/api/alpha/{id}', '/api/beta/things']);
      expect(document.paths!['/api/alpha/{id}'].get).toMatchObject({
        summary: 'Read Alpha',
        operationId: 'getAlphaById',
      });
      expect(document.tags!.map((tag) => tag.name)).toEqual(['Alpha', 'Beta']);
      expect(document.components!.schemas!.ErrorAnswer).toEqual(
        JSON.parse(JSON.stringify({ ...ErrorAnswer, $id: undefined })),
      );
      expect(document.components!.securitySchemes).toHaveProperty('apiKey');
    } finally {
      await app.close();
    }
  });

  it('answers 502 naming a service whose document cannot be read, and 500 for a path two services claim', async () => {
    const down = await gateway({
      serviceUrls: { ...config.serviceUrls, beta: `http://127.0.0.1:${await closedPort()}` },
    });
    try {
      const answer = await down.inject({ url: '/api/openapi.json' });
      expect(answer.statusCode).toBe(502);
      expect(answer.json().message).toMatch(/beta/);
    } finally {
      await down.close();
    }
    // Both entries' services are the same stand-in: its path is claimed twice.
    const twice = await gateway({ serviceUrls: { alpha: services[0].url, beta: services[0].url } });
    try {
      const answer = await twice.inject({ url: '/api/openapi.json' });
      expect(answer.statusCode).toBe(500);
      expect(answer.json().message).toMatch(
        /\/api\/alpha\/\{id\} is claimed by two services, alpha and beta/,
      );
    } finally {
      await twice.close();
    }
  });

  it('serves the interactive reference from its own script, its inline start allowed by the CSP', async () => {
    const app = await gateway();
    try {
      expect((await app.inject({ url: '/api/docs' })).headers.location).toBe('/api/docs/');
      for (const encoding of ['identity', 'br']) {
        const page = await app.inject({ url: '/api/docs/', headers: { 'accept-encoding': encoding } });
        expect(page.statusCode).toBe(200);
        expect(page.headers['content-type']).toMatch(/^text\/html/);
        const html =
          page.headers['content-encoding'] === 'br'
            ? brotliDecompressSync(page.rawPayload).toString()
            : page.body;
        // Its language said (WCAG 3.1.1): the plugin's page has none of its own.
        expect(html).toMatch(/<html lang="en">/);
        // The viewer's script is the gateway's own (no CDN), pointed at the merged document.
        expect(html).toContain('<script src="js/scalar.js"></script>');
        expect(html).not.toMatch(/cdn\.jsdelivr|https:\/\/[^"']*\.js/);
        expect(html).toContain('/api/openapi.json');
        const inline = /<script type="text\/javascript">([\s\S]*?)<\/script>/.exec(html)![1];
        const hash = createHash('sha256').update(inline).digest('base64');
        expect(page.headers['content-security-policy']).toContain(`'sha256-${hash}'`);
      }
      const script = await app.inject({ url: '/api/docs/js/scalar.js' });
      expect(script.statusCode).toBe(200);
      expect(script.headers['content-type']).toMatch(/javascript/);
      expect(script.body.length).toBeGreaterThan(100_000);
      // Other pages keep the strict policy.
      const other = await app.inject({ url: '/api/openapi.json' });
      expect(other.headers['content-security-policy']).not.toContain('sha256-');
    } finally {
      await app.close();
    }
  });
});
