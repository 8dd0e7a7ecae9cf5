/**
 * COPY ... FROM STDIN over a node-postgres client, without a stream package: pg runs any object with a
 * submit(connection) method as a query (a "submittable", the way pg-copy-streams plugs in), and its
 * connection sends CopyData/CopyDone messages. The generator's bulk path sends each table's rows of a batch
 * as one COPY in binary format (CopyBinaryWriter; the staged importers in text format: tab-separated, `\N`
 * for null), which PostgreSQL reads several times faster than the same rows as unnest arrays with ON
 * CONFLICT.
 */

import { Ewkb } from './ewkb';

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
  if (value instanceof Ewkb) return value.toHex();
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

/**
 * How a column's values are sent in COPY's binary format, from the column's type in the table
 * (`atttypid::regtype`); a table with a column of another type is copied as text.
 */
export type BinaryType =
  'text' | 'int2' | 'int4' | 'int8' | 'float4' | 'float8' | 'bool' | 'date' | 'geometry';
const BINARY_TYPES: Record<string, BinaryType> = {
  text: 'text',
  'character varying': 'text',
  character: 'text', // bpcharrecv pads and checks the length as bpcharin does
  smallint: 'int2',
  integer: 'int4',
  bigint: 'int8',
  real: 'float4',
  'double precision': 'float8',
  boolean: 'bool',
  date: 'date',
  geometry: 'geometry',
};
export const binaryTypeOf = (regtype: string): BinaryType | undefined => BINARY_TYPES[regtype];

/** The binary format's signature, flags and header extension (PostgreSQL's COPY documentation). */
const BINARY_HEADER = Buffer.from('PGCOPY\n\xff\r\n\0\0\0\0\0\0\0\0\0', 'latin1');
/** Days from 1970-01-01 to 2000-01-01, PostgreSQL's date epoch. */
const DATE_EPOCH_DAYS = 10_957;
const DAY_MS = 86_400_000;

/**
 * COPY's binary format written straight into bytes: each field its length and its value as the type's
 * receive function reads it (integers big-endian, geometries as their EWKB bytes), so PostgreSQL parses no
 * text (no hex, no number or date parsing, no escapes) and the generator formats none. The values are the
 * ones the text format would give: a real is rounded the way PostgreSQL's float4in rounds the number's
 * text (float4Of).
 */
export class CopyBinaryWriter {
  private buffer = Buffer.allocUnsafe(1 << 20);
  // Numbers go through a DataView: Buffer's writeInt32BE and the like check their arguments on every call.
  private view = viewOf(this.buffer);
  private at = 0;

  private ensure(bytes: number): void {
    if (this.at + bytes <= this.buffer.length) return;
    const bigger = Buffer.allocUnsafe(Math.max(this.buffer.length * 2, this.at + bytes));
    this.buffer.copy(bigger, 0, 0, this.at);
    this.buffer = bigger;
    this.view = viewOf(bigger);
  }

  /** Starts a COPY's data: the header. */
  begin(): void {
    this.ensure(BINARY_HEADER.length);
    BINARY_HEADER.copy(this.buffer, this.at);
    this.at += BINARY_HEADER.length;
  }

  /** Starts a row of `fields` fields. */
  row(fields: number): void {
    this.ensure(2);
    this.view.setInt16(this.at, fields);
    this.at += 2;
  }

  /** One field of a row; null and undefined are NULL. */
  value(type: BinaryType, value: unknown): void {
    if (value === null || value === undefined) {
      this.ensure(4);
      this.view.setInt32(this.at, -1);
      this.at += 4;
      return;
    }
    switch (type) {
      case 'text':
        return this.text(typeof value === 'string' ? value : String(value));
      case 'int2':
        this.ensure(6);
        this.view.setInt32(this.at, 2);
        this.view.setInt16(this.at + 4, integer(value));
        this.at += 6;
        return;
      case 'int4':
        this.ensure(8);
        this.view.setInt32(this.at, 4);
        this.view.setInt32(this.at + 4, integer(value));
        this.at += 8;
        return;
      case 'int8':
        return this.int8(integer(value));
      case 'float4':
        this.ensure(8);
        this.view.setInt32(this.at, 4);
        this.view.setFloat32(this.at + 4, float4Of(Number(value)));
        this.at += 8;
        return;
      case 'float8':
        this.ensure(12);
        this.view.setInt32(this.at, 8);
        this.view.setFloat64(this.at + 4, Number(value));
        this.at += 12;
        return;
      case 'bool':
        this.ensure(5);
        this.view.setInt32(this.at, 1);
        this.buffer[this.at + 4] = value ? 1 : 0;
        this.at += 5;
        return;
      case 'date':
        this.ensure(8);
        this.view.setInt32(this.at, 4);
        this.view.setInt32(this.at + 4, dateDays(value));
        this.at += 8;
        return;
      case 'geometry':
        return this.geometry(value);
    }
  }

  /** An int8 field (ids): any integer up to 2^53. */
  int8(value: number): void {
    this.ensure(12);
    const high = Math.floor(value / 0x1_0000_0000);
    this.view.setInt32(this.at, 8);
    this.view.setInt32(this.at + 4, high);
    this.view.setUint32(this.at + 8, value - high * 0x1_0000_0000);
    this.at += 12;
  }

  /** UTF-8 after its length; the generator's text is mostly ASCII, copied a character at a time. */
  private text(value: string): void {
    const length = value.length;
    this.ensure(4 + 3 * length);
    const buffer = this.buffer;
    const from = this.at + 4;
    let at = from;
    for (let i = 0; i < length; i += 1) {
      const code = value.charCodeAt(i);
      if (code >= 0x80) {
        at = from + buffer.write(value, from, 'utf8');
        break;
      }
      buffer[at++] = code;
    }
    this.view.setInt32(this.at, at - from);
    this.at = at;
  }

  private geometry(value: unknown): void {
    if (!(value instanceof Ewkb)) {
      const bytes = Buffer.from(String(value), 'hex'); // hex EWKB
      this.ensure(4 + bytes.length);
      this.view.setInt32(this.at, bytes.length);
      bytes.copy(this.buffer, this.at + 4);
      this.at += 4 + bytes.length;
      return;
    }
    const { slab, start, end } = value;
    this.ensure(4 + end - start);
    this.view.setInt32(this.at, end - start);
    // A geometry is about a hundred bytes: a loop costs less than Buffer.copy's call into C++.
    const buffer = this.buffer;
    let at = this.at + 4;
    for (let i = start; i < end; i += 1) buffer[at++] = slab[i];
    this.at = at;
  }

  /** Ends the COPY's data (the trailer) and answers it in a buffer of its own; the writer starts again empty. */
  take(): Buffer {
    this.ensure(2);
    this.view.setInt16(this.at, -1);
    this.at += 2;
    const out = Buffer.allocUnsafe(this.at);
    this.buffer.copy(out, 0, 0, this.at);
    this.at = 0;
    return out;
  }
}

const viewOf = (buffer: Buffer) => new DataView(buffer.buffer, buffer.byteOffset, buffer.byteLength);

function integer(value: unknown): number {
  const number = typeof value === 'number' ? value : Number(value);
  if (!Number.isSafeInteger(number)) throw new Error(`COPY: ${String(value)} is not an integer`);
  return number;
}

/** Days since 2000-01-01 of a 'YYYY-MM-DD' (kept per day: the generator's dates are a few thousand days) or a Date. */
function dateDays(value: unknown): number {
  if (value instanceof Date) return Math.floor(value.getTime() / DAY_MS) - DATE_EPOCH_DAYS;
  const text = String(value);
  let days = DATE_DAYS.get(text);
  if (days === undefined) {
    const time = Date.parse(`${text}T00:00:00Z`);
    if (!Number.isFinite(time)) throw new Error(`COPY: ${text} is not a date`);
    if (DATE_DAYS.size > 100_000) DATE_DAYS.clear();
    DATE_DAYS.set(text, (days = Math.round(time / DAY_MS) - DATE_EPOCH_DAYS));
  }
  return days;
}
const DATE_DAYS = new Map<string, number>();

/**
 * The real (float4) PostgreSQL stores for a number sent as text (String(value), read by float4in with
 * strtof: the decimal rounded once to the nearest float). Math.fround rounds the double instead, which
 * differs only when the double lies exactly half-way between two floats: then the decimal text, a little
 * above or below it, decides.
 */
export function float4Of(value: number): number {
  const nearest = Math.fround(value);
  if (nearest === value || !Number.isFinite(value)) return nearest;
  // The float on value's other side is nearest's mirror image through value when value is half-way.
  const other = 2 * value - nearest;
  if (Math.fround(other) !== other) return nearest; // not half-way
  const side = compareDecimal(String(value), value);
  if (side === 0) return nearest; // the text is the double itself: ties to even, as fround does
  return side > 0 ? Math.max(nearest, other) : Math.min(nearest, other);
}

const float64 = new DataView(new ArrayBuffer(8));

/** Whether a number's decimal text is above (1), below (-1) or exactly (0) the double, compared exactly. */
function compareDecimal(text: string, value: number): number {
  const match = /^-?(\d+)(?:\.(\d+))?(?:e([+-]\d+))?$/.exec(text);
  if (!match) return 0;
  const fraction = match[2] ?? '';
  const exponent10 = Number(match[3] ?? 0) - fraction.length;
  float64.setFloat64(0, Math.abs(value));
  const bits = float64.getBigUint64(0);
  const biased = Number(bits >> 52n);
  let mantissa = bits & ((1n << 52n) - 1n);
  let exponent2 = -1074;
  if (biased > 0) {
    mantissa |= 1n << 52n;
    exponent2 = biased - 1075;
  }
  let decimal = BigInt(match[1] + fraction);
  let binary = mantissa;
  if (exponent10 >= 0) decimal *= 10n ** BigInt(exponent10);
  else binary *= 10n ** BigInt(-exponent10);
  if (exponent2 >= 0) binary *= 2n ** BigInt(exponent2);
  else decimal *= 2n ** BigInt(-exponent2);
  const sign = value < 0 ? -1 : 1;
  return decimal === binary ? 0 : decimal > binary ? sign : -sign;
}
