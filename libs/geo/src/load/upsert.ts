/**
 * Batched, idempotent writes into the geo tables: rows go in as parallel arrays through unnest (one
 * statement per batch, no per-row round trips) and meet existing rows on (source, source_id), so loading
 * the same input twice updates rows instead of copying them.
 */

/** Anything that runs a parameterised statement: a TypeORM DataSource, EntityManager or QueryRunner, a pg Pool. */
export interface Queryable {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- TypeORM and pg type their answers as any
  query(sql: string, params?: unknown[]): Promise<any>;
}

/** One column of a batch. */
export interface UpsertColumn {
  name: string;
  /** The PostgreSQL type of the array the values are sent as: text, int4, int8, float8, bool, date, jsonb. */
  type: 'text' | 'int4' | 'int8' | 'float8' | 'float4' | 'bool' | 'date' | 'jsonb';
  /**
   * How the sent value becomes the stored one, `$` standing for it: geometries travel as GeoJSON or WKT
   * text, e.g. `ST_Multi(ST_SetSRID(ST_GeomFromGeoJSON($), 4326))` (see GEOMETRY below).
   */
  expression?: string;
  /** Keep the stored value when a row is loaded again (e.g. an id others refer to). */
  keepOnUpdate?: boolean;
}

/** Expressions for geometry columns sent as GeoJSON text or as WKT. */
export const GEOMETRY = {
  point: 'ST_SetSRID(ST_GeomFromGeoJSON($), 4326)',
  pointWkt: 'ST_GeomFromText($, 4326)',
  multiPolygon: 'ST_Multi(ST_SetSRID(ST_GeomFromGeoJSON($), 4326))',
  multiPolygonWkt: 'ST_Multi(ST_GeomFromText($, 4326))',
  polygon: 'ST_SetSRID(ST_GeomFromGeoJSON($), 4326)',
  polygonWkt: 'ST_GeomFromText($, 4326)',
  multiLineString: 'ST_Multi(ST_SetSRID(ST_GeomFromGeoJSON($), 4326))',
  multiLineStringWkt: 'ST_Multi(ST_GeomFromText($, 4326))',
} as const;

export interface UpsertOptions {
  /** The unique columns rows meet on; default (source, source_id). */
  conflict?: readonly string[];
  /** Rows per statement; default 5000. */
  batchSize?: number;
  /** Called after each batch with the rows written so far (progress bars). */
  onBatch?: (written: number) => void;
}

/** Writes rows (each an array in the columns' order); answers the ids of the rows, in input order. */
export async function upsertRows(
  db: Queryable,
  table: string,
  columns: readonly UpsertColumn[],
  rows: readonly (readonly unknown[])[],
  { conflict = ['source', 'source_id'], batchSize = 5000, onBatch }: UpsertOptions = {},
): Promise<string[]> {
  const names = columns.map((column) => column.name);
  const aliases = columns.map((_, i) => `c${i}`);
  const values = columns.map((column, i) =>
    column.expression ? column.expression.replaceAll('$', `r.${aliases[i]}`) : `r.${aliases[i]}`,
  );
  const updates = columns
    .filter((column) => !conflict.includes(column.name) && !column.keepOnUpdate)
    .map((column) => `${quoteIdentifier(column.name)} = EXCLUDED.${quoteIdentifier(column.name)}`);
  const sql = `
    INSERT INTO ${table} (${names.map(quoteIdentifier).join(', ')})
    SELECT ${values.join(', ')}
    FROM unnest(${columns.map((column, i) => `$${i + 1}::${column.type}[]`).join(', ')}) AS r(${aliases.join(', ')})
    ON CONFLICT (${conflict.map(quoteIdentifier).join(', ')}) DO ${updates.length ? `UPDATE SET ${updates.join(', ')}` : 'NOTHING'}
    RETURNING id::text`;

  const ids: string[] = [];
  for (let start = 0; start < rows.length; start += batchSize) {
    const batch = rows.slice(start, start + batchSize);
    const params = columns.map((column, i) =>
      batch.map((row) => {
        const value = row[i];
        if (value === undefined) return null;
        return column.type === 'jsonb' && value !== null ? JSON.stringify(value) : value;
      }),
    );
    for (const row of rowsOf<{ id: string }>(await db.query(sql, params))) ids.push(row.id);
    onBatch?.(start + batch.length);
  }
  return ids;
}

/** The rows of an answer: TypeORM answers them as an array, pg as `{ rows }`. */
export function rowsOf<Row>(answer: Row[] | { rows: Row[] }): Row[] {
  return Array.isArray(answer) ? answer : answer.rows;
}

/** A column name as SQL: quoted when it is not a plain lower-case name or is a reserved word. */
export function quoteIdentifier(name: string): string {
  return /^[a-z_][a-z0-9_]*$/.test(name) && !RESERVED.has(name) ? name : `"${name.replaceAll('"', '""')}"`;
}

const RESERVED = new Set(['references', 'order', 'user', 'group', 'table', 'default']);
