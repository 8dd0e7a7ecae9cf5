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
}

/** A storey's height, for a building that has levels but no height. */
const STOREY_M = 3;

export function readBuilding(tags: Tags): OsmBuilding | undefined {
  const value = tags.building?.trim();
  if (!value || value === 'no') return undefined;
  const levelsTag = Number.parseFloat(tags['building:levels'] ?? '');
  const levels = Number.isFinite(levelsTag) && levelsTag >= 1 ? Math.min(Math.round(levelsTag), 200) : 1;
  const heightMatch = /^\s*(\d+(?:\.\d+)?)\s*(?:m|metres?|meters?)?\s*$/i.exec(tags.height ?? '');
  const height = heightMatch ? Number(heightMatch[1]) : undefined;
  return {
    kind: value === 'yes' ? 'building' : value,
    levels,
    heightM: height && height > 0 && height < 1000 ? height : levels * STOREY_M + 0.5,
    roof: tags['roof:shape'] === 'flat' ? 'flat' : 'pitched',
  };
}
