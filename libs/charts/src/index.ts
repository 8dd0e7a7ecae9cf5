/**
 * @portal/charts: the IRiS report's charts as SVG strings (spec 03 §2 "elevation charts, crime charts").
 * Pure functions, no DOM and no React: the screen (mf-iris) puts them in the page, the PDF worker in its
 * HTML template, and both get the same bytes for the same data.
 */
export {
  elevationProfileSvg,
  REFERENCE_HALF_SPAN_M,
  ELEVATION_TEXT,
  type ElevationChartOptions,
} from './elevation';
export { dailyCountsSvg, DAILY_TEXT, type DailyChartOptions, type DailyCount } from './daily';
export { crimeSeriesSvg, financialYearLabel, CRIME_TEXT, type CrimeChartOptions } from './crime';
export { escapeXml, formatNumber, niceDomain } from './svg';
export { axisUnit, formatCoordinate, formatDistance, formatMetres } from './format';
export {
  stackedBarsSvg,
  lineSeriesSvg,
  groupedBarsSvg,
  shortDayLabel,
  SERIES_COLOURS,
  BAR_TEXT,
  type ChartSeries,
  type SeriesChartOptions,
  type BarRow,
  type BarChartOptions,
} from './series';
