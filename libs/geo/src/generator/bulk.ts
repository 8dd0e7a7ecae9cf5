/**
 * The generator's bulk path: how a national dataset (10 M addresses) is written into tables that hold no
 * generator rows yet (a fresh benchmark database), at tens of thousands of addresses a second on two cores.
 *
 * - Ids are given here (each table's next id after its largest), so a batch's rows refer to each other
 *   without a round trip, and every table of a batch is one COPY FROM STDIN (copy.ts), sent while the next
 *   batch is laid out.
 * - The big tables' secondary indexes, unique and foreign-key constraints and triggers are set aside
 *   before the first row and built once at the end (an index built over sorted input is far cheaper than
 *   one kept up row by row); a parcel's address_count, which a trigger keeps, is written with the parcel.
 *   What was set aside is recorded in the run's geo.import_runs row, so it is restored even after a kill.
 * - Each town is one transaction that also moves the run's checkpoint (towns done, the shortfall passed on,
 *   counts) in geo.import_runs: a killed run, started again with the same scale and seed, goes on at the
 *   first town it had not committed.
 *
 * The rows are the ones the upsert path writes (the same layout); only their ids may differ.
 */
import { type Queryable } from '../load/upsert';
import { GENERATED_TABLES } from './run';
import {
  type Batch,
  COLUMNS,
  emptyCounts,
  type GeneratedCounts,
  GENERATOR_SOURCE,
  REF,
  type Row,
} from './batch';
import {
  type BinaryType,
  binaryTypeOf,
  CopyBinaryWriter,
  type CopyCapableClient,
  copyFromText,
  CopyTextWriter,
} from './copy';

/** The tables whose secondary indexes, constraints and triggers are set aside while a bulk run writes. */
export const BULK_DEFERRED_TABLES = [
  'streets',
  'parcels',
  'addresses',
  'pois',
  'buildings',
  'farms',
] as const;

/** Every table a bulk run writes ids into (the geo.places rows are the suburbs): the generator's tables. */
export const ID_TABLES = GENERATED_TABLES;
export type IdTable = (typeof ID_TABLES)[number];

/** Gives `rows` consecutive ids of a table; answers the first. */
export type IdAllocator = (table: IdTable, rows: number) => number;

/** Ids given from `next` (each table's next free id), moved on. */
export const idsFrom =
  (next: Record<IdTable, number>): IdAllocator =>
  (table, rows) => {
    const first = next[table];
    next[table] += rows;
    return first;
  };

/** What a bulk run set aside, in the order it is put back. */
export interface DeferredSchema {
  /** Statements that put back unique constraints, then indexes, then foreign keys. */
  restore: string[];
  /** Triggers disabled, as `table.trigger`. */
  triggers: string[];
}

/** The checkpoint kept in geo.import_runs.loaded.bulk while a bulk run is under way. */
export interface BulkCheckpoint {
  /** Towns committed, in plan order. */
  towns: number;
  /** Addresses a hemmed-in town could not lay out, passed to the next town. */
  shortfall: number;
  counts: GeneratedCounts;
  deferred: DeferredSchema;
}

export interface UnfinishedBulkRun {
  id: string;
  input: string;
  checkpoint: BulkCheckpoint;
}

/** The newest generator run that a bulk run left unfinished (killed), if any. */
export async function findUnfinishedBulkRun(db: Queryable): Promise<UnfinishedBulkRun | undefined> {
  const [run] = await db.query(
    `SELECT id::text AS id, input, loaded->'bulk' AS checkpoint FROM geo.import_runs
      WHERE source = $1 AND finished_at IS NULL AND loaded ? 'bulk' ORDER BY id DESC LIMIT 1`,
    [GENERATOR_SOURCE],
  );
  return run ? { id: run.id, input: run.input, checkpoint: run.checkpoint as BulkCheckpoint } : undefined;
}

/** Whether any table the generator writes holds generator rows (the bulk path needs them empty). */
export async function hasGeneratorRows(db: Queryable, tables: readonly string[]): Promise<boolean> {
  for (const table of tables) {
    const [row] = await db.query(`SELECT EXISTS (SELECT 1 FROM geo.${table} WHERE source = $1) AS has`, [
      GENERATOR_SOURCE,
    ]);
    if (row.has) return true;
  }
  return false;
}

/**
 * Sets aside the secondary indexes, unique and foreign-key constraints and user triggers of the big tables
 * (`tables`, in schema geo; default the generator's).
 */
export async function deferSchema(
  db: Queryable,
  deferredTables: readonly string[] = BULK_DEFERRED_TABLES,
): Promise<DeferredSchema> {
  const tables = deferredTables.map((table) => `geo.${table}`);
  const constraints: { tbl: string; name: string; kind: string; def: string }[] = await db.query(
    `SELECT conrelid::regclass::text AS tbl, conname AS name, contype AS kind, pg_get_constraintdef(oid) AS def
       FROM pg_constraint WHERE conrelid = ANY($1::regclass[]) AND contype IN ('u', 'f') ORDER BY conname`,
    [tables],
  );
  const indexes: { name: string; def: string }[] = await db.query(
    `SELECT i.indexrelid::regclass::text AS name, pg_get_indexdef(i.indexrelid) AS def
       FROM pg_index i
      WHERE i.indrelid = ANY($1::regclass[]) AND NOT i.indisprimary
        AND NOT EXISTS (SELECT 1 FROM pg_constraint k
                         WHERE k.conindid = i.indexrelid AND k.conrelid = i.indrelid AND k.contype IN ('p', 'u', 'x'))
      ORDER BY 1`,
    [tables],
  );
  const triggers: { tbl: string; name: string }[] = await db.query(
    `SELECT tgrelid::regclass::text AS tbl, tgname AS name FROM pg_trigger
      WHERE tgrelid = ANY($1::regclass[]) AND NOT tgisinternal AND tgenabled <> 'D' ORDER BY tgname`,
    [tables],
  );
  const foreign = constraints.filter((constraint) => constraint.kind === 'f');
  const unique = constraints.filter((constraint) => constraint.kind === 'u');
  for (const constraint of [...foreign, ...unique])
    await db.query(`ALTER TABLE ${constraint.tbl} DROP CONSTRAINT ${quoteIdent(constraint.name)}`);
  for (const index of indexes) await db.query(`DROP INDEX ${index.name}`);
  for (const trigger of triggers)
    await db.query(`ALTER TABLE ${trigger.tbl} DISABLE TRIGGER ${quoteIdent(trigger.name)}`);
  const add = (constraint: { tbl: string; name: string; def: string }) =>
    `ALTER TABLE ${constraint.tbl} ADD CONSTRAINT ${quoteIdent(constraint.name)} ${constraint.def}`;
  return {
    restore: [...unique.map(add), ...indexes.map((index) => index.def), ...foreign.map(add)],
    triggers: triggers.map((trigger) => `${trigger.tbl}.${trigger.name}`),
  };
}

/** A connection of its own for a parallel index build or vacuum (closed with end()). */
export type ExtraConnection = Queryable & { end(): Promise<void> };

/**
 * Puts back what deferSchema set aside. The indexes (unique ones too, attached to their constraints
 * afterwards) are built by `connections` at once, biggest kinds first: on two cores a GIN build and a GiST
 * build run side by side. Each statement is its own transaction, so a kill while indexing keeps what was
 * built, and a statement whose index or constraint already exists is skipped.
 */
export async function restoreSchema(
  db: Queryable,
  deferred: DeferredSchema,
  { onStep, connections = [] }: { onStep?: (step: string) => void; connections?: readonly Queryable[] } = {},
): Promise<void> {
  const builds: string[] = [];
  const afterwards: string[] = [];
  for (const statement of deferred.restore) {
    const unique = /^ALTER TABLE (\S+) ADD CONSTRAINT (\S+) UNIQUE (\(.*\))$/.exec(statement);
    if (unique) {
      const [, table, name, columns] = unique;
      builds.push(`CREATE UNIQUE INDEX IF NOT EXISTS ${name} ON ${table} ${columns}`);
      afterwards.push(`ALTER TABLE ${table} ADD CONSTRAINT ${name} UNIQUE USING INDEX ${name}`);
    } else if (/^CREATE (UNIQUE )?INDEX /.test(statement)) {
      builds.push(statement.replace(/^CREATE (UNIQUE )?INDEX /, 'CREATE $1INDEX IF NOT EXISTS '));
    } else afterwards.push(statement); // foreign keys: after every index they may use
  }
  const cost = (sql: string) => (/USING gin/.test(sql) ? 0 : /USING gist/.test(sql) ? 1 : 2);
  builds.sort((a, b) => cost(a) - cost(b));
  // Index builds sort in memory rather than on disk when they can (each session's setting only).
  await runInParallel([db, ...connections], builds, onStep, `SET maintenance_work_mem = '1GB'`);
  for (const statement of afterwards) {
    onStep?.(statement);
    try {
      await db.query(statement);
    } catch (err) {
      // 42710: that constraint exists (put back before a kill); 42P07: a relation of that name exists.
      if (!['42710', '42P07'].includes((err as { code?: string }).code ?? '')) throw err;
    }
  }
  for (const trigger of deferred.triggers) {
    const dot = trigger.lastIndexOf('.');
    onStep?.(`enable trigger ${trigger}`);
    await db.query(
      `ALTER TABLE ${trigger.slice(0, dot)} ENABLE TRIGGER ${quoteIdent(trigger.slice(dot + 1))}`,
    );
  }
}

/** Runs statements over several connections at once, each connection taking the next when it is free. */
export async function runInParallel(
  connections: readonly Queryable[],
  statements: readonly string[],
  onStep?: (step: string) => void,
  setup?: string,
): Promise<void> {
  const queue = [...statements];
  await Promise.all(
    connections.map(async (connection) => {
      if (setup) await connection.query(setup);
      for (let statement = queue.shift(); statement; statement = queue.shift()) {
        onStep?.(statement);
        await connection.query(statement);
      }
    }),
  );
}

/** Each table's next free id: after its largest id and its identity sequence's last value. */
export async function nextIds(db: Queryable): Promise<Record<IdTable, number>> {
  const next = {} as Record<IdTable, number>;
  for (const table of ID_TABLES) {
    const [row] = await db.query(
      `SELECT greatest((SELECT coalesce(max(id), 0) FROM geo.${table}),
                       ${sequenceOf(table)})::float8 + 1 AS next`,
    );
    next[table] = Number(row.next);
  }
  return next;
}

/** Moves each identity sequence past the ids the bulk run gave, so later inserts do not collide. */
export async function advanceSequences(db: Queryable): Promise<void> {
  for (const table of ID_TABLES) {
    await db.query(
      `SELECT setval(pg_get_serial_sequence('geo.${table}', 'id'),
                     greatest((SELECT max(id) FROM geo.${table}), ${sequenceOf(table)}, 1))`,
    );
  }
}

/** The last value of a table's identity sequence (0 before its first use), as a scalar sub-select. */
function sequenceOf(table: string): string {
  return `(SELECT coalesce(last_value, 0) FROM pg_sequences
            WHERE format('%I.%I', schemaname, sequencename) = pg_get_serial_sequence('geo.${table}', 'id'))`;
}

/** Each COPY's table and column list: the id first, then the batch's columns (parcels: address_count last). */
const copyColumns = (table: string, columns: readonly { name: string }[], extra: string[] = []) => ({
  table,
  columns: ['id', ...columns.map((column) => column.name), ...extra],
});
const COPIES = {
  places: copyColumns('places', COLUMNS.places),
  postalCodes: copyColumns('postal_codes', COLUMNS.postalCodes),
  streets: copyColumns('streets', COLUMNS.streets),
  parcels: copyColumns('parcels', COLUMNS.parcels, ['address_count']),
  addresses: copyColumns('addresses', COLUMNS.addresses),
  pois: copyColumns('pois', COLUMNS.pois),
  buildings: copyColumns('buildings', COLUMNS.buildings),
  farms: copyColumns('farms', COLUMNS.farms),
  coverage: copyColumns('imagery_coverage', COLUMNS.coverage),
};
type CopyTable = keyof typeof COPIES;

/**
 * How each table's COPY is sent: binary with these field types (the columns' types in the database, in
 * the COPY's column order), or text where a column has a type the binary writer does not write.
 */
export type CopyFormats = Partial<Record<CopyTable, BinaryType[]>>;

/** The binary field types of each COPY, read from the tables (copyFormats() of the run's database). */
export async function copyFormats(db: Queryable): Promise<CopyFormats> {
  const formats: CopyFormats = {};
  for (const [key, { table, columns }] of Object.entries(COPIES) as [
    CopyTable,
    (typeof COPIES)[CopyTable],
  ][]) {
    const rows: { name: string; type: string }[] = await db.query(
      `SELECT attname AS name, atttypid::regtype::text AS type FROM pg_attribute
        WHERE attrelid = $1::regclass AND attnum > 0 AND NOT attisdropped`,
      [`geo.${table}`],
    );
    const types = new Map(rows.map((row) => [row.name, binaryTypeOf(row.type)]));
    const binary = columns.map((column) => types.get(column));
    if (binary.every((type) => type !== undefined)) formats[key] = binary as BinaryType[];
  }
  return formats;
}

const copySql = (key: CopyTable, binary: boolean) =>
  `COPY geo.${COPIES[key].table} (${COPIES[key].columns.join(', ')}) FROM STDIN${binary ? ' (FORMAT binary)' : ''}`;

/** The rows of one table of a batch: ids from `firstId`; `refs` turn batch-local row indices into ids. */
interface CopyPart {
  rows: readonly Row[];
  firstId: number;
  /** [column, first id of the table it refers to]: a number there is a row of that table in the batch. */
  refs: readonly [number, number][];
  /** A last column computed per row (a parcel's address_count). */
  extra?: (index: number) => number;
}

/**
 * Writes a batch with COPY, giving ids from `take`. The statements are queued on the client at
 * once; the promise settles when PostgreSQL has read them all, so the caller lays out the next batch
 * meanwhile. Tables with `formats` go in COPY's binary format, the others as text.
 */
export function copyBatch(
  client: CopyCapableClient,
  batch: Batch,
  take: IdAllocator,
  counts: GeneratedCounts,
  formats: CopyFormats = {},
): Promise<unknown> {
  const places = take('places', batch.suburbs.length);
  const postal = take('postal_codes', batch.postalCodes.length);
  const streets = take('streets', batch.streets.length);
  const parcels = take('parcels', batch.parcels.length);
  const addresses = take('addresses', batch.addresses.length);
  const pois = take('pois', batch.pois.length + batch.unitPois.length);
  const buildings = take('buildings', batch.buildings.length);
  const farms = take('farms', batch.farms.length);
  const coverage = take('imagery_coverage', batch.coverage.length);

  // A parcel's address_count, which the (set aside) trigger would keep.
  const addressCount = new Int32Array(batch.parcels.length);
  for (const address of batch.addresses) {
    const parcel = address[REF.addressParcel];
    if (typeof parcel === 'number') addressCount[parcel] += 1;
  }

  const tables: [CopyTable, CopyPart[]][] = [
    ['places', [{ rows: batch.suburbs, firstId: places, refs: [] }]],
    ['postalCodes', [{ rows: batch.postalCodes, firstId: postal, refs: [[REF.postalPlace, places]] }]],
    ['streets', [{ rows: batch.streets, firstId: streets, refs: [[REF.streetSuburb, places]] }]],
    [
      'parcels',
      [
        {
          rows: batch.parcels,
          firstId: parcels,
          refs: [[REF.parcelSuburb, places]],
          extra: (i) => addressCount[i],
        },
      ],
    ],
    [
      'addresses',
      [
        {
          rows: batch.addresses,
          firstId: addresses,
          refs: [
            [REF.addressStreet, streets],
            [REF.addressParcel, parcels],
          ],
        },
      ],
    ],
    [
      'pois',
      [
        {
          rows: batch.pois,
          firstId: pois,
          refs: [
            [REF.poiAddress, addresses],
            [REF.poiParcel, parcels],
          ],
        },
        {
          rows: batch.unitPois,
          firstId: pois + batch.pois.length,
          refs: [
            [REF.poiAddress, addresses],
            [REF.poiParcel, parcels],
            [REF.poiParent, pois],
          ],
        },
      ],
    ],
    ['buildings', [{ rows: batch.buildings, firstId: buildings, refs: [[REF.buildingParcel, parcels]] }]],
    ['farms', [{ rows: batch.farms, firstId: farms, refs: [[REF.farmParcel, parcels]] }]],
    ['coverage', [{ rows: batch.coverage, firstId: coverage, refs: [] }]],
  ];
  // Every table's data is written now (the writers' scratch bytes are the next batch's); the COPYs are sent
  // one after the other while the caller lays out the next batch.
  const copies = tables
    .filter(([, parts]) => parts.some((part) => part.rows.length > 0))
    .map(([key, parts]) => {
      const types = formats[key];
      const data = types ? copyBinary(parts, types) : copyText(parts);
      return { sql: copySql(key, types !== undefined), data };
    });

  counts.suburbs += batch.suburbs.length;
  counts.postalCodes += batch.postalCodes.length;
  counts.streets += batch.streets.length;
  counts.parcels += batch.parcels.length;
  counts.addresses += batch.addresses.length;
  counts.pois += batch.pois.length + batch.unitPois.length;
  counts.buildings += batch.buildings.length;
  counts.farms += batch.farms.length;
  counts.imageryCoverage += batch.coverage.length;
  return sendInTurn(client, copies);
}

/**
 * The COPYs of a batch on its one connection, each once the one before has finished: pg queues a query
 * sent while another runs only with a deprecation warning (pg 9 drops that queue), and the server runs
 * them one at a time either way.
 */
async function sendInTurn(
  client: CopyCapableClient,
  copies: readonly { sql: string; data: string | Buffer }[],
): Promise<void> {
  for (const { sql, data } of copies) await copyFromText(client, sql, data);
}

/** The scratch bytes every batch's COPY data is written into (copied out per table). */
const writer = new CopyTextWriter();
const binaryWriter = new CopyBinaryWriter();
const TAB = 9;
const NEWLINE = 10;

/** Each column's first id where it refers to rows of the batch (refBase[column]), else undefined. */
function refBases(refs: readonly [number, number][]): (number | undefined)[] {
  const bases: (number | undefined)[] = [];
  for (const [column, base] of refs) bases[column] = base;
  return bases;
}

/** Rows as COPY text, each prefixed with its id; written once per table by `parts` (the unit POIs after the others). */
function copyText(parts: readonly CopyPart[]): Buffer {
  for (const { rows, firstId, refs, extra } of parts) {
    const refBase = refBases(refs);
    for (let i = 0; i < rows.length; i += 1) {
      const row = rows[i];
      writer.raw(String(firstId + i));
      for (let column = 0; column < row.length; column += 1) {
        const value = row[column];
        const base = refBase[column];
        writer.byte(TAB);
        if (base !== undefined && typeof value === 'number') writer.raw(String(base + value));
        else writer.value(value);
      }
      if (extra) {
        writer.byte(TAB);
        writer.raw(String(extra(i)));
      }
      writer.byte(NEWLINE);
    }
  }
  return writer.take();
}

/** The same rows in COPY's binary format, `types` the COPY's fields (the id's first). */
function copyBinary(parts: readonly CopyPart[], types: readonly BinaryType[]): Buffer {
  binaryWriter.begin();
  for (const { rows, firstId, refs, extra } of parts) {
    const refBase = refBases(refs);
    for (let i = 0; i < rows.length; i += 1) {
      const row = rows[i];
      binaryWriter.row(types.length);
      binaryWriter.value(types[0], firstId + i);
      for (let column = 0; column < row.length; column += 1) {
        const value = row[column];
        const base = refBase[column];
        binaryWriter.value(
          types[column + 1],
          base !== undefined && typeof value === 'number' ? base + value : value,
        );
      }
      if (extra) binaryWriter.value(types[row.length + 1], extra(i));
    }
  }
  return binaryWriter.take();
}

export const emptyCheckpoint = (deferred: DeferredSchema): BulkCheckpoint => ({
  towns: 0,
  shortfall: 0,
  counts: emptyCounts(),
  deferred,
});

function quoteIdent(name: string): string {
  return /^[a-z_][a-z0-9_]*$/.test(name) ? name : `"${name.replaceAll('"', '""')}"`;
}
