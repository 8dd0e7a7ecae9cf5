import 'reflect-metadata';
import { createDataSource } from '@portal/db';
import { startService } from '@portal/server-kit';
import { loadIdentityConfig } from './config';
import { buildApp } from './app';

/** identity's pool: TypeORM's defaults (its statements are few and short; argon2 is what costs). */
async function openDatabase(url: string) {
  const ds = createDataSource(url);
  await ds.initialize();
  return ds;
}

startService({ config: loadIdentityConfig(), openDatabase, buildApp });
