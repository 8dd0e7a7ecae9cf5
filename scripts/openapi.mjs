#!/usr/bin/env node
// node scripts/openapi.mjs [--check]: the portal's OpenAPI document without a running portal. Each HTTP
// service's app is built in-process from its dist/ (its own buildApp and config loader, on the portal's
// database and Redis as `npm test` prepares them; nothing listens), its document taken with app.swagger(),
// and the documents merged by the gateway's merge (services/gateway/src/openapi.ts) — the same document
// GET /api/openapi.json serves. Written to var/openapi.json.
//
// --check (a step of `npm test`) then lints it with @redocly/cli (redocly.yaml: every operation has a
// summary, tags, a unique operationId and its error answers), generates the typed client with
// openapi-typescript (var/api-client/portal-api.d.ts, not committed: always the current document's) and
// type-checks the machine-session example over it (examples/tsconfig.json). Needs the build (npm test's
// preparation makes it; otherwise `npx nx run-many -t build`).
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { bin, ROOT, run } from './lib/system.mjs';

const require = createRequire(import.meta.url);
const OUTPUT = join(ROOT, 'var', 'openapi.json');
// Generated, never committed: always the current document's types (examples/client/portalClient.ts imports it).
const CLIENT = join(ROOT, 'var', 'api-client', 'portal-api.d.ts');

const dist = (path) => require(join(ROOT, path));

/** A service's parts from its dist/: buildApp, its config loader, and how it opens its pool. */
function serviceParts(name) {
  const app = dist(`services/${name}/dist/app.js`);
  const config = dist(`services/${name}/dist/config.js`);
  const loadConfig = Object.entries(config).find(
    ([key, value]) => /^load.*Config$/.test(key) && typeof value === 'function',
  )?.[1];
  if (!loadConfig) throw new Error(`services/${name}/dist/config.js exports no load…Config`);
  let openDatabase;
  try {
    openDatabase = dist(`services/${name}/dist/database.js`).openDatabase;
  } catch {
    // identity opens a plain pool in its main.ts.
    const { createDataSource } = dist('libs/db/dist/index.js');
    openDatabase = async (url) => createDataSource(url).initialize();
  }
  return { buildApp: app.buildApp, loadConfig, openDatabase };
}

/** Every HTTP service's document, in the route table's order. */
export async function serviceDocuments(env = process.env) {
  require('reflect-metadata');
  const { ROUTE_ACCESS_APPS } = dist('libs/domain/dist/index.js');
  const { createRedis } = dist('libs/server-kit/dist/index.js');
  // Queues and Redis keys the apps make at start stay apart from a running portal's.
  const settings = {
    ...env,
    LOG_LEVEL: 'silent',
    NODE_ENV: 'test',
    PORTAL_REDIS_PREFIX: 'openapi-document',
    REQUEST_QUEUE_PREFIX: 'openapi-document',
    IRIS_QUEUE_PREFIX: 'openapi-document',
    REPORTBUILDER_QUEUE_PREFIX: 'openapi-document',
  };
  const documents = [];
  for (const service of ROUTE_ACCESS_APPS) {
    const { buildApp, loadConfig, openDatabase } = serviceParts(service);
    const config = { ...loadConfig(settings), logLevel: 'silent' };
    const ds = await openDatabase(config.databaseUrl);
    const redis = createRedis(config.redisUrl, `openapi-${service}`);
    try {
      const app = await buildApp(config, { ds, redis });
      try {
        await app.ready();
        documents.push({ service, document: structuredClone(app.swagger()) });
      } finally {
        await app.close();
      }
    } finally {
      await ds.destroy();
      await redis.quit();
    }
  }
  return documents;
}

/** The portal's merged document (what the gateway answers at /api/openapi.json). */
export async function portalDocument(env = process.env) {
  const { mergeOpenapi } = dist('services/gateway/dist/openapi.js');
  return mergeOpenapi(await serviceDocuments(env), {
    servers: [{ url: '/', description: 'This portal' }],
  });
}

async function main() {
  const check = process.argv.includes('--check');
  const document = await portalDocument();
  mkdirSync(join(ROOT, 'var'), { recursive: true });
  writeFileSync(OUTPUT, `${JSON.stringify(document, null, 2)}\n`);
  const operations = Object.values(document.paths).reduce((sum, item) => sum + Object.keys(item).length, 0);
  console.log(`[openapi] ${OUTPUT}: ${Object.keys(document.paths).length} paths, ${operations} operations`);
  if (!check) return;
  const steps = [
    [
      'lint (redocly.yaml)',
      bin('redocly'),
      ['lint', '--config', 'redocly.yaml', '--format', 'stylish', OUTPUT],
    ],
    [
      'typed client (openapi-typescript)',
      bin('openapi-typescript'),
      [OUTPUT, '--redocly', 'examples/client/redocly.yaml', '--output', CLIENT],
    ],
    ['example client type-check (tsc)', bin('tsc'), ['-p', 'examples/tsconfig.json', '--noEmit']],
  ];
  for (const [name, command, args] of steps) {
    console.log(`[openapi] ${name}`);
    const { code } = await run(command, args, {
      env: { REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    });
    if (code !== 0) {
      console.error(`[openapi] ${name} failed (output above)`);
      process.exit(1);
    }
  }
  console.log('[openapi] the document lints and the typed client compiles');
}

if (import.meta.url === `file://${process.argv[1]}`)
  main().then(
    () => process.exit(0),
    (error) => {
      console.error('[openapi]', error);
      process.exit(1);
    },
  );
