import {
  HIGH_RES_STATUS_NAMES,
  type CrimeData,
  type HighResStatus,
  type IrisReportData,
  type RiskClass,
  type WaterBody,
} from '@portal/contracts';
import {
  crimeSeriesSvg,
  elevationProfileSvg,
  escapeXml,
  financialYearLabel,
  formatDistance,
  formatNumber,
} from '@portal/charts';
import { formatSaLongDate, formatSast, riskClassColour } from '@portal/domain';

/** What the PDF shows besides the computed data. */
export interface IrisPdfInput {
  gripReference: string;
  address: string | null;
  data: IrisReportData;
  version: number;
  /** The chosen aerial picture as a data URL, or null (none chosen, imagery step timed out, or cleaned). */
  aerialDataUrl: string | null;
  aerialView: string | null;
  /** Issue 21: the capture date (YYYY-MM-DD) of the survey the aerial picture came from; null when unknown. */
  aerialCapturedOn: string | null;
  highResStatus: HighResStatus | null;
  /** When the PDF is made (ISO). */
  madeAt: string;
}

const esc = escapeXml;
// The screen's number formats (@portal/charts), so the PDF reads as the screen does: '437.1', '50 336', '1.2 km'.
const metres = (m: number | null | undefined) => (m === null || m === undefined ? '—' : formatDistance(m));
const decimal = (n: number | null | undefined, digits = 1) =>
  n === null || n === undefined ? '—' : formatNumber(n, Number.isInteger(n) ? 0 : digits);

const badge = (cls: RiskClass | null, text: string = cls ?? '') =>
  cls
    ? `<span class="badge" style="background:${riskClassColour(cls)}">${esc(text)}</span>`
    : '<span class="badge none">no class</span>';

const source = (s: { name: string; date: string; licence?: string }) =>
  `<p class="source">Source: ${esc(s.name)}${s.date ? `, ${esc(s.date)}` : ''}${s.licence ? ` (${esc(s.licence)})` : ''}.</p>`;

const unavailable = (text: string | null) => (text ? `<p class="unavailable">${esc(text)}</p>` : '');

/**
 * 'Captured 12 March 2024': the screens' words (web-kit's CaptureDate) and the portal's long date (a calendar
 * day read in SAST, never shifted a day); an unreadable date is printed as it came.
 */
export const capturedText = (capturedOn: string) => `Captured ${formatSaLongDate(capturedOn)}`;

const VIEW_NAMES: Record<string, string> = {
  o: 'ortho (top-down)',
  n: 'oblique from the north',
  e: 'oblique from the east',
  s: 'oblique from the south',
  w: 'oblique from the west',
};

function waterRows(bodies: WaterBody[]): string {
  if (bodies.length === 0) return '<tr><td colspan="5" class="muted">None in range.</td></tr>';
  return bodies
    .map(
      (b) => `<tr><td>${esc(b.name)}</td><td>${metres(b.distance)}</td><td>${badge(b.distanceClass)}</td>
        <td>${b.altitude === null ? '—' : `${decimal(b.altitude)} m`}</td><td>${badge(b.altitudeClass)}</td></tr>`,
    )
    .join('');
}

function latestFigure(crime: CrimeData, key: 'burglaryBusiness' | 'burglaryResidential' | 'maliciousDamage') {
  const series = crime[key];
  const last = [...series].sort((a, b) => b.yearTo - a.yearTo)[0];
  if (!last) return '—';
  const rate = last.rate === null ? '' : `, ${decimal(last.rate)} per 100 000 residents`;
  return `${formatNumber(last.count)} reported in ${financialYearLabel(last.yearTo)}${rate}`;
}

const CRIME_SERIES = [
  ['burglaryBusiness', 'Burglary at non-residential (business) premises'],
  ['burglaryResidential', 'Burglary at residential premises'],
  ['maliciousDamage', 'Malicious damage to property'],
] as const;

/**
 * The IRiS report as one self-contained HTML document for Chromium's print (A4): inline CSS, the charts as
 * inline SVG (@portal/charts, the same functions the screen uses), the aerial picture as a data URL — the
 * page loads nothing, so rendering needs no network. Every section names its source and says plainly when
 * there is no data.
 */
export function irisReportHtml(input: IrisPdfInput): string {
  const { data } = input;
  const { crimeData: crime, elevation, waterBodyData: water, fireServicesData: fire, soilData: soil } = data;
  const aerial = input.aerialDataUrl
    ? `<figure><img src="${input.aerialDataUrl}" alt="Aerial view"/><figcaption>Aerial view: ${esc(
        VIEW_NAMES[input.aerialView ?? ''] ?? input.aerialView,
      )}. ${input.aerialCapturedOn ? `${esc(capturedText(input.aerialCapturedOn))}.` : 'Capture date unknown.'} High-resolution oblique imagery of the point: ${esc(input.highResStatus === null ? 'not checked' : HIGH_RES_STATUS_NAMES[input.highResStatus])}.</figcaption></figure>`
    : `<p class="unavailable">No aerial picture in this report (high-resolution imagery: ${esc(
        input.highResStatus === null ? 'not checked' : HIGH_RES_STATUS_NAMES[input.highResStatus],
      )}).</p>`;

  const crimeCharts = crime.unavailable
    ? ''
    : CRIME_SERIES.map(([key, title]) =>
        crimeSeriesSvg(crime[key], { title, unit: crime.unit, width: 540, height: 190 }),
      ).join('');

  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"/><title>IRiS risk report ${esc(input.gripReference)}</title>
<style>
  body { font-family: 'DejaVu Sans', Arial, sans-serif; font-size: 10pt; color: #222; margin: 0; }
  h1 { font-size: 18pt; margin: 0 0 4pt; color: #0d47a1; }
  h2 { font-size: 13pt; margin: 14pt 0 6pt; color: #0d47a1; border-bottom: 1px solid #90caf9; padding-bottom: 2pt; }
  table { border-collapse: collapse; width: 100%; margin: 4pt 0; }
  th, td { text-align: left; padding: 3pt 5pt; border-bottom: 1px solid #e0e0e0; vertical-align: top; }
  th { background: #f5f5f5; }
  .meta td:first-child { width: 32%; color: #555; }
  .badge { display: inline-block; color: #fff; border-radius: 3pt; padding: 1pt 5pt; font-weight: bold; }
  .badge.none { background: #9e9e9e; }
  .source { color: #666; font-size: 8pt; margin: 3pt 0; }
  .unavailable { background: #fff8e1; border-left: 3pt solid #ffb300; padding: 4pt 6pt; }
  .muted { color: #777; }
  figure { margin: 6pt 0; text-align: center; } figure img { max-width: 100%; max-height: 300pt; }
  figcaption { font-size: 8pt; color: #555; }
  /* Sections flow across pages; a table or a chart is never cut in two. */
  h2, table, svg, figure { page-break-inside: avoid; }
  h2 { page-break-after: avoid; }
  svg { display: block; margin: 4pt 0; }
</style></head><body>
<h1>IRiS risk report</h1>
<table class="meta">
  <tr><td>GRiP reference</td><td>${esc(input.gripReference)}</td></tr>
  <tr><td>Address</td><td>${esc(input.address || '—')}</td></tr>
  <tr><td>Coordinates</td><td>${data.coordinates.lat.toFixed(6)}, ${data.coordinates.lng.toFixed(6)}</td></tr>
  <tr><td>Computed</td><td>${esc(formatSast(data.computedAt))}</td></tr>
  <tr><td>PDF made</td><td>${esc(formatSast(input.madeAt))} (version ${input.version})</td></tr>
</table>
${aerial}

<section><h2>Elevation</h2>
${unavailable(elevation.unavailable)}
${elevation.ele === null ? '' : `<p>Elevation of the property: <b>${decimal(elevation.ele)} m</b> above sea level.</p>`}
${elevation.unavailable ? '' : elevationProfileSvg(elevation.elevation_ns, elevation.ele, { title: 'North–south profile', negativeLabel: 'S', positiveLabel: 'N', width: 540, height: 200 })}
${elevation.unavailable ? '' : elevationProfileSvg(elevation.elevation_ew, elevation.ele, { title: 'East–west profile', negativeLabel: 'W', positiveLabel: 'E', width: 540, height: 200 })}
${source(elevation.source)}
</section>

<section><h2>Crime</h2>
${unavailable(crime.unavailable)}
${
  crime.precinctName
    ? `<p>Police precinct: <b>${esc(crime.precinctName)}</b> (${esc(
        crime.match === 'precinct'
          ? `the property lies in this precinct${crime.stationDistance === null ? '' : `; its police station is ${metres(crime.stationDistance)} away`}`
          : `nearest station, ${metres(crime.stationDistance)} away`,
      )})${crime.population ? `; residents: ${formatNumber(crime.population)}` : ''}.</p>
      <table><tr><th>Series</th><th>Latest year</th></tr>
      ${CRIME_SERIES.map(([key, title]) => `<tr><td>${esc(title)}</td><td>${esc(latestFigure(crime, key))}</td></tr>`).join('')}
      </table><p class="muted">Rates: ${esc(crime.unit)}.</p>`
    : ''
}
${crimeCharts}
${source(crime.source)}
</section>

<section><h2>Water bodies</h2>
${
  water.unavailable
    ? unavailable(water.unavailable)
    : `<p>Water within ${metres(water.range)} of the property. Overall: ${water.overallClass ? badge(water.overallClass) : 'no water in range'}.</p>
<table><tr><th>Name</th><th>Distance</th><th>Distance class</th><th>Altitude</th><th>Altitude class</th></tr>
<tr><th colspan="5">Lakes and dams</th></tr>${waterRows(water.waterBodiesInRange)}
<tr><th colspan="5">Rivers</th></tr>${waterRows(water.riversInRange)}
<tr><th colspan="5">Coast</th></tr>${waterRows(water.coastInRange)}
</table>`
}
${source(water.source)}
</section>

<section><h2>Fire services</h2>
${unavailable(fire.unavailable)}
${fire.closestFire ? `<p>Closest fire station: <b>${esc(fire.closestFire.name)}</b>, ${metres(fire.closestFire.distance)} away.</p>` : ''}
${source(fire.source)}
</section>

<section><h2>Soil</h2>
${unavailable(soil.unavailable)}
${
  soil.s6Value === null && soil.s11Value === null
    ? ''
    : `<table><tr><td>s6 value</td><td>${decimal(soil.s6Value)}</td></tr><tr><td>s11 value</td><td>${decimal(soil.s11Value)}</td></tr>
       <tr><td>Soil class</td><td>${soil.dangerous === null ? '—' : soil.dangerous ? badge('dangerous', 'Dangerous') : badge('safe', 'Not dangerous')}</td></tr>
       ${soil.site ? `<tr><td>Profile site</td><td>${esc(soil.site.id)}${soil.site.classification ? `, ${esc(soil.site.classification)}` : ''}${soil.site.drainage ? `, drainage ${esc(soil.site.drainage)}` : ''}; ${metres(soil.site.distance)} away</td></tr>` : ''}
       </table>`
}
<p class="muted">${esc(soil.method)}</p>
${source(soil.source)}
</section>
</body></html>`;
}
