/**
 * Imagery surveys over a town, 2014–2026 (issue 21): each row of geo.imagery_coverage is one survey with
 * its capture date, kind and coverage polygon (provider 'Portal imagery': the locator's renderer draws them).
 *
 * - Ortho mosaics every 2–3 years from 2014–2016 on. The newest covers the whole town and a 1.5 km margin;
 *   an older one now and then (35 %) only the inner town (the cells within 60 % of its reach, 500 m margin).
 * - High-resolution flights (ortho and obliques) over the core (the cells within half the reach) of the towns
 *   that have them, every 2–4 years back from the newest, which is flown after the newest mosaic; an older
 *   flight now and then (40 %) over a smaller core (a third of the reach).
 * - A town with coverage 'none' has no survey.
 *
 * So the newest survey of each kind covers what the single coverage row of each kind covered before surveys
 * had dates, and the newest survey at a core point is a high-resolution flight, as before. Captures are in
 * March to October (the dry months over most of the country), never after October 2026.
 */
import { type Batch, GENERATOR_PROVIDER, GENERATOR_SOURCE } from '../batch';
import { multiPolygonEwkb } from '../ewkb';
import { Random } from '../random';
import { toLat, toLon } from '../world';
import { type Cell, CELL_M, type CoverageState, pad, type TownSite } from './context';

export const FIRST_SURVEY_YEAR = 2014;
export const LAST_SURVEY_YEAR = 2026;

/** Which part of the town a survey covers. */
export type SurveyExtent = 'town' | 'inner town' | 'core' | 'inner core';

export interface SurveyPlan {
  kind: 'ortho' | 'high_resolution';
  capturedOn: string;
  extent: SurveyExtent;
}

interface Day {
  year: number;
  month: number;
  day: number;
}

const iso = ({ year, month, day }: Day) => `${year}-${pad(month, 2)}-${pad(day, 2)}`;

/** The surveys of a town, oldest first per kind (ortho mosaics, then high-resolution flights). */
export function planSurveys(seed: string, townId: number, coverage: CoverageState): SurveyPlan[] {
  if (coverage === 'none') return [];
  const random = Random.of(seed, 'surveys', townId);
  const dayIn = (year: number, months: [number, number]): Day => ({
    year,
    month: random.int(...months),
    day: random.int(1, 28),
  });

  const orthos: Day[] = [];
  for (let year = FIRST_SURVEY_YEAR + random.int(0, 2); year <= LAST_SURVEY_YEAR; year += random.int(2, 3))
    orthos.push(dayIn(year, [3, 9]));
  const plans: SurveyPlan[] = orthos.map((day, i) => ({
    kind: 'ortho',
    capturedOn: iso(day),
    extent: i === orthos.length - 1 || random.chance(0.65) ? 'town' : 'inner town',
  }));
  if (coverage !== 'high_resolution') return plans;

  // The newest flight after the newest mosaic (the same year: a later month), the older ones back from it.
  const lastOrtho = orthos[orthos.length - 1];
  const lastYear = random.int(lastOrtho.year, LAST_SURVEY_YEAR);
  const flights = [dayIn(lastYear, [lastYear === lastOrtho.year ? lastOrtho.month + 1 : 3, 10])];
  for (let year = lastYear - random.int(2, 4); year >= FIRST_SURVEY_YEAR; year -= random.int(2, 4))
    flights.unshift(dayIn(year, [3, 10]));
  flights.forEach((day, i) =>
    plans.push({
      kind: 'high_resolution',
      capturedOn: iso(day),
      extent: i === flights.length - 1 || random.chance(0.6) ? 'core' : 'inner core',
    }),
  );
  return plans;
}

export function layOutCoverage(batch: Batch, site: TownSite): void {
  const { accepted, frame, id } = site;
  if (accepted.length === 0) return;
  const box = (cells: Cell[], margin: number) => {
    const x0 = Math.min(...cells.map((cell) => cell.x)) - CELL_M / 2 - margin;
    const x1 = Math.max(...cells.map((cell) => cell.x)) + CELL_M / 2 + margin;
    const y0 = Math.min(...cells.map((cell) => cell.y)) - CELL_M / 2 - margin;
    const y1 = Math.max(...cells.map((cell) => cell.y)) + CELL_M / 2 + margin;
    return [x0, y0, x1, y0, x1, y1, x0, y1].map((value, i) =>
      i % 2 === 0 ? toLon(frame, value) : toLat(frame, value),
    );
  };
  const reach = Math.max(...accepted.map((cell) => Math.hypot(cell.x, cell.y)));
  const distance = (cell: Cell) => Math.hypot(cell.x, cell.y);
  const nearest = accepted.reduce((best, cell) => (distance(cell) < distance(best) ? cell : best));
  // At least the cell nearest the centre (a town whose centre cell is in the sea has none at 0 m).
  const within = (share: number) => {
    const cells = accepted.filter((cell) => distance(cell) <= reach * share);
    return cells.length ? cells : [nearest];
  };
  const extents: Record<SurveyExtent, () => number[]> = {
    town: () => box(accepted, 1500),
    'inner town': () => box(within(0.6), 500),
    core: () => box(within(0.5), 0),
    'inner core': () => box(within(1 / 3), 0),
  };
  for (const survey of planSurveys(site.context.seed, id, site.context.coverage)) {
    const year = survey.capturedOn.slice(0, 4);
    const name =
      survey.kind === 'ortho'
        ? `${site.name} ortho mosaic ${year}`
        : `${site.name} high-resolution flight ${year}`;
    batch.coverage.push([
      survey.kind,
      name,
      survey.capturedOn,
      multiPolygonEwkb([[extents[survey.extent]()]]),
      GENERATOR_SOURCE,
      `${survey.kind}:${id}:${year}`,
      GENERATOR_PROVIDER,
    ]);
  }
}
