export { importOsm, type OsmImportOptions } from './import';
export { NodeCoordinates } from './node-coordinates';
export { OsmPbfWriter, writeOsmPbf, type OsmNode, type OsmWay } from './testing/pbf-writer';
