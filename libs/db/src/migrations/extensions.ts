import { type QueryRunner } from 'typeorm';

/** How to get each extension onto a Debian/Ubuntu server, for the error message. */
const INSTALL_HINTS: Record<string, (major: number) => string> = {
  postgis: (major) => `PostGIS is not installed: apt-get install postgresql-${major}-postgis-3`,
  pg_trgm: (major) => `pg_trgm is not installed: apt-get install postgresql-contrib (or postgresql-${major})`,
};

/**
 * Fails with an actionable message when an extension is not available on the server. Without this check,
 * CREATE EXTENSION only says it "could not open extension control file".
 */
export async function requireExtensions(queryRunner: QueryRunner, names: readonly string[]): Promise<void> {
  const available: { name: string }[] = await queryRunner.query(
    'SELECT name FROM pg_available_extensions WHERE name = ANY($1)',
    [names],
  );
  const missing = names.filter((name) => !available.some((row) => row.name === name));
  if (missing.length === 0) return;

  const [{ server_version_num }]: { server_version_num: string }[] =
    await queryRunner.query('SHOW server_version_num');
  const major = Math.floor(Number(server_version_num) / 10000);
  const hint = (name: string) =>
    INSTALL_HINTS[name]?.(major) ?? `PostgreSQL extension ${name} is not installed`;
  throw new Error(missing.map(hint).join('; '));
}
