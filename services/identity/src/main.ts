import 'reflect-metadata';
import { createDataSource } from '@portal/db';
import { createRedis, runServer } from '@portal/server-kit';
import { loadIdentityConfig } from './config';
import { buildApp } from './app';

async function main() {
  const config = loadIdentityConfig();
  const ds = createDataSource(config.databaseUrl);
  await ds.initialize();
  const redis = createRedis(config.redisUrl, 'identity');
  const app = await buildApp(config, { ds, redis });
  app.addHook('onClose', async () => {
    await ds.destroy();
    await redis.quit();
  });
  await runServer(app, config.host, config.port);
}

main().catch((err) => {
  console.error('identity failed to start:', err);
  process.exit(1);
});
