import { MAX_QUERY_LENGTH } from '@portal/contracts';
import {
  foldText,
  normaliseForSearch,
  padPostalCode,
  parseAddressQuery,
  STREET_TYPES,
  stripCountry,
} from '@portal/geo';
import { badRequest } from '@portal/server-kit';
import { editDistance } from './score';

/**
 * Reading what a user typed into the locator's search box: the checks every search call makes first, and
 * the readings of an erf, a farm and a postal code (an address is read by libs/geo's parseAddressQuery).
 */

export const QUERY_TEXT = {
  empty: 'Type something to search for.',
  tooLong: `The search text is too long (at most ${MAX_QUERY_LENGTH} characters).`,
  noWords: 'The search text has no letters or digits to search for.',
} as const;

/** A search query as the calls take it: trimmed, without ' South Africa', within the length limit. */
export interface SearchText {
  /** What the user typed, without the country suffix. */
  raw: string;
  /** Folded (lower case, letters and digits): compared with names as they are stored (POIs, places). */
  folded: string;
  /** Folded with abbreviations written out: compared with search_text columns (streets). */
  normalised: string;
}

/** Reads a query or answers a 400 saying what is wrong with it. */
export function readSearchText(query: string): SearchText {
  const raw = stripCountry(query.trim());
  // "South Africa" alone is as empty as nothing: there is nothing left to look for.
  if (!raw) throw badRequest(QUERY_TEXT.empty);
  if (raw.length > MAX_QUERY_LENGTH) throw badRequest(QUERY_TEXT.tooLong);
  const folded = foldText(raw);
  if (!folded) throw badRequest(QUERY_TEXT.noWords);
  return { raw, folded, normalised: normaliseForSearch(raw) };
}

/** An address query: libs/geo's reading, plus the text as matched against street search texts. */
export type AddressQuery = ReturnType<typeof parseAddressQuery>;

/**
 * "Paarl, 12 Church Street" as "12 Church Street, Paarl": a first part without digits before one that
 * starts with the house number is the area typed first, unless it names an estate ("Sunset Estate, 12
 * Church Street") or a unit ("Flat B, ...").
 */
function townLast(raw: string): string {
  const parts = raw.split(',');
  if (parts.length >= 2) {
    if (/\d/.test(parts[0]) || !/^\s*\d/.test(parts[1]) || !isArea(foldText(parts[0]))) return raw;
    return [...parts.slice(1), parts[0]].join(',');
  }
  // Without commas ("Westonaria 14 Alexandra Street"): only when the street ends the query, so that the
  // words before the number cannot be anything after it.
  const written = /^([a-z][a-z ]*?) (\d{1,6}[a-z]?) ([a-z].*)$/.exec(foldText(raw));
  if (!written || !isArea(written[1])) return raw;
  const street = splitStreetQuery(normaliseForSearch(written[3]));
  if (!street || street.area) return raw;
  return `${written[2]} ${written[3]}, ${written[1]}`;
}

/** Words before a house number that can be an area: not an estate, a unit, an erf or "No." */
function isArea(folded: string): boolean {
  const words = folded.split(' ');
  return (
    !!words[0] && !ESTATE_WORDS.has(words[words.length - 1]) && !words.some((word) => NOT_AREA.has(word))
  );
}

const NOT_AREA = new Set([
  'unit',
  'flat',
  'apartment',
  'apt',
  'door',
  'section',
  'sec',
  'no',
  'nr',
  'number',
  'house',
  'erf',
  'stand',
  'plot',
  'lot',
]);

/**
 * parseAddressQuery, and a house number after an estate's name: "Unit 5 Sunset Estate 12 Church Street"
 * leaves "sunset estate 12 church street", where 12 is the number of the street address, not a name word.
 */
export function readAddressQuery(text: SearchText): AddressQuery {
  const parsed = parseAddressQuery(townLast(text.raw));
  if (parsed.number !== undefined) return parsed;
  const words = parsed.text.split(' ');
  const at = words.findIndex(
    (word, i) => i > 0 && /^\d{1,6}[a-z]?$/.test(word) && /[a-z]/.test(words[i + 1] ?? ''),
  );
  if (at < 0) return parsed;
  const before = words.slice(0, at);
  const after = words.slice(at + 1);
  // The town typed first ("Richards Bay, 33 Fish Eagle Street"): what comes before the number is the area
  // when nothing follows the street and it is not an estate's name ("Sunset Estate 12 Church Street");
  // put after the street, where an area is read.
  const street = splitStreetQuery(after.join(' '));
  const townFirst = !!street && !street.area && !ESTATE_WORDS.has(before[before.length - 1]);
  return {
    ...parsed,
    houseNumber: words[at],
    number: Number.parseInt(words[at], 10),
    text: (townFirst ? [...after, ...before] : [...before, ...after]).join(' '),
  };
}

/** "Erf 1234 Stellenbosch", "erf 1234/3 paarl", "1234 portion 2 stellenbosch" (with the erf flag). */
export interface ErfQuery {
  parcelNumber: string;
  portion?: number;
  /** The rest: the suburb or town the erf lies in (folded), possibly empty. */
  area: string;
}

const ERF_WORDS = new Set(['erf', 'erven', 'stand', 'lot', 'plot']);
const PORTION_WORDS = new Set(['portion', 'ptn', 'por', 'gedeelte', 'ged']);
const REMAINDER_WORDS = new Set(['re', 'remainder', 'rem', 'restant']);

/**
 * Reads an erf query. With `requireWord` (a plain search) the query must name an erf ("erf 1234 ..."),
 * with the erf flag a leading number is enough ("1234 stellenbosch"). Undefined when it is not one.
 */
export function parseErfQuery(text: SearchText, requireWord: boolean): ErfQuery | undefined {
  let words = text.folded.split(' ');
  const hasWord = ERF_WORDS.has(words[0]);
  if (hasWord) words = words.slice(words[1] === 'no' || words[1] === 'nr' ? 2 : 1);
  else if (requireWord) return undefined;
  if (!/^\d{1,7}$/.test(words[0] ?? '')) return undefined;
  const parcelNumber = String(Number.parseInt(words[0], 10));
  words = words.slice(1);
  // "1234/3" was folded to "1234 3": the slash in the raw text says the next number is the portion.
  let portion: number | undefined;
  if (/^\D*\d{1,7}\s*\/\s*\d/.test(text.raw) && /^\d{1,5}$/.test(words[0] ?? '')) {
    portion = Number.parseInt(words[0], 10);
    words = words.slice(1);
  }
  const taken = takePortion(words, portion);
  words = taken.words;
  portion = taken.portion;
  return { parcelNumber, portion, area: words.join(' ') };
}

/** Takes "portion 3" / "ptn 3" / "remainder" out of the words. */
function takePortion(words: string[], portion?: number): { words: string[]; portion?: number } {
  const at = words.findIndex((word) => PORTION_WORDS.has(word));
  if (at >= 0 && /^\d{1,5}$/.test(words[at + 1] ?? '')) {
    return {
      words: [...words.slice(0, at), ...words.slice(at + 2)],
      portion: Number.parseInt(words[at + 1], 10),
    };
  }
  const remainder = words.findIndex((word) => REMAINDER_WORDS.has(word));
  if (remainder >= 0) return { words: words.filter((_, i) => i !== remainder), portion: 0 };
  // "remaining extent"
  const remaining = words.findIndex((word, i) => word === 'remaining' && words[i + 1] === 'extent');
  if (remaining >= 0)
    return { words: words.filter((_, i) => i !== remaining && i !== remaining + 1), portion: 0 };
  return { words, portion };
}

/** "Rietfontein 189", "farm Doornkloof portion 3", "Rietfontein 189 JR ptn 12", "189 IQ". */
export interface FarmQuery {
  /** The farm's name (folded), possibly empty when only a number is typed. */
  name: string;
  farmNumber?: number;
  portion?: number;
  /** The registration division ("jr", "iq"), when typed. */
  division?: string;
}

const FARM_WORDS = new Set(['farm', 'plaas', 'no', 'nr', 'number']);

/** Registration divisions are two letters (JR, IQ, KT...), typed after the farm number. */
const DIVISION = /^[a-z]{2}$/;

export function parseFarmQuery(text: SearchText): FarmQuery | undefined {
  const taken = takePortion(text.folded.split(' ').filter((word) => !FARM_WORDS.has(word)));
  let words = taken.words;
  const portion = taken.portion;
  let farmNumber: number | undefined;
  let division: string | undefined;
  const numberAt = words.findIndex((word) => /^\d{1,6}$/.test(word));
  if (numberAt >= 0) {
    farmNumber = Number.parseInt(words[numberAt], 10);
    const next = words[numberAt + 1];
    if (next && DIVISION.test(next)) {
      division = next;
      words = words.filter((_, i) => i !== numberAt + 1);
    }
    words = words.filter((_, i) => i !== numberAt);
  }
  const name = words.join(' ');
  if (!name && farmNumber === undefined) return undefined;
  return { name, farmNumber, portion, division };
}

/** A postal code typed as 1 to 4 digits ("7600", "181" is 0181), or undefined. */
export function postalCodeOf(text: SearchText): string | undefined {
  return /^\d{1,4}$/.test(text.folded) ? padPostalCode(text.folded) : undefined;
}

/** "Stellenbosch 7600" / "7600 Stellenbosch": a code and a name together. */
export function splitPostalQuery(text: SearchText): { code?: string; name: string } {
  const words = text.folded.split(' ');
  const codeAt = words.findIndex((word) => /^\d{4}$/.test(word));
  if (codeAt < 0) return { code: postalCodeOf(text), name: postalCodeOf(text) ? '' : text.folded };
  return { code: words[codeAt], name: words.filter((_, i) => i !== codeAt).join(' ') };
}

/**
 * The trigram thresholds the searches' index conditions use (`%` and `<%`), set on every connection of
 * the locator's pool (database.ts). 0.4 of a query's trigrams found in a street's text lets two typos and
 * a half-typed word through ("chruch stret stelenbosh" scores 0.47) while keeping the candidates few.
 */
export const TRIGRAM_SETTINGS = {
  'pg_trgm.word_similarity_threshold': 0.4,
  'pg_trgm.similarity_threshold': 0.3,
} as const;

/** Long enough that one typo in them is still recognisably the type ("stret", "avenu"). */
const LONG_STREET_TYPES = [...STREET_TYPES].filter((type) => type.length >= 5);

/** Words that end an estate's name ("Silver Oaks Mews"): a street's own name does not reach past them. */
const ESTATE_WORDS = new Set(['estate', 'village', 'gardens', 'manor', 'mews', 'park', 'complex', 'villas']);

function isStreetType(word: string, isLast: boolean): boolean {
  if (STREET_TYPES.has(word)) return true;
  // Half typed at the end ("12 church stre").
  if (isLast && word.length >= 2 && [...STREET_TYPES].some((type) => type.startsWith(word))) return true;
  return word.length >= 5 && LONG_STREET_TYPES.some((type) => editDistance(type, word) <= 1);
}

/**
 * A typed address's text taken apart around its street type: the street's own name before it (the
 * "core", what tells one street from another) and the area after it (suburb, town). The type is the last
 * one that follows a name word ("Blue Valley Court, 12 Church Street" is Church Street), and the name
 * stops at an estate's name ("Silver Oaks Mews 12 Church Street"); a name that is itself a type word
 * ("Court Street") is the first word. Undefined without a street type; the type as typed comes with it.
 */
export function splitStreetQuery(text: string): { core: string; area: string; type: string } | undefined {
  const words = text.split(' ').filter(Boolean);
  for (let at = words.length - 1; at >= 1; at--) {
    if (!isStreetType(words[at], at === words.length - 1)) continue;
    if (isStreetType(words[at - 1], false)) {
      // A street named by a type word ("Court Street", "Avenue Road"): that word is the name when nothing
      // stands before it; otherwise the earlier word is the type ("Church Street Road" is not a name).
      if (at - 1 === 0) return { core: words[0], area: words.slice(at + 1).join(' '), type: words[at] };
      continue;
    }
    let start = at - 1;
    while (
      start > 0 &&
      !isStreetType(words[start - 1], false) &&
      !ESTATE_WORDS.has(words[start - 1]) &&
      !/^\d/.test(words[start - 1])
    ) {
      start -= 1;
    }
    return {
      core: words.slice(start, at).join(' '),
      area: words.slice(at + 1).join(' '),
      type: words[at],
    };
  }
  return undefined;
}
