export * from './text';
export * from './load/upsert';
export * from './importers';
export * from './osm';
export * from './reference/provinces';
export {
  southAfricaOutline,
  southAfricanTowns,
  importanceOfPopulation,
  createLandTest,
  type ReferenceTown,
} from './reference/south-africa';
export {
  loadReferenceData,
  REFERENCE_SOURCE,
  referenceSourceId,
  type ReferenceCounts,
  type ReferencePlaceIds,
} from './reference/load-reference';
export {
  generateGeodata,
  describeRun,
  DEFAULT_SCALE,
  DEFAULT_SEED,
  GEO_TABLES,
  type GenerateOptions,
  type GenerateProgress,
  type GenerateResult,
  type GeneratorDatabase,
} from './generator/generate';
export { GENERATOR_SOURCE, GENERATOR_PROVIDER, type GeneratedCounts } from './generator/batch';
export { standsOn, footprintOn, lifeProblems, type BuildingLife, type IsoDay } from './buildingLife';
export { planSurveys, FIRST_SURVEY_YEAR, LAST_SURVEY_YEAR, type SurveyPlan } from './generator/town/coverage';
export { PARCEL_TYPE, DATA_QUALITY, ADDRESS_QUALITY, POI_TYPE } from './generator/codes';
export * from './risk';
export { insideSouthAfrica, SOUTH_AFRICA_BOUNDS } from './country';
