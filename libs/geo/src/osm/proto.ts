/**
 * The OSM PBF protobuf messages as osm-pbf-parser-node ships them (compiled from OSM-binary's .proto files
 * by the pbf compiler): the test writer encodes with the same definitions the importer's parser decodes.
 */
/** What the generated messages' write functions and the writer need of pbf 3's Pbf (it ships no types). */
export interface PbfWriter {
  finish(): Uint8Array;
}

interface Message {
  write(value: object, pbf: PbfWriter): void;
}

/* eslint-disable @typescript-eslint/no-require-imports -- untyped deep modules of an ESM package */
const fileformat = require('osm-pbf-parser-node/proto/fileformat.js') as {
  Blob: Message;
  BlobHeader: Message;
};
const osmformat = require('osm-pbf-parser-node/proto/osmformat.js') as {
  HeaderBlock: Message;
  PrimitiveBlock: Message;
};
/** mapbox's pbf 3 (CommonJS: module.exports = Pbf); `new Pbf()` is a growable writer. */
export const Pbf = require('pbf') as new () => PbfWriter;
/* eslint-enable @typescript-eslint/no-require-imports */

export const { Blob, BlobHeader } = fileformat;
export const { HeaderBlock, PrimitiveBlock } = osmformat;
