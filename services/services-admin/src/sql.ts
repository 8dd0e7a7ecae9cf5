import type { EntityManager } from 'typeorm';

/**
 * Collects the values of a statement and hands out their placeholders ($1, $2, …, or as `placeholder`
 * writes the n-th: elements of one array parameter, for SQL run by EXECUTE … USING).
 */
export class Parameters {
  readonly values: unknown[];

  constructor(
    values: readonly unknown[] = [],
    private readonly placeholder: (n: number) => string = (n) => `$${n}`,
  ) {
    this.values = [...values];
  }

  bind(value: unknown): string {
    this.values.push(value);
    return this.placeholder(this.values.length);
  }
}

/** Makes text match itself in LIKE/ILIKE (PostgreSQL's default escape character is the backslash). */
export const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The PostgreSQL error code of a failed statement (23505 unique, 23503 foreign key). */
export const pgCode = (err: unknown) => (err as { code?: string }).code;

/**
 * The ids of `from` (aliased `alias`) matching `conditions`, in `orderBy` order from `offset` on, with how
 * many match in all: what the plain lists (users, groups, a group's members) answer.
 */
export async function idWindow(
  manager: EntityManager,
  query: {
    from: string;
    alias: string;
    conditions: string[];
    params: Parameters;
    orderBy: string;
    limit: number;
    offset: number;
  },
): Promise<{ ids: string[]; total: number }> {
  const { from, alias, conditions, params, orderBy, limit, offset } = query;
  const where = conditions.length ? `WHERE ${conditions.join(' AND ')}` : '';
  const [{ total }]: { total: number }[] = await manager.query(
    `SELECT count(*)::int AS total FROM ${from} ${where}`,
    params.values,
  );
  const window = new Parameters(params.values);
  const rows: { id: string }[] = await manager.query(
    `SELECT ${alias}.id FROM ${from} ${where} ORDER BY ${orderBy}
     LIMIT ${window.bind(limit)} OFFSET ${window.bind(offset)}`,
    window.values,
  );
  return { ids: rows.map((row) => row.id), total };
}
