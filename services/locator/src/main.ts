import 'reflect-metadata';
import { createRedis, runServer } from '@portal/server-kit';
import { loadLocatorConfig } from './config';
import { buildApp } from './app';
import { openDatabase } from './database';

async function main() {
  const config = loadLocatorConfig();
  const ds = await openDatabase(config.databaseUrl);
  const redis = createRedis(config.redisUrl, 'locator');
  const app = await buildApp(config, { ds, redis });
  app.addHook('onClose', async () => {
    await ds.destroy();
    await redis.quit();
  });
  await runServer(app, config.host, config.port);
}

main().catch((err) => {
  console.error('locator failed to start:', err);
  process.exit(1);
});
