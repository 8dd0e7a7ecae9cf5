import { type Queryable } from '../load/upsert';

/**
 * One importer run: what was read, loaded, repaired and rejected (and why). Rows are rejected one by one
 * with a reason and the import goes on; the summary is stored in geo.import_runs and returned to the
 * caller (the CLI prints it, tests read it).
 */

/** The kinds of input the importers take (the CLI's first argument). */
export const IMPORT_KINDS = [
  'osm',
  'parcels',
  'farms',
  'coverage',
  'places',
  'postal',
  'pois',
  'shared-data',
] as const;
export type ImportKind = (typeof IMPORT_KINDS)[number];

export interface ImportSummary {
  /** geo.import_runs.id of this run. */
  runId: string;
  kind: ImportKind;
  /** The `source` the rows were written with. */
  source: string;
  /** What was read (a file path). */
  input: string;
  /** Records read from the input (features, CSV rows, OSM elements with tags). */
  read: number;
  /** Rows written (inserted or updated) per table, e.g. { addresses: 812, streets: 40 }. */
  loaded: Record<string, number>;
  /** Rows not written, per reason. */
  rejected: Record<string, number>;
  /** Rows written after a repair (invalid polygons made valid with ST_MakeValid), per PostGIS reason. */
  repaired: Record<string, number>;
  /** Rows written with a part left out (an unparseable postcode, an unknown parent code...), per reason. */
  warnings: Record<string, number>;
  /** A few rows per rejection or warning reason ("feature 12 (id ERF-1)"), to find them in the input. */
  examples: Record<string, string[]>;
  seconds: number;
}

const EXAMPLES_PER_REASON = 3;

/** The running tally of an import; `finish()` stores it and answers the summary. */
export class ImportRun {
  readonly summary: ImportSummary;
  private readonly started = performance.now();

  private constructor(
    private readonly db: Queryable,
    kind: ImportKind,
    source: string,
    input: string,
    runId: string,
  ) {
    this.summary = {
      runId,
      kind,
      source,
      input,
      read: 0,
      loaded: {},
      rejected: {},
      repaired: {},
      warnings: {},
      examples: {},
      seconds: 0,
    };
  }

  /** Records the run's start in geo.import_runs (so a run that dies half-way still shows up). */
  static async start(db: Queryable, kind: ImportKind, source: string, input: string): Promise<ImportRun> {
    const [row] = await db.query(
      `INSERT INTO geo.import_runs (source, input) VALUES ($1, $2) RETURNING id::text AS id`,
      [source, `${kind}: ${input}`],
    );
    return new ImportRun(db, kind, source, input, row.id);
  }

  get rejectedCount(): number {
    return sum(this.summary.rejected);
  }

  get loadedCount(): number {
    return sum(this.summary.loaded);
  }

  countRead(n = 1): void {
    this.summary.read += n;
  }

  reject(reason: string, where?: string): void {
    this.summary.rejected[reason] = (this.summary.rejected[reason] ?? 0) + 1;
    if (where) {
      const examples = (this.summary.examples[reason] ??= []);
      if (examples.length < EXAMPLES_PER_REASON) examples.push(where);
    }
  }

  repair(reason: string): void {
    this.summary.repaired[reason] = (this.summary.repaired[reason] ?? 0) + 1;
  }

  warn(reason: string, n = 1): void {
    this.summary.warnings[reason] = (this.summary.warnings[reason] ?? 0) + n;
  }

  loaded(table: string, n: number): void {
    this.summary.loaded[table] = (this.summary.loaded[table] ?? 0) + n;
  }

  /** Folds another run's tallies into this one (shared-data is several imports under one run). */
  absorb(other: ImportSummary, prefix: string): void {
    this.summary.read += other.read;
    for (const [table, n] of Object.entries(other.loaded)) this.loaded(table, n);
    for (const [reason, n] of Object.entries(other.rejected)) {
      const key = `${prefix}: ${reason}`;
      this.summary.rejected[key] = (this.summary.rejected[key] ?? 0) + n;
      if (other.examples[reason]) this.summary.examples[key] = other.examples[reason];
    }
    for (const [reason, n] of Object.entries(other.repaired)) {
      this.summary.repaired[`${prefix}: ${reason}`] =
        (this.summary.repaired[`${prefix}: ${reason}`] ?? 0) + n;
    }
    for (const [reason, n] of Object.entries(other.warnings)) {
      this.warn(`${prefix}: ${reason}`, n);
      if (other.examples[reason]) this.summary.examples[`${prefix}: ${reason}`] = other.examples[reason];
    }
  }

  /**
   * Stores the tallies in geo.import_runs: `loaded` holds rows per table (plus, when there were any,
   * `repaired` and `warnings` by reason), `rejected` holds rows per reason.
   */
  async finish(): Promise<ImportSummary> {
    this.summary.seconds = Math.round((performance.now() - this.started) / 100) / 10;
    const { loaded, repaired, warnings, rejected } = this.summary;
    const stored: Record<string, unknown> = { ...loaded };
    if (Object.keys(repaired).length) stored.repaired = repaired;
    if (Object.keys(warnings).length) stored.warnings = warnings;
    // A bulk import that stopped with indexes set aside keeps its record of them, and stays open, until the
    // next bulk import builds them (importers/staged-write.ts).
    await this.db.query(
      `UPDATE geo.import_runs
          SET finished_at = CASE WHEN loaded ? 'deferred' THEN NULL ELSE now() END,
              loaded = CASE WHEN loaded ? 'deferred'
                            THEN $2::jsonb || jsonb_build_object('deferred', loaded->'deferred')
                            ELSE $2::jsonb END,
              rejected = $3::jsonb
        WHERE id = $1`,
      [this.summary.runId, JSON.stringify(stored), JSON.stringify(rejected)],
    );
    return this.summary;
  }
}

function sum(counts: Record<string, number>): number {
  return Object.values(counts).reduce((total, n) => total + n, 0);
}

const numberFormat = new Intl.NumberFormat('en-ZA');

/** The summary as lines for a person: what was loaded, rejected (with examples), repaired, warned. */
export function formatSummary(summary: ImportSummary): string {
  const n = (value: number) => numberFormat.format(value);
  const lines = [
    `Import ${summary.kind} from ${summary.input} as source "${summary.source}" (run ${summary.runId}): ` +
      `${n(summary.read)} read in ${summary.seconds} s`,
  ];
  const loaded = Object.entries(summary.loaded);
  lines.push(
    `  loaded:   ${loaded.length ? loaded.map(([table, count]) => `${n(count)} ${table}`).join(', ') : 'nothing'}`,
  );
  const section = (title: string, counts: Record<string, number>, withExamples = false) => {
    const entries = Object.entries(counts).sort((a, b) => b[1] - a[1]);
    if (!entries.length) return;
    lines.push(`  ${title} ${n(entries.reduce((total, [, count]) => total + count, 0))}:`);
    for (const [reason, count] of entries) {
      const examples = withExamples ? summary.examples[reason] : undefined;
      lines.push(
        `    ${n(count).padStart(9)}  ${reason}${examples?.length ? ` (e.g. ${examples.join('; ')})` : ''}`,
      );
    }
  };
  section('rejected', summary.rejected, true);
  if (!Object.keys(summary.rejected).length) lines.push('  rejected: none');
  section('repaired', summary.repaired);
  section('warnings', summary.warnings, true);
  return lines.join('\n');
}
