export * from './text';
export * from './load/upsert';
export * from './importers';
export * from './osm';
