/**
 * COPY ... FROM STDIN over a node-postgres client, without a stream package: pg runs any object with a
 * submit(connection) method as a query (a "submittable", the way pg-copy-streams plugs in), and its
 * connection sends CopyData/CopyDone messages. The generator's bulk path sends each table's rows of a batch
 * as one COPY in text format (tab-separated, `\N` for null), which PostgreSQL reads several times faster
 * than the same rows as unnest arrays with ON CONFLICT.
 */

/** The part of a pg connection a COPY needs (pg's lib/connection.js). */
interface PgConnection {
  query(text: string): void;
  sendCopyFromChunk(chunk: Buffer): void;
  endCopyFrom(): void;
  sendCopyFail(message: string): void;
}

/** A pg Client or a pool's client: query() takes a submittable. */
export interface CopyCapableClient {
  query(submittable: object): unknown;
  connection: { sendCopyFromChunk?: unknown };
}

/** Whether `db` is a node-postgres client that can run a COPY FROM STDIN (a TypeORM runner cannot). */
export function canCopy(db: unknown): db is CopyCapableClient {
  const connection = (db as { connection?: { sendCopyFromChunk?: unknown } } | null)?.connection;
  return typeof connection?.sendCopyFromChunk === 'function';
}

/** Largest CopyData message sent at once (PostgreSQL takes up to 1 GB; smaller keeps memory flat). */
const CHUNK_BYTES = 4 * 1024 * 1024;

class CopyFromStdin {
  readonly done: Promise<number>;
  private resolve!: (rows: number) => void;
  private reject!: (err: Error) => void;
  private rows = 0;
  private failed: Error | undefined;

  constructor(
    private readonly sql: string,
    private readonly data: Buffer,
  ) {
    this.done = new Promise((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
  }

  submit(connection: PgConnection): void {
    connection.query(this.sql);
  }

  handleCopyInResponse(connection: PgConnection): void {
    for (let at = 0; at < this.data.length; at += CHUNK_BYTES)
      connection.sendCopyFromChunk(this.data.subarray(at, at + CHUNK_BYTES));
    connection.endCopyFrom();
  }

  handleCommandComplete(message: { text?: string }): void {
    const match = /COPY (\d+)/.exec(message.text ?? '');
    if (match) this.rows = Number(match[1]);
  }

  handleError(err: Error): void {
    // ReadyForQuery follows an error the server sent; a broken connection sends nothing more.
    this.failed = err;
    this.reject(err);
  }

  handleReadyForQuery(): void {
    if (!this.failed) this.resolve(this.rows);
  }

  // Answers a COPY FROM never carries.
  handleRowDescription(): void {}
  handleDataRow(): void {}
  handleEmptyQuery(): void {}
  handlePortalSuspended(): void {}
  handleCopyData(): void {}
}

/** Runs `COPY table (columns) FROM STDIN` with `text` (COPY text format); answers the rows copied. */
export function copyFromText(client: CopyCapableClient, sql: string, text: string | Buffer): Promise<number> {
  const copy = new CopyFromStdin(sql, typeof text === 'string' ? Buffer.from(text, 'utf8') : text);
  client.query(copy);
  return copy.done;
}

/**
 * COPY text written straight into bytes: the generator's rows are millions of short strings, and building
 * each line as a string, joining them and encoding the result made most of the garbage the collector
 * spent its time on. One scratch buffer grows as needed and is reused; take() copies out what was written.
 */
export class CopyTextWriter {
  private buffer = Buffer.allocUnsafe(1 << 20);
  private at = 0;

  private ensure(bytes: number): void {
    if (this.at + bytes <= this.buffer.length) return;
    const bigger = Buffer.allocUnsafe(Math.max(this.buffer.length * 2, this.at + bytes));
    this.buffer.copy(bigger, 0, 0, this.at);
    this.buffer = bigger;
  }

  /** A value that needs no escaping (a number, an id, hex EWKB). */
  raw(text: string): void {
    this.ensure(text.length * 3);
    this.at += this.buffer.write(text, this.at, 'utf8');
  }

  /** One value in COPY's text format (copyValue). */
  value(value: unknown): void {
    if (typeof value === 'number' && Number.isInteger(value)) this.raw(String(value));
    else this.raw(copyValue(value));
  }

  byte(code: number): void {
    this.ensure(1);
    this.buffer[this.at++] = code;
  }

  get length(): number {
    return this.at;
  }

  /** What was written, in a buffer of its own; the writer starts again empty. */
  take(): Buffer {
    const out = Buffer.allocUnsafe(this.at);
    this.buffer.copy(out, 0, 0, this.at);
    this.at = 0;
    return out;
  }
}

/** One value in COPY's text format. */
export function copyValue(value: unknown): string {
  if (value === null || value === undefined) return '\\N';
  switch (typeof value) {
    case 'string':
      return /[\\\t\n\r]/.test(value) ? value.replace(/[\\\t\n\r]/g, escapeChar) : value;
    case 'number':
      return Number.isFinite(value) ? String(value) : '\\N';
    case 'boolean':
      return value ? 't' : 'f';
    default:
      return copyValue(JSON.stringify(value));
  }
}

function escapeChar(char: string): string {
  switch (char) {
    case '\\':
      return '\\\\';
    case '\t':
      return '\\t';
    case '\n':
      return '\\n';
    default:
      return '\\r';
  }
}
