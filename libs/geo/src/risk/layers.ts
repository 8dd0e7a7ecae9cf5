/**
 * The IRiS risk layers (schema `risk`, migration 1764400000000-RiskLayers): which file of the team's shared
 * data folder each comes from (../shared/data, see its README), and the dataset and date a report names.
 */

export const RISK_LAYERS = [
  'police_stations',
  'police_precincts',
  'crime_series',
  'station_population',
  'elevation_grid',
  'rivers',
  'lakes',
  'coastline',
  'fire_stations',
  'soil_sites',
] as const;
export type RiskLayer = (typeof RISK_LAYERS)[number];

export interface RiskLayerSource {
  /** The file under the shared data folder. */
  file: string;
  /** More files the layer reads (horizons of the soil sites, the City's wards for the fire coverage). */
  extraFiles?: string[];
  dataset: string;
  /** The data's own date or period, as published. */
  date: string;
  licence: string;
}

export const RISK_LAYER_SOURCES: Readonly<Record<RiskLayer, RiskLayerSource>> = {
  police_stations: {
    file: 'crime/saps_stations_2014.geojson',
    dataset: 'SAPS police stations (afrith/sa-crime-stats)',
    date: '2014',
    licence: 'data licence not stated',
  },
  police_precincts: {
    file: 'crime/western_cape_precincts.geojson',
    dataset: 'SAPS police precincts, Western Cape (jonxpill/crime-data-viz)',
    date: '2020',
    licence: 'SAPS via DataFirst, CC-BY',
  },
  crime_series: {
    file: 'crime/saps_crime_by_station_2008_2023.csv',
    dataset: 'SAPS crime statistics per police station, via DataFirst (jonxpill/crime-data-viz)',
    date: '2008/09–2022/23',
    licence: 'CC-BY',
  },
  station_population: {
    file: 'crime/police_stations_2025_codes.csv',
    dataset: 'Police station areas with population (afrith/crime-stats)',
    date: '2025',
    licence: 'PDDL',
  },
  elevation_grid: {
    file: 'elevation/boland_etopo1_elevation_samples.csv',
    dataset: 'NOAA ETOPO1 Global Relief Model, 1 arc-minute (Boland extract)',
    date: '2009',
    licence: 'public domain',
  },
  rivers: {
    file: 'physical/za_rivers_lake_centerlines_ne10m_bbox.geojson',
    dataset: 'Natural Earth 1:10m rivers and lake centerlines',
    date: '1:10m v4.1 or later (2018+)',
    licence: 'public domain',
  },
  lakes: {
    file: 'physical/za_lakes_ne10m_bbox.geojson',
    dataset: 'Natural Earth 1:10m lakes and reservoirs',
    date: '1:10m v4.1 or later (2018+)',
    licence: 'public domain',
  },
  coastline: {
    file: 'physical/za_coastline_ne10m_bbox.geojson',
    dataset: 'Natural Earth 1:10m coastline',
    date: '1:10m v4.1 or later (2018+)',
    licence: 'public domain',
  },
  fire_stations: {
    file: 'capetown/cct_Fire_Stations.geojson',
    extraFiles: ['capetown/cct_Wards.geojson'],
    dataset: 'City of Cape Town open data: fire stations (coverage: the City’s 2021 wards)',
    date: 'undated City extract; wards 2021',
    licence: 'City of Cape Town open data',
  },
  soil_sites: {
    file: 'soil/za_afsp_soil_profiles_sites.geojson',
    extraFiles: ['soil/za_afsp_soil_profiles_horizons.csv'],
    dataset: 'Africa Soil Profiles Database v1.2 (ISRIC / AfSIS)',
    date: 'v1.2 (2014)',
    licence: 'ISRIC data policy (attribution)',
  },
};

/**
 * Stations the 2025 population list names differently from the SAPS series (renamed towns, province
 * suffixes): the population row's key → the series' key.
 */
export const POPULATION_KEY_ALIASES: Readonly<Record<string, string>> = {
  kariega: 'uitenhage',
  makhanda: 'grahamstown',
  kwanojoli: 'somerset east',
  nxuba: 'cradock',
  komani: 'queenstown',
  cacadu: 'lady frere',
  khowa: 'elliot',
  nqanqarhu: 'maclear',
  kwabhaca: 'mount frere',
  qonce: 'king william s town',
  'johannesburg central': 'jhb central',
  'heidelberg wc': 'heidelberg c',
  'richmond nc': 'richmond c',
  'middelburg mp': 'middelburg mpumalanga',
  'balfour mp': 'balfour tvl',
  'balfour ec': 'balfour',
  hilton: 'hilton kzn',
  mayville: 'mayville kzn',
  morgenzon: 'morgenzon transvaal',
  'king shaka intl airport': 'int airp king shaka',
  'or tambo intl airport': 'or tambo intern airp',
};
