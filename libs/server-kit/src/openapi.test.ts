import { generateKeyPairSync } from 'node:crypto';
import { Type } from '@sinclair/typebox';
import { errorAnswers, MessageAnswer } from '@portal/contracts';
import { createServiceApp } from './app';
import { authPlugin } from './auth';
import { loadBaseConfig } from './config';
import { operationIdOf, OPENAPI_PATH } from './openapi';
import { createRedis } from './redis';

const { privateKey, publicKey } = generateKeyPairSync('rsa', {
  modulusLength: 2048,
  publicKeyEncoding: { type: 'spki', format: 'pem' },
  privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
});
const redis = createRedis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', 'server-kit-openapi-test');

afterAll(async () => {
  await redis.quit();
});

type Operation = {
  operationId: string;
  summary?: string;
  security?: Record<string, string[]>[];
  responses: Record<string, unknown>;
};
type Document = {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: {
    securitySchemes: Record<string, { type: string; in?: string; name?: string; scheme?: string }>;
  };
};

/** An iris app on the route table with three of its routes (one anonymous, two guarded) and a plugin's. */
async function irisApp() {
  const app = createServiceApp(
    { ...loadBaseConfig('iris', 0), logLevel: 'silent' },
    {},
    { routeAccess: 'iris' },
  );
  await app.register(authPlugin, {
    publicKey,
    privateKey,
    redis,
    cookieSecure: false,
    sessionTtlSeconds: 60,
  });
  const documented = { summary: 'A summary.', description: 'A description.', tags: ['IRiS'] };
  app.get(
    '/api/v1.0/iris/settings',
    { schema: { ...documented, response: { 200: MessageAnswer, ...errorAnswers(401) } } },
    async () => ({ message: 'x' }),
  );
  app.get(
    '/api/v1.0/iris/:reportId/pdf/ready',
    { schema: { ...documented, params: Type.Object({ reportId: Type.String() }) } },
    async () => ({}),
  );
  // The queue dashboard's own routes (Bull Board's, below the table's prefix entry) stay out.
  app.get('/admin/queues/api/queues', async () => ({}));
  await app.ready();
  return app;
}

describe("a service's OpenAPI document", () => {
  it('is OpenAPI 3.1 from the route schemas, with the table’s security and gate answers, internal routes hidden', async () => {
    const app = await irisApp();
    try {
      const answer = await app.inject({ url: OPENAPI_PATH });
      expect(answer.statusCode).toBe(200);
      const document = answer.json<Document>();
      expect(document.openapi).toBe('3.1.0');
      expect(document.components.securitySchemes.session).toMatchObject({
        type: 'apiKey',
        in: 'cookie',
        name: 'portal_session',
      });
      expect(document.components.securitySchemes.apiKey).toMatchObject({ type: 'http', scheme: 'bearer' });
      // The spec's paths, parameters in OpenAPI's braces; nothing internal or of a plugin.
      expect(Object.keys(document.paths).sort()).toEqual([
        '/api/v1.0/iris/settings',
        '/api/v1.0/iris/{reportId}/pdf/ready',
      ]);
      const ready = document.paths['/api/v1.0/iris/{reportId}/pdf/ready'].get;
      expect(ready.summary).toBe('A summary.');
      expect(ready.operationId).toBe('getIrisByReportIdPdfReady');
      expect(ready.security?.[0]).toEqual({ session: [] });
      expect(Object.keys(ready.responses)).toEqual(expect.arrayContaining(['401', '403']));
      // The route's own 401 is kept, the gate's 403 added.
      const settings = document.paths['/api/v1.0/iris/settings'].get;
      // An API key may read the settings (the table's `key`): its rate limit's 429 too.
      expect(Object.keys(settings.responses).sort()).toEqual(['200', '401', '403', '429']);
      expect(settings.security).toEqual([{ session: [] }, { apiKey: [] }]);
      expect(JSON.stringify(document)).not.toMatch(/"\/(health|ready|metrics|openapi\.json)"/);
      // The same document in-process.
      expect(app.swagger()).toEqual(document);
    } finally {
      await app.close();
    }
  });

  it('gives anonymous routes no security and no gate answers', async () => {
    const app = createServiceApp(
      { ...loadBaseConfig('identity', 0), logLevel: 'silent' },
      {},
      { routeAccess: 'identity' },
    );
    app.post(
      '/api/v1.0/login',
      { schema: { summary: 'Log in.', tags: ['Identity'], response: { 200: MessageAnswer } } },
      async () => ({ message: 'x' }),
    );
    await app.ready();
    try {
      const login = (app.swagger() as unknown as Document).paths['/api/v1.0/login'].post;
      expect(login.security).toEqual([]);
      expect(Object.keys(login.responses)).toEqual(['200']);
    } finally {
      await app.close();
    }
  });

  it('names operations after their method and path', () => {
    expect(operationIdOf('PUT', '/api/v1.0/request/')).toBe('putRequest');
    expect(operationIdOf('GET', '/api/v1.0/tiles/satellite/:z/:x/:y.jpg')).toBe(
      'getTilesSatelliteByZByXByYJpg',
    );
    expect(operationIdOf('POST', '/api/avs/validate/batch')).toBe('postAvsValidateBatch');
    expect(operationIdOf('GET', '/api/imagery/images/*')).toBe('getImageryImagesPath');
  });
});
