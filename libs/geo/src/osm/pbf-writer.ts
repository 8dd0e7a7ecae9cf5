/**
 * Writes OpenStreetMap PBF files (the format of Geofabrik's and osmium's .osm.pbf extracts): an OSMHeader
 * blob, then OSMData blobs of PrimitiveBlocks — DenseNodes, then Ways — of at most `blockSize` elements
 * (8 000 by default, as osmium writes them), each with its own string table, zlib-compressed. The
 * protobuf encoding is the `pbf` package's with the message definitions of osm-pbf-parser-node (`./proto`),
 * the parser the portal's importer reads with.
 *
 * Streamed with flat memory at any size: a block is encoded when full and compressed on libuv's thread pool
 * (node:zlib's async deflate, a few blocks in flight, written in order), so the caller's loop and the
 * compression share the machine's cores. Nodes and ways may arrive interleaved (the generator lays out a
 * suburb's address nodes, building corners and building ways together): the readers want every node before
 * any way, so way blocks go to a spool file beside the output and are appended to it by `close()`.
 * With `sorted`, ids must ascend per type (the header then says Sort.Type_then_ID, which osm2pgsql needs).
 */
import { once } from 'node:events';
import { createReadStream, createWriteStream, rmSync, type WriteStream } from 'node:fs';
import { promisify } from 'node:util';
import { deflate } from 'node:zlib';
import { Blob, BlobHeader, HeaderBlock, Pbf, type PbfWriter, PrimitiveBlock } from './proto';

export interface OsmNode {
  id: number;
  lat: number;
  lon: number;
  tags?: Record<string, string>;
}

export interface OsmWay {
  id: number;
  refs: number[];
  tags?: Record<string, string>;
}

export interface OsmPbfWriterOptions {
  /** Elements per PrimitiveBlock (default 8 000). */
  blockSize?: number;
  /** Ids ascend per type (checked); the header claims Sort.Type_then_ID. */
  sorted?: boolean;
  /** The header's writingprogram. */
  program?: string;
  /** zlib level (default 6, zlib's own default). */
  level?: number;
}

export interface OsmPbfCounts {
  nodes: number;
  ways: number;
  blocks: number;
}

const deflateAsync = promisify(deflate);

/** The format's default granularity: coordinates in units of 100 nanodegrees (1e-7°). */
const NANO_PER_UNIT = 100;
/** Compressed blocks in flight before the writer waits for the oldest. */
const IN_FLIGHT = 4;

class StringTable {
  private readonly index = new Map<string, number>([['', 0]]);
  readonly strings: Buffer[] = [Buffer.alloc(0)];

  id(text: string): number {
    let id = this.index.get(text);
    if (id === undefined) {
      id = this.strings.length;
      this.index.set(text, id);
      this.strings.push(Buffer.from(text, 'utf8'));
    }
    return id;
  }
}

function encode(message: { write(value: object, pbf: PbfWriter): void }, value: object): Uint8Array {
  const pbf = new Pbf();
  message.write(value, pbf);
  return pbf.finish();
}

/** A coordinate in the format's units (1e-7°). */
const units = (degrees: number) => Math.round((degrees * 1e9) / NANO_PER_UNIT);

export class OsmPbfWriter {
  readonly counts: OsmPbfCounts = { nodes: 0, ways: 0, blocks: 0 };
  private readonly out: WriteStream;
  private readonly spoolFile: string;
  private spool: WriteStream | undefined;
  private readonly blockSize: number;
  private readonly options: OsmPbfWriterOptions;
  /** The node block being filled: ids and coordinates as deltas are computed at encoding. */
  private readonly nodeIds: Float64Array;
  private readonly nodeLats: Float64Array;
  private readonly nodeLons: Float64Array;
  private nodeCount = 0;
  private nodeTags: (Record<string, string> | undefined)[] = [];
  private nodeHasTags = false;
  private ways: OsmWay[] = [];
  private lastNodeId = -Infinity;
  private lastWayId = -Infinity;
  private started = false;
  /** Compressed blobs in creation order, each written to its stream when its turn comes. */
  private pending: { stream: () => WriteStream; blob: Promise<Buffer[]> }[] = [];

  constructor(
    private readonly file: string,
    options: OsmPbfWriterOptions | number = {},
  ) {
    this.options = typeof options === 'number' ? { blockSize: options } : options;
    this.blockSize = this.options.blockSize ?? 8000;
    this.nodeIds = new Float64Array(this.blockSize);
    this.nodeLats = new Float64Array(this.blockSize);
    this.nodeLons = new Float64Array(this.blockSize);
    this.out = createWriteStream(file);
    this.spoolFile = `${file}.ways-${process.pid}.tmp`;
  }

  /** Adds a node (ids ascending when `sorted`). */
  async node(node: OsmNode): Promise<void> {
    if (this.options.sorted) {
      if (node.id <= this.lastNodeId)
        throw new Error(`OSM PBF: node ${node.id} after node ${this.lastNodeId}`);
      this.lastNodeId = node.id;
    }
    const i = this.nodeCount++;
    this.nodeIds[i] = node.id;
    this.nodeLats[i] = units(node.lat);
    this.nodeLons[i] = units(node.lon);
    this.nodeTags[i] = node.tags;
    if (node.tags) this.nodeHasTags = true;
    this.counts.nodes++;
    if (this.nodeCount >= this.blockSize) await this.flushNodes();
  }

  /** Adds a way; its nodes may come before or after it (ids ascending when `sorted`). */
  async way(way: OsmWay): Promise<void> {
    if (this.options.sorted) {
      if (way.id <= this.lastWayId) throw new Error(`OSM PBF: way ${way.id} after way ${this.lastWayId}`);
      this.lastWayId = way.id;
    }
    this.ways.push(way);
    this.counts.ways++;
    if (this.ways.length >= this.blockSize) await this.flushWays();
  }

  /** Writes what is left, appends the ways after the nodes and closes the file. */
  async close(): Promise<OsmPbfCounts> {
    await this.flushNodes();
    await this.flushWays();
    await this.start();
    while (this.pending.length) await this.writeOldest();
    if (this.spool) {
      this.spool.end();
      await once(this.spool, 'finish');
      const ways = createReadStream(this.spoolFile);
      for await (const chunk of ways) {
        if (!this.out.write(chunk)) await once(this.out, 'drain');
      }
      rmSync(this.spoolFile, { force: true });
    }
    this.out.end();
    await once(this.out, 'finish');
    return this.counts;
  }

  /** Stops without finishing the file (an error in the caller): removes the spool. */
  abort(): void {
    this.spool?.destroy();
    this.out.destroy();
    rmSync(this.spoolFile, { force: true });
  }

  private spoolStream = (): WriteStream => {
    this.spool ??= createWriteStream(this.spoolFile);
    return this.spool;
  };

  private mainStream = (): WriteStream => this.out;

  /** Queues a blob: compressed in the background, written in order. */
  private async queueBlob(
    type: 'OSMHeader' | 'OSMData',
    data: Uint8Array,
    stream: () => WriteStream,
  ): Promise<void> {
    const level = this.options.level ?? 6;
    const blob = deflateAsync(data, { level }).then((zlib) => {
      const body = encode(Blob, { raw_size: data.length, zlib_data: zlib });
      const header = encode(BlobHeader, { type, datasize: body.length });
      const length = Buffer.alloc(4);
      length.writeUInt32BE(header.length);
      return [length, Buffer.from(header), Buffer.from(body)];
    });
    blob.catch(() => undefined); // awaited in writeOldest
    this.pending.push({ stream, blob });
    this.counts.blocks++;
    while (this.pending.length >= IN_FLIGHT) await this.writeOldest();
  }

  private async writeOldest(): Promise<void> {
    const oldest = this.pending.shift();
    if (!oldest) return;
    const stream = oldest.stream();
    for (const part of await oldest.blob) {
      if (!stream.write(part)) await once(stream, 'drain');
    }
  }

  private async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    await this.queueBlob(
      'OSMHeader',
      encode(HeaderBlock, {
        required_features: ['OsmSchema-V0.6', 'DenseNodes'],
        optional_features: this.options.sorted ? ['Sort.Type_then_ID'] : [],
        writingprogram: this.options.program ?? 'portal-geo',
      }),
      this.mainStream,
    );
  }

  private async flushNodes(): Promise<void> {
    const count = this.nodeCount;
    if (!count) return;
    await this.start();
    const strings = new StringTable();
    const id = new Float64Array(count);
    const lat = new Float64Array(count);
    const lon = new Float64Array(count);
    for (let i = 0; i < count; i++) {
      id[i] = this.nodeIds[i] - (i ? this.nodeIds[i - 1] : 0);
      lat[i] = this.nodeLats[i] - (i ? this.nodeLats[i - 1] : 0);
      lon[i] = this.nodeLons[i] - (i ? this.nodeLons[i - 1] : 0);
    }
    // keys_vals only when a node of the block has tags (then every node ends its run with a 0).
    const keysVals: number[] = [];
    if (this.nodeHasTags) {
      for (let i = 0; i < count; i++) {
        const tags = this.nodeTags[i];
        if (tags) for (const key in tags) keysVals.push(strings.id(key), strings.id(tags[key]));
        keysVals.push(0);
      }
    }
    this.nodeCount = 0;
    this.nodeTags = [];
    this.nodeHasTags = false;
    const block = encode(PrimitiveBlock, {
      stringtable: { s: strings.strings },
      primitivegroup: [{ dense: { id, lat, lon, keys_vals: keysVals } }],
    });
    await this.queueBlob('OSMData', block, this.mainStream);
  }

  private async flushWays(): Promise<void> {
    if (!this.ways.length) return;
    await this.start();
    const strings = new StringTable();
    const ways = this.ways.map((way) => {
      const keys: number[] = [];
      const vals: number[] = [];
      for (const key in way.tags ?? {}) {
        keys.push(strings.id(key));
        vals.push(strings.id(way.tags![key]));
      }
      const refs = new Float64Array(way.refs.length);
      for (let i = 0; i < refs.length; i++) refs[i] = way.refs[i] - (i ? way.refs[i - 1] : 0);
      return { id: way.id, keys, vals, refs };
    });
    this.ways = [];
    const block = encode(PrimitiveBlock, { stringtable: { s: strings.strings }, primitivegroup: [{ ways }] });
    await this.queueBlob('OSMData', block, this.spoolStream);
  }
}

/** Writes a whole extract at once (tests). */
export async function writeOsmPbf(
  file: string,
  { nodes = [], ways = [] }: { nodes?: readonly OsmNode[]; ways?: readonly OsmWay[] },
  blockSize?: number,
): Promise<void> {
  const writer = new OsmPbfWriter(file, { blockSize });
  for (const node of nodes) await writer.node(node);
  for (const way of ways) await writer.way(way);
  await writer.close();
}
