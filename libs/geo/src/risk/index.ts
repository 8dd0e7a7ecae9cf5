export {
  importRiskLayers,
  riskLayersEmpty,
  RiskImportError,
  titleCase,
  type RiskDatabase,
  type RiskImportOptions,
  type RiskImportSummary,
} from './import';
export {
  RISK_LAYERS,
  RISK_LAYER_SOURCES,
  POPULATION_KEY_ALIASES,
  type RiskLayer,
  type RiskLayerSource,
} from './layers';
