/**
 * How addresses and names are written and compared. The generator and the importers store a street's
 * search text through normaliseForSearch, and the address service normalises each query the same way, so
 * "12 Church St, Stellies" and "12 church street stellenbosch" meet on the same words.
 */

/**
 * Abbreviations of street types and address words, English and Afrikaans, each to its one written-out
 * form. Both sides are expanded, so an ambiguous token ("st" as in "St James") is expanded on both and
 * still matches.
 */
export const ABBREVIATIONS: Readonly<Record<string, string>> = {
  st: 'street',
  str: 'street',
  rd: 'road',
  ave: 'avenue',
  av: 'avenue',
  avn: 'avenue',
  dr: 'drive',
  drv: 'drive',
  cres: 'crescent',
  cr: 'crescent',
  ln: 'lane',
  pl: 'place',
  cl: 'close',
  ct: 'court',
  crt: 'court',
  blvd: 'boulevard',
  bvd: 'boulevard',
  hwy: 'highway',
  sq: 'square',
  tce: 'terrace',
  terr: 'terrace',
  wy: 'way',
  cir: 'circle',
  ext: 'extension',
  extn: 'extension',
  mt: 'mount',
  nth: 'north',
  sth: 'south',
  est: 'estate',
  ctr: 'centre',
  cntr: 'centre',
  center: 'centre',
  hosp: 'hospital',
  prim: 'primary',
  sec: 'secondary',
  // Afrikaans street types, to their English form (street names are stored as signposted, both spellings occur).
  straat: 'street',
  weg: 'road',
  laan: 'avenue',
  rylaan: 'drive',
  singel: 'crescent',
  plein: 'square',
};

/** Words that say nothing about where a place is. */
const COUNTRY_SUFFIX = /[\s,]*(?:republic of south africa|south africa|rsa|za)\s*$/i;

/** Lower case, no accents, letters and digits only, single spaces. */
export function foldText(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/['’`]/g, '')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

/**
 * Afrikaans street names write the type into the name ("Kerkstraat", "Voortrekkerweg"), and people type
 * them apart ("Kerk Straat", "Kerk Str") or translated ("Kerk Street"): split and written out in English,
 * all of these meet on "kerk street". The shortest stem that leaves a whole type is taken ("Parkrylaan" is
 * "park drive", not "parkry avenue"); it must be 3 letters or more, so "Weg" or "Laan" alone stay what the
 * abbreviations make them.
 */
const AFRIKAANS_COMPOUND = /^([a-z]{3,}?)(straat|rylaan|laan|weg|singel|plein)$/;

/** One folded word as searched: an abbreviation written out, an Afrikaans compound split. */
function searchWords(word: string): string {
  const compound = AFRIKAANS_COMPOUND.exec(word);
  if (compound) return `${compound[1]} ${ABBREVIATIONS[compound[2]]}`;
  return ABBREVIATIONS[word] ?? word;
}

/** Afrikaans street types written as words of their own ("Kerk Straat"). */
const AFRIKAANS_TYPES = new Set(['straat', 'rylaan', 'laan', 'weg', 'singel', 'plein']);

/** Each English street type (as written out) by the Afrikaans type that becomes it. */
const AFRIKAANS_TYPE_OF: ReadonlyMap<string, string> = new Map(
  [...AFRIKAANS_TYPES].map((afrikaans) => [ABBREVIATIONS[afrikaans], afrikaans]),
);

/**
 * A typed name and street type as the one-word Afrikaans name they may stand for ("bos" and "avenue",
 * typed "Bos Laan" or "Bos Avenue", are also "boslaan": the street signposted Boslaan), or undefined when
 * the type has no Afrikaans form. Names are stored as signposted, so this is the form to compare with the
 * stored name, where the normalised form is compared with the search text.
 */
export function afrikaansCompound(name: string, streetType: string): string | undefined {
  const suffix = AFRIKAANS_TYPE_OF.get(streetType);
  return suffix && /[a-z]{3}$/.test(name) ? `${name}${suffix}` : undefined;
}

/**
 * The types of street as normaliseForSearch writes them out: the words that end a street's name (the
 * locator's parser and scoring read the same set).
 */
export const STREET_TYPES: ReadonlySet<string> = new Set([
  'street',
  'road',
  'avenue',
  'drive',
  'crescent',
  'lane',
  'place',
  'close',
  'court',
  'boulevard',
  'highway',
  'square',
  'terrace',
  'way',
  'circle',
]);

/**
 * Folded words as searched (searchWords), except an Afrikaans type word followed by a street type: that
 * one is the name. "Plein Avenue" is Pleinlaan translated ("plein avenue"), not "square avenue"; "Weg
 * Street" is a street called Weg.
 */
function searchWordsOf(words: readonly string[]): string[] {
  return words.map((word, i) => {
    const next = words[i + 1];
    if (AFRIKAANS_TYPES.has(word) && next && STREET_TYPES.has(searchWords(next))) return word;
    return searchWords(word);
  });
}

/** foldText, then each abbreviation written out: the form stored in search_text columns and queried. */
export function normaliseForSearch(text: string): string {
  return searchWordsOf(foldText(text).split(' ').filter(Boolean)).join(' ');
}

/** The query without the ' South Africa' the locator appends (spec 01 §9), or 'RSA'/'ZA'. */
export function stripCountry(query: string): string {
  return query.replace(COUNTRY_SUFFIX, '').trim();
}

/** What a typed address says, taken apart (all text parts normalised). */
export interface AddressQuery {
  /** The house number's numeric part ("12A" -> 12). */
  number?: number;
  /** The house number as typed, normalised ("12a"). */
  houseNumber?: string;
  /** A unit or flat number ("Unit 5", "Flat 3B", "5/12"). */
  unit?: string;
  /** A 4-digit postal code at the end. */
  postalCode?: string;
  /** The rest: street, suburb, town, estate names (normalised). */
  text: string;
}

const UNIT_WORDS = new Set(['unit', 'flat', 'apartment', 'apt', 'door', 'section', 'sec']);

/** Splits a typed address into house number, unit, postal code and the words of the names. */
export function parseAddressQuery(query: string): AddressQuery {
  let words = foldText(stripCountry(query)).split(' ').filter(Boolean);
  const parsed: AddressQuery = { text: '' };

  // A postal code is 4 digits at the end, after at least one word ("... Stellenbosch 7600").
  const last = words[words.length - 1];
  if (words.length > 1 && last && /^\d{4}$/.test(last)) {
    parsed.postalCode = last;
    words = words.slice(0, -1);
  }

  // "unit 5 ...", "flat 3b ..."
  const unitAt = words.findIndex((word) => UNIT_WORDS.has(word));
  if (unitAt >= 0 && words[unitAt + 1] && /^\d+[a-z]?$/.test(words[unitAt + 1])) {
    parsed.unit = words[unitAt + 1];
    words = [...words.slice(0, unitAt), ...words.slice(unitAt + 2)];
  }

  // "5/12 Church Street" was folded to "5 12 church street": a unit before the house number.
  if (
    !parsed.unit &&
    /\d+\s*\/\s*\d+/.test(query) &&
    /^\d+[a-z]?$/.test(words[0] ?? '') &&
    /^\d+[a-z]?$/.test(words[1] ?? '')
  ) {
    parsed.unit = words[0];
    words = words.slice(1);
  }

  // The house number: the first word that is a number (optionally with one letter), or "12 a".
  const numberAt = words.findIndex((word) => /^\d{1,6}[a-z]?$/.test(word));
  if (numberAt >= 0 && numberAt <= 1) {
    let house = words[numberAt];
    let take = 1;
    const next = words[numberAt + 1];
    if (/^\d+$/.test(house) && next && /^[a-h]$/.test(next)) {
      house += next;
      take = 2;
    }
    parsed.houseNumber = house;
    parsed.number = Number.parseInt(house, 10);
    words = [...words.slice(0, numberAt), ...words.slice(numberAt + take)];
  }

  parsed.text = searchWordsOf(words).join(' ');
  return parsed;
}

/** The search text of a street: its name, suburb and town, normalised. */
export function streetSearchText(name: string, suburb: string, town: string): string {
  return normaliseForSearch(`${name} ${suburb} ${town}`);
}

/** The parts an address is written from. */
export interface AddressParts {
  houseNumber?: string | null;
  street?: string | null;
  unit?: string | null;
  estate?: string | null;
  suburb?: string | null;
  town?: string | null;
  postalCode?: string | null;
}

/** "Unit 5 Sunset Estate, 12 Church Street": the address without its area (lists on one parcel). */
export function shortAddress({ houseNumber, street, unit, estate }: AddressParts): string {
  const line = [houseNumber, street].filter(Boolean).join(' ');
  const unitPart = unit ? [`Unit ${unit}`, estate].filter(Boolean).join(' ') : estate || '';
  return [unitPart, line].filter(Boolean).join(', ');
}

/** "12 Church Street, Stellenbosch Central, Stellenbosch, 7600", as South African addresses are written. */
export function formatAddress(parts: AddressParts): string {
  const { suburb, town, postalCode } = parts;
  const area = suburb && town && suburb.toLowerCase() === town.toLowerCase() ? [town] : [suburb, town];
  return [shortAddress(parts), ...area, postalCode].filter(Boolean).join(', ');
}

/** Pads a postal code to 4 digits (spec 03 §5: street code and box code); undefined if it is not one. */
export function padPostalCode(code: string | number | null | undefined): string | undefined {
  if (code === null || code === undefined) return undefined;
  const digits = String(code).trim();
  if (!/^\d{1,4}$/.test(digits)) return undefined;
  return digits.padStart(4, '0');
}
