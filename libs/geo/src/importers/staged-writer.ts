import { type CopyCapableClient, copyFromText, CopyTextWriter } from '../generator/copy';
import { type Queryable, quoteIdentifier, type UpsertColumn } from '../load/upsert';
import { type PolygonShape, repairedPolygonSql } from './geometry';
import { type ImportRun } from './run';

/**
 * A column of a staged table. Besides UpsertColumn's types, `geometry`: the value is hex EWKB (SRID 4326),
 * parsed by PostgreSQL while the COPY arrives, so the final statement only moves it.
 */
export interface StagedColumn extends Omit<UpsertColumn, 'type'> {
  type: UpsertColumn['type'] | 'geometry';
  /**
   * The value is the source_id of a row of this table written by the same import (e.g. an address's street):
   * the final statement stores that row's id (NULL when there is none).
   */
  refersTo?: string;
}

export interface StagedTableWriterOptions {
  /** The geometry column (index into `columns`) to check with ST_IsValid and repair, as TableWriter does. */
  polygonColumn?: { index: number; shape: PolygonShape };
  /** The name rows are counted under in the summary (default: the table without its schema). */
  label?: string;
}

/** COPY text sent at once (the next batch is laid out while PostgreSQL reads it). */
const FLUSH_BYTES = 8 * 1024 * 1024;
const TAB = 9;
const NEWLINE = 10;

/**
 * The bulk path of an import (importOsm's `bulk`): rows are copied, as they are read, into a temporary table
 * of the session (no WAL, gone if the import dies) and written into the geo table by one INSERT … SELECT at
 * the end (`write`), after one ST_IsValid pass over the staged polygons. The rows are the ones TableWriter
 * writes (same columns, the same repair of invalid polygons and the same reasons in the summary); what
 * differs is the cost: COPY and one statement per table instead of a statement per batch, and, when the
 * caller sets them aside (bulk-import.ts), indexes built once over all rows instead of kept up row by row.
 */
export class StagedTableWriter {
  private readonly text = new CopyTextWriter();
  private copying: Promise<unknown> = Promise.resolve();
  private created = false;
  private staged = 0;
  readonly label: string;
  readonly stage: string;

  constructor(
    private readonly client: CopyCapableClient,
    private readonly db: Queryable,
    private readonly run: ImportRun,
    readonly table: string,
    private readonly columns: readonly StagedColumn[],
    private readonly options: StagedTableWriterOptions = {},
  ) {
    this.label = options.label ?? table.replace(/^.*\./, '');
    this.stage = `import_stage_${this.label}`;
  }

  /** Rows staged so far. */
  get rows(): number {
    return this.staged;
  }

  get full(): boolean {
    return this.text.length >= FLUSH_BYTES;
  }

  /** Stages a row (values in the columns' order, without source and source_id). */
  add(sourceId: string, values: readonly unknown[], where: string): boolean {
    this.text.value(sourceId);
    this.text.byte(TAB);
    this.text.value(where === sourceId ? null : where);
    for (const value of values) {
      this.text.byte(TAB);
      this.text.value(value);
    }
    this.text.byte(NEWLINE);
    this.staged += 1;
    return true;
  }

  /**
   * Sends the staged rows as one COPY. Only one COPY of the table is waited for at a time: the promise
   * settles when the previous one is in, so reading the file goes on while PostgreSQL reads the rows.
   */
  async flush(): Promise<void> {
    await this.copying;
    if (!this.created) await this.createStage();
    if (this.text.length === 0) return;
    const rows = this.text.take();
    const names = ['source_id', '"where"', ...this.columns.map((_, i) => `c${i}`)].join(', ');
    this.copying = copyFromText(this.client, `COPY ${this.stage} (${names}) FROM STDIN`, rows);
  }

  private async createStage(): Promise<void> {
    const columns = this.columns.map(
      (column, i) => `c${i} ${column.type === 'geometry' ? 'geometry' : column.type}`,
    );
    await this.db.query(
      `CREATE TEMP TABLE ${this.stage} (source_id text NOT NULL, "where" text, ${columns.join(', ')})`,
    );
    this.created = true;
  }

  /**
   * Writes the staged rows into the table: invalid polygons repaired or rejected first, then one INSERT …
   * SELECT that meets existing rows on (source, source_id) (`upsert`) or, when the table's unique index is
   * set aside, plainly appends them. The temporary table is dropped.
   */
  async write({ upsert }: { upsert: boolean }): Promise<number> {
    // Nothing staged: no table to make and fill, and no count in the summary (as TableWriter).
    if (this.staged === 0) return 0;
    await this.flush();
    await this.copying;
    await this.repairPolygons();
    const source = this.run.summary.source;
    const joins: string[] = [];
    const values = this.columns.map((column, i) => {
      let value = `s.c${i}`;
      if (column.refersTo) {
        joins.push(`LEFT JOIN ${column.refersTo} r${i} ON r${i}.source = $1 AND r${i}.source_id = s.c${i}`);
        value = `r${i}.id`;
      }
      return column.expression ? column.expression.replaceAll('$', value) : value;
    });
    const names = [...this.columns.map((column) => quoteIdentifier(column.name)), 'source', 'source_id'];
    const updates = this.columns
      .filter((column) => !column.keepOnUpdate)
      .map((column) => `${quoteIdentifier(column.name)} = EXCLUDED.${quoteIdentifier(column.name)}`);
    const conflict = upsert ? `ON CONFLICT (source, source_id) DO UPDATE SET ${updates.join(', ')}` : '';
    const result = (await (this.client as unknown as Queryable).query(
      `INSERT INTO ${this.table} (${names.join(', ')})
       SELECT ${values.join(', ')}, $1, s.source_id FROM ${this.stage} s ${joins.join(' ')} ${conflict}`,
      [source],
    )) as { rowCount?: number };
    const written = result.rowCount ?? 0;
    await this.db.query(`DROP TABLE ${this.stage}`);
    this.created = false;
    this.run.loaded(this.label, written);
    return written;
  }

  /** One ST_IsValid pass over the staged polygons: repairs what ST_MakeValid can, rejects the rest. */
  private async repairPolygons(): Promise<void> {
    const polygon = this.options.polygonColumn;
    if (!polygon) return;
    const column = `c${polygon.index}`;
    const rows: { source_id: string; where: string | null; reason: string; fixed: boolean }[] =
      await this.db.query(
        `WITH checked AS (
           SELECT s.source_id, s."where", (s.detail).reason AS reason, r.geom AS repaired,
                  coalesce(NOT ST_IsEmpty(r.geom), false) AS fixed
             FROM (SELECT source_id, "where", ${column}, ST_IsValidDetail(${column}) AS detail
                     FROM ${this.stage}) s
            CROSS JOIN LATERAL (SELECT ${repairedPolygonSql(`s.${column}`, polygon.shape)} AS geom) r
            WHERE NOT (s.detail).valid),
         repaired AS (
           UPDATE ${this.stage} t SET ${column} = c.repaired FROM checked c
            WHERE t.source_id = c.source_id AND c.fixed),
         rejected AS (
           DELETE FROM ${this.stage} t USING checked c WHERE t.source_id = c.source_id AND NOT c.fixed)
         SELECT source_id, "where", reason, fixed FROM checked`,
      );
    for (const row of rows) {
      const reason = (row.reason || 'invalid').replace(/\s*\[.*$/, '');
      if (row.fixed) this.run.repair(`${reason}, made valid with ST_MakeValid`);
      else
        this.run.reject(
          `invalid geometry (${reason}) that ST_MakeValid cannot repair`,
          row.where ?? row.source_id,
        );
    }
  }
}
