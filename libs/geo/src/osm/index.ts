export { importOsm, type OsmImportOptions } from './import';
export { NodeCoordinates } from './node-coordinates';
export {
  OsmPbfWriter,
  writeOsmPbf,
  type OsmNode,
  type OsmWay,
  type OsmPbfCounts,
  type OsmPbfWriterOptions,
} from './pbf-writer';
export {
  exportGeneratedOsm,
  type OsmExportCounts,
  type OsmExportOptions,
  type OsmExportProgress,
  type OsmExportResult,
} from './export';
export {
  generatedWorld,
  generatedTowns,
  type GeneratedWorldOptions,
  type GeneratedSuburb,
} from './generated-world';
