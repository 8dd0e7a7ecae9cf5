export { IMPORT_KINDS, type ImportKind, type ImportSummary, formatSummary } from './run';
export { type ImportOptions, ImportInputError, defaultSource, type FeatureInput } from './common';
export { type ProgressMode } from './progress';
export { SOUTH_AFRICA_BOUNDS, isInSouthAfrica } from './bounds';
export { type FieldSpec, type FieldMapping, tidyName } from './fields';
export { GeoJsonInputError } from './geojson-stream';
export { importParcels, PARCEL_FIELDS, type ParcelField, type ParcelImportOptions } from './parcels';
export { importFarms, FARM_FIELDS, splitFarmName, type FarmField, type FarmImportOptions } from './farms';
export {
  importCoverage,
  COVERAGE_FIELDS,
  coverageKind,
  isoDate,
  isoDay,
  DEFAULT_COVERAGE_PROVIDER,
  type CoverageField,
  type CoverageKind,
  type CoverageImportOptions,
} from './coverage';
export {
  importPlaces,
  PLACE_FIELDS,
  placeImportance,
  placeKind,
  type PlaceField,
  type PlaceImportOptions,
} from './places';
export { importPostalCodes, POSTAL_FIELDS, type PostalField, type PostalImportOptions } from './postal';
export { importPois, POI_FIELDS, POI_TYPES, type PoiField, type PoiImportOptions } from './pois';
export { importSharedData, findSharedDataDir, SHARED_DATA_FILES } from './shared-data';
export { PLACE_KINDS, type PlaceKind } from './link';
