import { padPostalCode } from '../text';

/**
 * What OpenStreetMap tags say, in the portal's terms: addresses (addr:*), POIs, places, farms, buildings.
 * Tag conventions: https://wiki.openstreetmap.org/wiki/Key:addr:*, Key:place, Key:building.
 */
export type Tags = Record<string, string>;

export const ADDRESS_TAGS = [
  'addr:housenumber',
  'addr:street',
  'addr:unit',
  'addr:suburb',
  'addr:neighbourhood',
  'addr:city',
  'addr:town',
  'addr:municipality',
  'addr:postcode',
  'addr:interpolation',
] as const;
/** Lifecycle prefixes of a building that is gone (https://wiki.openstreetmap.org/wiki/Lifecycle_prefix). */
export const LIFECYCLE_BUILDING_KEYS = ['demolished:building', 'removed:building', 'was:building'] as const;
export const POI_KEYS = ['amenity', 'shop', 'tourism', 'leisure', 'office', 'healthcare'] as const;
/** The only tags the parser keeps (the rest are dropped while decoding: less garbage to collect). */
export const WANTED_TAGS = [
  ...ADDRESS_TAGS,
  ...POI_KEYS,
  'name',
  'place',
  'population',
  'landuse',
  'ref',
  'building',
  'building:levels',
  'height',
  'roof:shape',
  ...LIFECYCLE_BUILDING_KEYS,
  'start_date',
  'end_date',
];

export interface OsmAddress {
  houseNumber: string;
  numberValue: number | null;
  street: string;
  unit: string | null;
  suburb: string;
  town: string;
  postalCode: string | null;
  /** addr:postcode was there but is not a South African code. */
  badPostcode: boolean;
}

/** Has the element address tags at all (then it is an address, or a rejected one). */
export function hasAddress(tags: Tags): boolean {
  return tags['addr:housenumber'] !== undefined || tags['addr:street'] !== undefined;
}

/** The address of an element with address tags, or the reason it is not one. */
export function readAddress(tags: Tags): OsmAddress | string {
  if (tags['addr:interpolation']) return 'address interpolation line (not imported)';
  const houseNumber = tags['addr:housenumber']?.trim();
  const street = tags['addr:street']?.trim();
  if (!street) return 'missing street';
  if (!houseNumber) return 'missing house number';
  const digits = /\d+/.exec(houseNumber);
  const postcode = tags['addr:postcode']?.trim();
  const postalCode = postcode ? (padPostalCode(postcode) ?? null) : null;
  return {
    houseNumber,
    numberValue: digits ? Math.min(Number(digits[0]), 2_147_483_647) : null,
    street,
    unit: tags['addr:unit']?.trim() || null,
    suburb: (tags['addr:suburb'] ?? tags['addr:neighbourhood'] ?? '').trim(),
    town: (tags['addr:city'] ?? tags['addr:town'] ?? tags['addr:municipality'] ?? '').trim(),
    postalCode,
    badPostcode: Boolean(postcode) && !postalCode,
  };
}

/** Categories a search ranks higher (between equally good matches). */
const POI_IMPORTANCE: Record<string, number> = {
  hospital: 0.6,
  university: 0.6,
  college: 0.5,
  mall: 0.5,
  school: 0.45,
  clinic: 0.45,
  police: 0.45,
  fire_station: 0.45,
  townhall: 0.45,
  supermarket: 0.4,
};

export interface OsmPoi {
  name: string;
  category: string;
  importance: number;
}

/** A named amenity, shop, tourism, leisure, office or healthcare feature; undefined otherwise. */
export function readPoi(tags: Tags): OsmPoi | undefined {
  const name = tags.name?.trim();
  if (!name) return undefined;
  for (const key of POI_KEYS) {
    const value = tags[key]?.trim();
    if (!value || value === 'no') continue;
    const category = value === 'yes' ? key : value;
    return { name, category, importance: POI_IMPORTANCE[category] ?? 0.3 };
  }
  return undefined;
}

export type OsmPlaceKind = 'town' | 'suburb';
const PLACE_KINDS: Record<string, OsmPlaceKind> = {
  city: 'town',
  town: 'town',
  village: 'town',
  suburb: 'suburb',
  neighbourhood: 'suburb',
};

/** place=city/town/village → town, suburb/neighbourhood → suburb; undefined for other place values. */
export function placeKindOf(tags: Tags): OsmPlaceKind | undefined {
  return tags.place ? PLACE_KINDS[tags.place] : undefined;
}

/** population=12 345 / 12,345 / 12345 → 12345; 0 when absent or not a number. */
export function readPopulation(tags: Tags): number {
  const digits = tags.population?.replace(/[\s,.]/g, '');
  return digits && /^\d{1,10}$/.test(digits) ? Math.min(Number(digits), 2_147_483_647) : 0;
}

export function isFarm(tags: Tags): boolean {
  return tags.place === 'farm' || tags.landuse === 'farmland' || tags.landuse === 'farmyard';
}

export interface OsmBuilding {
  kind: string;
  levels: number;
  heightM: number;
  roof: 'flat' | 'pitched';
  /** From start_date: when it was built (null: not said, taken as standing before any survey). */
  builtOn: string | null;
  /** From end_date: when it was pulled down (null: standing). */
  demolishedOn: string | null;
  /** What was wrong with its dates (they are left out then), for the import's warnings. */
  dateWarning?: string;
}

/**
 * An OSM date as a day: start_date/end_date are ISO 8601, 'YYYY', 'YYYY-MM' or 'YYYY-MM-DD'; a year or
 * month is taken as its first day. Approximations ('~1950', '1990s', 'before 1900', 'C19') are undefined.
 */
export function osmDay(value: string | undefined): string | undefined {
  const match = /^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?$/.exec(value?.trim() ?? '');
  if (!match) return undefined;
  const [year, month = 1, day = 1] = match
    .slice(1)
    .map((part) => (part ? Number(part) : undefined)) as number[];
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return undefined;
  return date.toISOString().slice(0, 10);
}

/** A building's dates from start_date and end_date, or a warning and none when they cannot both be true. */
function buildingDates(tags: Tags): Pick<OsmBuilding, 'builtOn' | 'demolishedOn' | 'dateWarning'> {
  const builtOn = osmDay(tags.start_date);
  const demolishedOn = osmDay(tags.end_date);
  let dateWarning: string | undefined;
  if (tags.start_date && !builtOn)
    dateWarning = 'start_date not a date (YYYY, YYYY-MM or YYYY-MM-DD), left out';
  if (tags.end_date && !demolishedOn)
    dateWarning = 'end_date not a date (YYYY, YYYY-MM or YYYY-MM-DD), left out';
  if (builtOn && demolishedOn && demolishedOn <= builtOn) {
    return {
      builtOn: null,
      demolishedOn: null,
      dateWarning: 'end_date not after start_date, dates left out',
    };
  }
  return { builtOn: builtOn ?? null, demolishedOn: demolishedOn ?? null, dateWarning };
}

/** A storey's height, for a building that has levels but no height. */
const STOREY_M = 3;

/**
 * A building=* way (with its dates), or one that is gone — demolished:building, removed:building or
 * was:building — when its end_date says since when; undefined otherwise.
 */
export function readBuilding(tags: Tags): OsmBuilding | undefined {
  let value = tags.building?.trim();
  const dates = buildingDates(tags);
  if (!value || value === 'no') {
    const gone = LIFECYCLE_BUILDING_KEYS.map((key) => tags[key]?.trim()).find(
      (kind) => kind && kind !== 'no',
    );
    // Gone since when? Without a usable end_date it is not a building of any survey's date.
    if (!gone || !dates.demolishedOn) return undefined;
    value = gone;
  }
  const levelsTag = Number.parseFloat(tags['building:levels'] ?? '');
  const levels = Number.isFinite(levelsTag) && levelsTag >= 1 ? Math.min(Math.round(levelsTag), 200) : 1;
  const heightMatch = /^\s*(\d+(?:\.\d+)?)\s*(?:m|metres?|meters?)?\s*$/i.exec(tags.height ?? '');
  const height = heightMatch ? Number(heightMatch[1]) : undefined;
  return {
    kind: value === 'yes' ? 'building' : value,
    levels,
    heightM: height && height > 0 && height < 1000 ? height : levels * STOREY_M + 0.5,
    roof: tags['roof:shape'] === 'flat' ? 'flat' : 'pitched',
    ...dates,
  };
}
