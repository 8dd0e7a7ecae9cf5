/**
 * Floor sizes measured on the portal's imagery (issue 21): an area measured on a survey's ortho used as a
 * floor's size, a height read off an oblique turned into a storey count, and the footprints of the
 * buildings on the parcel at a survey offered as a report's first buildings ('Building Size Calculation').
 * A measured floor keeps where its size came from (FloorMeasurement) and stays editable: a size changed by
 * hand is flagged `edited` (the service sets the flag on every save, so no client can keep a measured mark
 * on a typed figure). The report builder's remote and its service (and the PDF) use these rules only.
 */
import { emptyBuilding, emptyFloor } from './editing';
import { type FloorMeasurement, type ReportBuilding, type ReportFloor, type ReportSections } from './types';

/** The storey height a building's height is divided by to count its storeys (metres). */
export const STOREY_HEIGHT_M = 3;

/**
 * Footprint kinds that are not buildings with floors: a swimming pool is an improvement of the property,
 * not floor area, so a 'Building Size Calculation' report never starts from one.
 */
export const NOT_A_BUILDING_KINDS: readonly string[] = ['pool'];
export const isBuildingFootprint = (kind: string): boolean => !NOT_A_BUILDING_KINDS.includes(kind);

/** A size within half a cent of a square metre of the measured value is still the measured value. */
const SAME_SIZE = 0.005;

/** An area as a floor size: m² to 2 decimals. */
export const measuredArea = (squareMetres: number): number => Math.round(squareMetres * 100) / 100;

/** Storeys of a building `heightM` tall: round(height / 3), at least 1 (a non-number gives 1). */
export function storeysFromHeight(heightM: number): number {
  if (!Number.isFinite(heightM) || heightM <= 0) return 1;
  return Math.max(1, Math.round(heightM / STOREY_HEIGHT_M));
}

/** What a floor size can be measured from: a measurement of the request, or a survey's building footprint. */
export interface MeasuredSource {
  kind: 'measurement' | 'footprint';
  /** The measurement's id, or the building's (geo.buildings) id for a footprint. */
  id: string;
  /** m². */
  areaM2: number;
  surveyId: number;
  /** YYYY-MM-DD. */
  capturedOn: string;
}

/** The FloorMeasurement a source gives a floor. */
export function floorMeasurementOf(source: MeasuredSource): FloorMeasurement {
  return {
    ...(source.kind === 'measurement' ? { measurementId: source.id } : { footprintId: source.id }),
    value: measuredArea(source.areaM2),
    surveyId: source.surveyId,
    capturedOn: source.capturedOn,
  };
}

/** The id a floor's measurement names ('m:…' for a measurement, 'f:…' for a footprint), or null. */
export function measuredSourceKey(measured: FloorMeasurement | null | undefined): string | null {
  if (!measured) return null;
  if (measured.measurementId) return `m:${measured.measurementId.toLowerCase()}`;
  if (measured.footprintId) return `f:${measured.footprintId}`;
  return null;
}

/** 'Use as floor size': the floor's size becomes the measured area, marked as measured. */
export const measuredFloor = (floor: ReportFloor, source: MeasuredSource): ReportFloor => {
  const measured = floorMeasurementOf(source);
  return { ...floor, size: measured.value, measured };
};

/** True when `size` is no longer the measured value (typed over, or cleared). */
export const differsFromMeasured = (size: number | null, measured: FloorMeasurement): boolean =>
  size === null || !Number.isFinite(size) || Math.abs(size - measured.value) >= SAME_SIZE;

/**
 * The floor with its `edited` flag as its size says: set when the size differs from the measured value,
 * dropped when it is the measured value again. A floor without a measurement is returned as it is.
 */
export function withMeasuredFlag(floor: ReportFloor): ReportFloor {
  const measured = floor.measured;
  if (!measured) return floor;
  const { edited: _edited, ...facts } = measured;
  return differsFromMeasured(floor.size, measured)
    ? { ...floor, measured: { ...facts, edited: true } }
    : { ...floor, measured: facts };
}

/** A floor's size typed by hand (a measured floor is flagged edited when the size differs). */
export const floorWithSize = (floor: ReportFloor, size: number | null): ReportFloor =>
  withMeasuredFlag({ ...floor, size });

/** Every floor of the sections with its `edited` flag set as its size says (what the service saves). */
export function withMeasuredFlags(sections: ReportSections): ReportSections {
  return Object.fromEntries(
    Object.entries(sections).map(([id, section]) => [
      id,
      {
        ...section,
        buildings: section.buildings.map((building) => ({
          ...building,
          floors: building.floors.map(withMeasuredFlag),
        })),
      },
    ]),
  );
}

/** The floor's size is the measured one (measured and not edited by hand since). */
export const isMeasuredSize = (floor: ReportFloor): boolean =>
  !!floor.measured && !floor.measured.edited && !differsFromMeasured(floor.size, floor.measured);

/**
 * The floors fitted to `storeys` (a height turned into storeys): cut to the count, or grown with copies of
 * the first measured floor (size, measurement) — a storey over a measured ground floor has its footprint —
 * or with empty floors when none is measured.
 */
export function floorsForStoreys(floors: readonly ReportFloor[], storeys: number): ReportFloor[] {
  const n = Math.max(0, Math.floor(storeys));
  const kept = floors.slice(0, n).map((floor) => ({ ...floor }));
  const model = floors.find(isMeasuredSize);
  while (kept.length < n)
    kept.push(model ? { ...emptyFloor(), size: model.size, measured: { ...model.measured! } } : emptyFloor());
  return kept;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/**
 * A capture date as the report prints it: '2019-03-14' → '14 Mar 2019' (a calendar date: no time zone
 * can move it to another day). Anything that is not YYYY-MM-DD is answered as it is.
 */
export function shortCaptureDate(isoDate: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(isoDate);
  const month = match ? MONTHS[Number(match[2]) - 1] : undefined;
  if (!match || !month) return isoDate;
  return `${Number(match[3])} ${month} ${match[1]}`;
}

/** What an image captured from the imagery says under it: 'Imagery captured 14 Mar 2019'. */
export const imageCaptureText = (capturedOn: string): string =>
  `Imagery captured ${shortCaptureDate(capturedOn)}`;

/**
 * What the report says of a floor's size (null for a typed one): 'measured on the 14 Mar 2019 survey',
 * 'footprint on the 14 Mar 2019 survey', or, edited by hand since, 'edited by hand (measured 182.4 m² on
 * the 14 Mar 2019 survey)'.
 */
export function measuredFloorText(floor: ReportFloor): string | null {
  const measured = floor.measured;
  if (!measured) return null;
  const survey = `the ${shortCaptureDate(measured.capturedOn)} survey`;
  const what = measured.footprintId && !measured.measurementId ? 'footprint' : 'measured';
  if (isMeasuredSize(floor)) return `${what} on ${survey}`;
  return `edited by hand (${what} ${measured.value} m² on ${survey})`;
}

/** A building footprint at a survey, as the locator answers it (SURVEY_API.buildings, SurveyBuilding). */
export interface Footprint {
  buildingId: string;
  kind: string;
  heightM: number;
  areaM2: number;
  /** The footprint's middle (lat, lng), where the building's marker starts. */
  centre?: { lat: number; lng: number } | null;
}

/** 'house' → 'House', 'swimming_pool' → 'Swimming pool'; blank → 'Building'. */
export function footprintKindName(kind: string): string {
  const words = kind.trim().replace(/[_-]+/g, ' ').toLowerCase();
  return words === '' ? 'Building' : words[0]!.toUpperCase() + words.slice(1);
}

/**
 * Names for footprints, unique among themselves and the names already `taken` (case-insensitively): the
 * kind's name, numbered from 2 when it is taken ('House', 'Outbuilding', 'Outbuilding 2').
 */
export function footprintNames(kinds: readonly string[], taken: readonly string[]): string[] {
  const used = new Set(taken.map((name) => name.trim().toLowerCase()));
  return kinds.map((kind) => {
    const base = footprintKindName(kind);
    let name = base;
    for (let n = 2; used.has(name.toLowerCase()); n += 1) name = `${base} ${n}`;
    used.add(name.toLowerCase());
    return name;
  });
}

/**
 * A report building from a survey's footprint: its storeys from its height (max(1, round(height / 3))),
 * each storey a floor of the footprint's area marked as measured (footprint, survey, capture date); rates
 * and classes are left for the QS to choose; priced by floor area.
 */
export function buildingFromFootprint(
  footprint: Footprint,
  survey: { id: number; capturedOn: string },
  name: string,
  markerNumber: number,
): ReportBuilding {
  const source: MeasuredSource = {
    kind: 'footprint',
    id: footprint.buildingId,
    areaM2: footprint.areaM2,
    surveyId: survey.id,
    capturedOn: survey.capturedOn,
  };
  const storeys = storeysFromHeight(footprint.heightM);
  return {
    ...emptyBuilding(
      name,
      footprint.centre
        ? { lat: footprint.centre.lat, lng: footprint.centre.lng, number: markerNumber }
        : null,
    ),
    floors: Array.from({ length: storeys }, (_, i) =>
      measuredFloor({ ...emptyFloor(), location: i === 0 ? 'Ground' : `Floor ${i + 1}` }, source),
    ),
    comment: `From the building footprint of the ${shortCaptureDate(survey.capturedOn)} survey.`,
  };
}
