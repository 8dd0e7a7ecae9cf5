import { type Queryable, type UpsertColumn, upsertRows } from '../load/upsert';
import { type PolygonShape, repairPolygons } from './geometry';
import { type ImportRun } from './run';

export interface TableWriterOptions {
  /** Rows per statement (default 2000). */
  batchSize?: number;
  /** The column (index into `columns`) holding polygon GeoJSON to check with ST_IsValid and repair. */
  polygonColumn?: { index: number; shape: PolygonShape };
  /**
   * Remember every id written in this run and reject later rows with the same id (default true). OSM turns
   * this off: an element id is unique in an extract, and a million-string set is memory for nothing.
   */
  rejectRepeatedIds?: boolean;
  /** The name rows are counted under in the summary (default: the table without its schema). */
  label?: string;
}

interface PendingRow {
  sourceId: string;
  values: unknown[];
  where: string;
}

/**
 * Batched, idempotent writes of one table for one import run: rows meet existing ones on (source,
 * source_id) through upsertRows, a batch never holds one id twice (PostgreSQL refuses to update a row twice
 * in one statement), polygons are checked with ST_IsValid and repaired with ST_MakeValid (and the summary
 * says so), and a batch the database refuses is retried row by row, so one bad row is rejected with the
 * database's reason and the others still load.
 */
export class TableWriter {
  private pending: PendingRow[] = [];
  private pendingIds = new Set<string>();
  private readonly written?: Set<string>;
  private readonly columns: UpsertColumn[];
  private readonly batchSize: number;
  readonly label: string;

  constructor(
    private readonly db: Queryable,
    private readonly run: ImportRun,
    readonly table: string,
    columns: readonly UpsertColumn[],
    private readonly options: TableWriterOptions = {},
  ) {
    this.columns = [...columns, { name: 'source', type: 'text' }, { name: 'source_id', type: 'text' }];
    this.batchSize = options.batchSize ?? 2000;
    this.label = options.label ?? table.replace(/^.*\./, '');
    if (options.rejectRepeatedIds !== false) this.written = new Set();
  }

  get full(): boolean {
    return this.pending.length >= this.batchSize;
  }

  /** Queues a row (values in the columns' order, without source and source_id); false if it was rejected. */
  add(sourceId: string, values: unknown[], where: string): boolean {
    if (this.pendingIds.has(sourceId) || this.written?.has(sourceId)) {
      this.run.reject('duplicate id: an earlier row of this input had the same id', where);
      return false;
    }
    this.pendingIds.add(sourceId);
    this.written?.add(sourceId);
    this.pending.push({ sourceId, values, where });
    return true;
  }

  /** Writes the queued rows; answers the database ids by source id. */
  async flush(): Promise<Map<string, string>> {
    let batch = this.pending;
    this.pending = [];
    this.pendingIds = new Set();
    const ids = new Map<string, string>();
    if (!batch.length) return ids;

    const polygon = this.options.polygonColumn;
    if (polygon) {
      const verdicts = await repairPolygons(
        this.db,
        batch.map((row) => row.values[polygon.index] as string),
        polygon.shape,
      );
      if (verdicts.size) {
        batch = batch.filter((row, i) => {
          const verdict = verdicts.get(i);
          if (!verdict) return true;
          if (!verdict.repaired) {
            this.run.reject(
              `invalid geometry (${verdict.reason}) that ST_MakeValid cannot repair`,
              row.where,
            );
            return false;
          }
          row.values[polygon.index] = verdict.repaired;
          this.run.repair(`${verdict.reason}, made valid with ST_MakeValid`);
          return true;
        });
      }
    }

    const source = this.run.summary.source;
    const rows = batch.map((row) => [...row.values, source, row.sourceId]);
    try {
      const written = await upsertRows(this.db, this.table, this.columns, rows, {
        batchSize: rows.length || 1,
      });
      batch.forEach((row, i) => ids.set(row.sourceId, written[i]));
    } catch (batchError) {
      // One row the database refuses (a check constraint, a geometry PostGIS cannot read) fails the whole
      // statement: find it by writing the batch row by row.
      if (batch.length === 1) {
        this.run.reject(`refused by the database: ${describe(batchError)}`, batch[0].where);
        return ids;
      }
      for (let i = 0; i < batch.length; i++) {
        try {
          const [id] = await upsertRows(this.db, this.table, this.columns, [rows[i]]);
          ids.set(batch[i].sourceId, id);
        } catch (rowError) {
          this.run.reject(`refused by the database: ${describe(rowError)}`, batch[i].where);
        }
      }
    }
    this.run.loaded(this.label, ids.size);
    return ids;
  }
}

function describe(err: unknown): string {
  const message = (err as { message?: string }).message ?? String(err);
  return message.split('\n')[0].slice(0, 160);
}
