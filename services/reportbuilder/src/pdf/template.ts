import { escapeXml } from '@portal/charts';
import {
  imageCaptureText,
  isMeasuredSize,
  measuredFloorText,
  formatMoney,
  fromCents,
  improvementValueCents,
  parseAmount,
  pricingOf,
  sectionCategory,
  type ReportSections,
  type ReportTotals,
  type TotalsSettings,
} from '@portal/domain';

/**
 * The SAVi report as one self-contained HTML document (inline CSS, images as data URLs: the page loads
 * nothing) for libs/pdf-jobs to print: a cover with the property image, GRiP reference, address and group;
 * a section summary; each section with its image, buildings (category, type, class, construction type,
 * floors, area, rate, value, their improvements) and improvements; the rates used; the totals (subtotal,
 * extra field, professional fee, VAT, grand total); the note and comments. Every figure comes from libs/domain
 * reportTotals (the screen's totals) and is written with formatMoney, so the PDF and the screen agree.
 * Issue 21: a building with a floor measured on the imagery lists its floors, each measured size with the
 * capture date of its survey ('measured on the 14 Mar 2019 survey'), and a picture captured from the imagery
 * carries its capture date.
 */

export interface SaviPdfInput {
  gripReference: string;
  /** The report's address (location) and its suburb, town or city line. */
  location: string;
  suburbTownCity: string;
  groupName: string;
  sections: ReportSections;
  totals: ReportTotals;
  settings: TotalsSettings;
  extraField: { include: boolean; description: string };
  note: string;
  comments: string;
  version: number;
  /** The property's cropped image as a data URL, or null. */
  propertyImage: string | null;
  /** Section id → its cropped image as a data URL (sections with includeImage and a stored image). */
  sectionImages: Record<string, string>;
  /**
   * Issue 21: the capture dates (YYYY-MM-DD) of the images captured from the portal's imagery — the
   * property's, and the sections' by id — printed under each picture. Absent: not from the imagery.
   */
  propertyImageCapturedOn?: string | null;
  sectionImagesCapturedOn?: Record<string, string>;
  /** When the PDF is made, as the reader sees it (e.g. '3 March 2025'). */
  madeOn: string;
}

const esc = escapeXml;

/** Rand amounts as the screen writes them (spec 02 §4.5: 2 decimals, en-US). */
export const rand = (value: number) => `R ${formatMoney(value)}`;
const rateText = (rate: unknown) => {
  const amount = parseAmount(rate as string | number | null);
  return amount === null ? '—' : rand(amount);
};
const dash = (text: string | null | undefined) => (text && text.trim() !== '' ? esc(text) : '—');
const percent = (value: number) => `${formatMoney(value).replace(/\.00$/, '')} %`;
const paragraphs = (text: string) =>
  text.trim() === ''
    ? '<p class="muted">None.</p>'
    : text
        .trim()
        .split(/\n{2,}/)
        .map((p) => `<p>${esc(p).replace(/\n/g, '<br>')}</p>`)
        .join('');

const CSS = `
  @page { size: A4; }
  * { box-sizing: border-box; }
  body { font-family: 'DejaVu Sans', Arial, sans-serif; font-size: 9pt; color: #1d2733; margin: 0; }
  h1 { font-size: 20pt; margin: 0 0 4mm; color: #0b4f71; }
  h2 { font-size: 13pt; margin: 0 0 3mm; color: #0b4f71; border-bottom: 1px solid #0b4f71; padding-bottom: 1mm; }
  h3 { font-size: 10.5pt; margin: 4mm 0 2mm; }
  .cover { page-break-after: always; }
  .cover dl { display: grid; grid-template-columns: 35mm 1fr; gap: 1.5mm 4mm; margin: 6mm 0; font-size: 11pt; }
  .cover dt { color: #5b6b7a; }
  .cover dd { margin: 0; font-weight: bold; }
  .cover img, .section img.picture { width: 100%; max-height: 120mm; object-fit: contain; border: 1px solid #c9d3dc; }
  .section { page-break-before: always; }
  .section img.picture { max-height: 95mm; margin-bottom: 3mm; }
  table { width: 100%; border-collapse: collapse; margin: 2mm 0 4mm; page-break-inside: auto; }
  tr { page-break-inside: avoid; }
  th, td { border-bottom: 1px solid #dde3e8; padding: 1.2mm 1.5mm; text-align: left; vertical-align: top; }
  th { background: #eef3f7; font-size: 8pt; }
  td.n, th.n { text-align: right; white-space: nowrap; }
  tr.sub td { color: #4a5966; font-size: 8pt; }
  tr.sub td:first-child { padding-left: 5mm; }
  tr.total td { font-weight: bold; border-top: 1.5px solid #1d2733; }
  tr.grand td { font-weight: bold; font-size: 11pt; background: #eef3f7; }
  .muted { color: #7a8894; }
  .comment { font-style: italic; color: #4a5966; }
  .block { page-break-inside: avoid; margin-top: 6mm; }
  .captured { font-size: 8pt; color: #4a5966; margin: -2mm 0 3mm; }
  tr.floors td { color: #4a5966; font-size: 8pt; padding-left: 5mm; }
`;

/** Under a picture from the imagery: 'Imagery captured 14 Mar 2019' (nothing for another picture). */
const capturedLine = (capturedOn: string | null | undefined) =>
  capturedOn ? `<p class="captured">${esc(imageCaptureText(capturedOn))}</p>` : '';

/**
 * A building's floors when one was measured on the imagery: each floor's size, the measured ones with their
 * survey's capture date (a size typed over since says so). Nothing when no floor was measured.
 */
function measuredFloorsRow(building: ReportSections[string]['buildings'][number]): string {
  if (!building.floors.some((floor) => floor.measured)) return '';
  const floors = building.floors
    .map((floor, i) => {
      const name = floor.location.trim() ? esc(floor.location.trim()) : `Floor ${i + 1}`;
      const size = floor.size === null ? '—' : `${formatMoney(floor.size)} m²`;
      const note = measuredFloorText(floor);
      const how = note ? ` (${esc(note)})` : '';
      return `<span class="${isMeasuredSize(floor) ? 'measured' : 'typed'}">${name}: ${size}${how}</span>`;
    })
    .join('; ');
  return `<tr class="floors"><td colspan="9">Floors: ${floors}</td></tr>`;
}

function buildingRows(sectionId: string, input: SaviPdfInput): string {
  const section = input.sections[sectionId]!;
  const totals = input.totals.sections[sectionId];
  if (section.buildings.length === 0) return '';
  const rows = section.buildings
    .map((building, index) => {
      const figures = totals?.buildings[index];
      const floors = building.floors.length;
      const byArea = pricingOf(building.unit) === 'area';
      const quantity = byArea
        ? `${formatMoney(figures?.area ?? 0)} m²`
        : `${building.numberOfUnits ?? 0} ${esc(building.unit)}`;
      const improvements = building.improvements
        .map(
          (
            item,
          ) => `<tr class="sub"><td>${esc(item.name)}</td><td>${dash(item.category)}</td><td>${dash(item.type)}</td>
            <td>${dash(item.class)}</td><td></td><td></td><td class="n">${item.numberOfUnits ?? 0}${item.unit ? ` ${esc(item.unit)}` : ''}</td>
            <td class="n">${rateText(item.rate)}</td><td class="n">${rand(fromCents(improvementValueCents(item)))}</td></tr>`,
        )
        .join('');
      return `<tr><td><b>${esc(building.name)}</b>${building.comment ? `<div class="comment">${esc(building.comment)}</div>` : ''}</td>
        <td>${dash(building.category)}</td><td>${dash(building.type)}</td><td>${dash(building.class)}</td>
        <td>${dash(building.constructionType)}</td><td class="n">${floors}</td><td class="n">${quantity}</td>
        <td class="n">${rateText(building.rate)}</td><td class="n">${rand(figures?.value ?? 0)}</td></tr>${measuredFloorsRow(building)}${improvements}`;
    })
    .join('');
  return `<h3>Buildings</h3><table><thead><tr><th>Building</th><th>Category</th><th>Type</th><th>Class</th>
    <th>Construction type</th><th class="n">Floors</th><th class="n">Area / units</th><th class="n">Rate</th>
    <th class="n">Value</th></tr></thead><tbody>${rows}</tbody></table>`;
}

function improvementRows(sectionId: string, input: SaviPdfInput): string {
  const section = input.sections[sectionId]!;
  const values = input.totals.sections[sectionId]?.improvements ?? [];
  if (section.improvements.length === 0) return '';
  const rows = section.improvements
    .map(
      (
        item,
        index,
      ) => `<tr><td>${esc(item.name)}</td><td>${dash(item.category)}</td><td>${dash(item.type)}</td>
        <td>${dash(item.class)}</td><td class="n">${item.numberOfUnits ?? 0}${item.unit ? ` ${esc(item.unit)}` : ''}</td>
        <td class="n">${rateText(item.rate)}</td><td class="n">${rand(values[index] ?? 0)}</td></tr>`,
    )
    .join('');
  return `<h3>Improvements</h3><table><thead><tr><th>Improvement</th><th>Category</th><th>Type</th><th>Class</th>
    <th class="n">Units</th><th class="n">Rate</th><th class="n">Value</th></tr></thead><tbody>${rows}</tbody></table>`;
}

/** The rates the report uses: one row per category, type, class and rate (the group's rate table as applied). */
function rateRows(input: SaviPdfInput): string {
  const seen = new Map<string, string>();
  const add = (item: { category: string; type: string; class: string; rate: unknown; unit?: string }) => {
    const amount = parseAmount(item.rate as string | number | null);
    if (amount === null) return;
    const key = [item.category, item.type, item.class, item.unit ?? '', amount].join('\u0000');
    if (!seen.has(key))
      seen.set(
        key,
        `<tr><td>${dash(item.category)}</td><td>${dash(item.type)}</td><td>${dash(item.class)}</td>
          <td>${pricingOf(item.unit) === 'area' ? 'per m²' : `per ${esc(item.unit)}`}</td><td class="n">${rand(amount)}</td></tr>`,
      );
  };
  for (const section of Object.values(input.sections)) {
    for (const building of section.buildings) {
      add(building);
      building.improvements.forEach((item) => add({ ...item, unit: item.unit || 'unit' }));
    }
    section.improvements.forEach((item) => add({ ...item, unit: item.unit || 'unit' }));
  }
  if (seen.size === 0) return '';
  return `<div class="block"><h2>Rates used</h2><table><thead><tr><th>Category</th><th>Type</th><th>Class</th>
    <th>Unit</th><th class="n">Rate</th></tr></thead><tbody>${[...seen.values()].join('')}</tbody></table></div>`;
}

function totalsTable(input: SaviPdfInput): string {
  const { totals, settings } = input;
  const sectionsSum =
    Object.values(totals.sections).reduce((sum, s) => sum + Math.round(s.subtotal * 100), 0) / 100;
  const extra = input.extraField.include
    ? `<tr><td>${esc(input.extraField.description || 'Extra field')}</td><td class="n">${rand(totals.extraField)}</td></tr>`
    : '';
  const fee = settings.includeProfessionalFee
    ? `Professional fee (${percent(settings.professionalFeePercentage)})`
    : 'Professional fee (not included)';
  const vat = settings.includeVAT ? `VAT (${percent(settings.vatPercentage)})` : 'VAT (not included)';
  return `<div class="block"><h2>Totals</h2><table class="totals"><tbody>
    <tr><td>Sections</td><td class="n">${rand(sectionsSum)}</td></tr>
    ${extra}
    <tr class="total"><td>Subtotal</td><td class="n">${rand(totals.subtotal)}</td></tr>
    <tr><td>${fee}</td><td class="n">${rand(totals.professionalFee)}</td></tr>
    <tr><td>${vat}</td><td class="n">${rand(totals.vat)}</td></tr>
    <tr class="grand"><td>Grand total (replacement value)</td><td class="n">${rand(totals.grandTotal)}</td></tr>
  </tbody></table></div>`;
}

export function saviReportHtml(input: SaviPdfInput): string {
  const ids = Object.keys(input.sections);
  const summary = ids
    .map((id, index) => {
      const section = input.sections[id]!;
      return `<tr><td>${index + 1}</td><td>${esc(section.name)}</td><td>${esc(sectionCategory(section.type))}</td>
        <td class="n">${section.buildings.length}</td><td class="n">${section.improvements.length}</td>
        <td class="n">${rand(input.totals.sections[id]?.subtotal ?? 0)}</td></tr>`;
    })
    .join('');
  const sections = ids
    .map((id, index) => {
      const section = input.sections[id]!;
      const image = input.sectionImages[id];
      return `<section class="section">
        <h2>Section ${index + 1}: ${esc(section.name)}</h2>
        <p>Category: <b>${esc(sectionCategory(section.type))}</b></p>
        ${image ? `<img class="picture" src="${image}" alt="Section ${index + 1}">${capturedLine(input.sectionImagesCapturedOn?.[id])}` : ''}
        ${section.comment ? `<p class="comment">${esc(section.comment)}</p>` : ''}
        ${buildingRows(id, input)}
        ${improvementRows(id, input)}
        ${section.buildings.length === 0 && section.improvements.length === 0 ? '<p class="muted">No buildings or improvements.</p>' : ''}
        <table><tbody><tr class="total"><td>Section subtotal</td><td class="n">${rand(input.totals.sections[id]?.subtotal ?? 0)}</td></tr></tbody></table>
      </section>`;
    })
    .join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>SAVi report ${esc(input.gripReference)}</title>
  <style>${CSS}</style></head><body>
  <section class="cover">
    <h1>Replacement value report</h1>
    <dl>
      <dt>GRiP reference</dt><dd>${esc(input.gripReference)}</dd>
      <dt>Address</dt><dd>${dash(input.location)}${input.suburbTownCity ? `<br>${esc(input.suburbTownCity)}` : ''}</dd>
      <dt>Group</dt><dd>${dash(input.groupName)}</dd>
      <dt>Date</dt><dd>${esc(input.madeOn)}</dd>
      <dt>Report version</dt><dd>${input.version}</dd>
      <dt>Replacement value</dt><dd>${rand(input.totals.grandTotal)}</dd>
    </dl>
    ${input.propertyImage ? `<img src="${input.propertyImage}" alt="The property">${capturedLine(input.propertyImageCapturedOn)}` : '<p class="muted">No property image.</p>'}
  </section>
  <section>
    <h2>Summary</h2>
    <table><thead><tr><th>#</th><th>Section</th><th>Category</th><th class="n">Buildings</th><th class="n">Improvements</th>
      <th class="n">Subtotal</th></tr></thead><tbody>${summary || '<tr><td colspan="6" class="muted">No sections.</td></tr>'}</tbody></table>
    ${totalsTable(input)}
    <div class="block"><h2>Notes</h2>${paragraphs(input.note)}</div>
    <div class="block"><h2>Comments</h2>${paragraphs(input.comments)}</div>
  </section>
  ${sections}
  ${rateRows(input)}
  </body></html>`;
}
