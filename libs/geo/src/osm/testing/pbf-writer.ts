import { once } from 'node:events';
import { createWriteStream, type WriteStream } from 'node:fs';
import { deflateSync } from 'node:zlib';
import { PbfWriter } from 'pbf';
import { Blob, BlobHeader, HeaderBlock, PrimitiveBlock } from '../proto';

/**
 * Writes OpenStreetMap PBF files (the format of Geofabrik's and osmium's .osm.pbf extracts): dense nodes,
 * ways and relations-free blocks of at most `blockSize` elements, zlib-compressed. Tests and the bench build
 * their extracts with it instead of committing binary fixtures.
 */
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

/** Nanodegrees per unit of a coordinate (the format's default granularity: 1e-7 degrees). */
const GRANULARITY = 100;

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

function delta(values: readonly number[]): number[] {
  const out = new Array<number>(values.length);
  let previous = 0;
  for (let i = 0; i < values.length; i++) {
    out[i] = values[i] - previous;
    previous = values[i];
  }
  return out;
}

function encode(message: { write(value: object, pbf: PbfWriter): void }, value: object): Uint8Array {
  const pbf = new PbfWriter();
  message.write(value, pbf);
  return pbf.finish();
}

export class OsmPbfWriter {
  private readonly out: WriteStream;
  private nodes: OsmNode[] = [];
  private ways: OsmWay[] = [];
  private started = false;

  constructor(
    file: string,
    private readonly blockSize = 8000,
  ) {
    this.out = createWriteStream(file);
  }

  private async writeBlob(type: 'OSMHeader' | 'OSMData', data: Uint8Array): Promise<void> {
    const blob = encode(Blob, { raw_size: data.length, zlib_data: deflateSync(data) });
    const header = encode(BlobHeader, { type, datasize: blob.length });
    const length = Buffer.alloc(4);
    length.writeUInt32BE(header.length);
    for (const part of [length, header, blob]) {
      if (!this.out.write(part)) await once(this.out, 'drain');
    }
  }

  private async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    await this.writeBlob(
      'OSMHeader',
      encode(HeaderBlock, {
        required_features: ['OsmSchema-V0.6', 'DenseNodes'],
        optional_features: ['Sort.Type_then_ID'],
        writingprogram: 'portal-geo-test-writer',
      }),
    );
  }

  async node(node: OsmNode): Promise<void> {
    if (this.ways.length) throw new Error('OSM PBF: nodes come before ways');
    this.nodes.push(node);
    if (this.nodes.length >= this.blockSize) await this.flushNodes();
  }

  async way(way: OsmWay): Promise<void> {
    await this.flushNodes();
    this.ways.push(way);
    if (this.ways.length >= this.blockSize) await this.flushWays();
  }

  private async flushNodes(): Promise<void> {
    if (!this.nodes.length) return;
    await this.start();
    const strings = new StringTable();
    const keysVals: number[] = [];
    const hasTags = this.nodes.some((node) => node.tags && Object.keys(node.tags).length);
    for (const node of this.nodes) {
      if (!hasTags) break;
      for (const [key, value] of Object.entries(node.tags ?? {}))
        keysVals.push(strings.id(key), strings.id(value));
      keysVals.push(0);
    }
    const dense = {
      id: delta(this.nodes.map((node) => node.id)),
      lat: delta(this.nodes.map((node) => Math.round((node.lat * 1e9) / GRANULARITY))),
      lon: delta(this.nodes.map((node) => Math.round((node.lon * 1e9) / GRANULARITY))),
      keys_vals: keysVals,
    };
    this.nodes = [];
    await this.writeBlob(
      'OSMData',
      encode(PrimitiveBlock, { stringtable: { s: strings.strings }, primitivegroup: [{ dense }] }),
    );
  }

  private async flushWays(): Promise<void> {
    if (!this.ways.length) return;
    await this.start();
    const strings = new StringTable();
    const ways = this.ways.map((way) => {
      const entries = Object.entries(way.tags ?? {});
      return {
        id: way.id,
        keys: entries.map(([key]) => strings.id(key)),
        vals: entries.map(([, value]) => strings.id(value)),
        refs: delta(way.refs),
      };
    });
    this.ways = [];
    await this.writeBlob(
      'OSMData',
      encode(PrimitiveBlock, { stringtable: { s: strings.strings }, primitivegroup: [{ ways }] }),
    );
  }

  /** Writes what is left and closes the file. */
  async close(): Promise<void> {
    await this.flushNodes();
    await this.flushWays();
    await this.start();
    this.out.end();
    await once(this.out, 'finish');
  }
}

/** Writes a whole extract at once (tests). */
export async function writeOsmPbf(
  file: string,
  { nodes = [], ways = [] }: { nodes?: readonly OsmNode[]; ways?: readonly OsmWay[] },
  blockSize?: number,
): Promise<void> {
  const writer = new OsmPbfWriter(file, blockSize);
  for (const node of nodes) await writer.node(node);
  for (const way of ways) await writer.way(way);
  await writer.close();
}
