import 'reflect-metadata';
import { createDataSource } from './data-source';
import { DEFAULT_DATABASE_URL, databaseName, ensureDatabase, redactUrl } from './database';
import { runMigrations } from './migrate';
import { DEMO_ACCOUNTS, DEMO_PASSWORD, seed, type SeedCounts } from './seed';

/**
 * node libs/db/dist/cli.js migrate|seed|migrate-and-seed
 * Works on DATABASE_URL (default postgres://postgres@127.0.0.1:5432/portal), creating the database first
 * when it does not exist.
 */
const COMMANDS = ['migrate', 'seed', 'migrate-and-seed'] as const;
type Command = (typeof COMMANDS)[number];

const print = (line: string) => process.stdout.write(`${line}\n`);

const describeCounts = (counts: SeedCounts) =>
  `${counts.created} created, ${counts.updated} updated, ${counts.unchanged} unchanged`;

async function migrate(url: string): Promise<void> {
  const applied = await runMigrations(url);
  if (applied.length === 0) print('Migrations: the schema is up to date.');
  else print(`Migrations applied: ${applied.join(', ')}`);
}

async function seedDatabase(url: string): Promise<void> {
  const dataSource = createDataSource(url);
  await dataSource.initialize();
  try {
    if (await dataSource.showMigrations()) {
      throw new Error('The database has pending migrations: run `migrate` (or `migrate-and-seed`) first.');
    }
    const summary = await seed(dataSource);
    print(`Seeded services: ${describeCounts(summary.services)}`);
    print(`Seeded groups:   ${describeCounts(summary.groups)}`);
    print(`Seeded users:    ${describeCounts(summary.users)}`);
    print(`Seeded rates:    ${describeCounts(summary.rateTables)} (whole tables)`);
    print(`Demo accounts (password ${DEMO_PASSWORD}):`);
    for (const account of DEMO_ACCOUNTS) print(`  ${account.email.padEnd(24)} ${account.role}`);
  } finally {
    await dataSource.destroy();
  }
}

/** Turns the usual setup problems into a sentence that says what to do. */
function describeError(err: unknown, url: string): string {
  const { code, message } = err as { code?: string; message?: string };
  if (code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
    const { host } = new URL(url);
    return `Cannot connect to PostgreSQL at ${host} (${code}): is the server running?`;
  }
  if (code === '28P01' || code === '28000') return `PostgreSQL refused the login: ${message}`;
  return message || String(err);
}

async function main(command: string | undefined): Promise<number> {
  if (!COMMANDS.includes(command as Command)) {
    console.error(`Usage: node libs/db/dist/cli.js ${COMMANDS.join('|')}   (database: $DATABASE_URL)`);
    return 2;
  }
  const url = process.env.DATABASE_URL || DEFAULT_DATABASE_URL;
  print(`Database: ${redactUrl(url)}`);
  try {
    if (await ensureDatabase(url)) print(`Created database ${databaseName(url)}.`);
    if (command === 'migrate' || command === 'migrate-and-seed') await migrate(url);
    if (command === 'seed' || command === 'migrate-and-seed') await seedDatabase(url);
    return 0;
  } catch (err) {
    console.error(`db ${command} failed: ${describeError(err, url)}`);
    return 1;
  }
}

void main(process.argv[2]).then((exitCode) => {
  process.exitCode = exitCode;
});
