import 'reflect-metadata';
import { createRedis, runServer } from '@portal/server-kit';
import { loadRequestsConfig } from './config';
import { buildApp } from './app';
import { openDatabase } from './database';

async function main() {
  const config = loadRequestsConfig();
  const ds = await openDatabase(config.databaseUrl);
  const redis = createRedis(config.redisUrl, 'requests');
  const app = await buildApp(config, { ds, redis });
  app.addHook('onClose', async () => {
    await ds.destroy();
    await redis.quit();
  });
  await runServer(app, config.host, config.port);
}

main().catch((err) => {
  console.error('requests failed to start:', err);
  process.exit(1);
});
