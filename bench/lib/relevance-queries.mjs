// The geocoding bench's query sets (bench/geo-search.mjs): addresses of the bench dataset written as people
// type them — misspelt, abbreviated, half-typed, without suburb, with a postal code, with an Afrikaans
// street type, a unit in an estate — each only where what is typed names one address. Deterministic: the
// same dataset and seed give the same set.

import { createRequire } from 'node:module';
import { join } from 'node:path';
import { ROOT } from '../../scripts/lib/system.mjs';

const require = createRequire(import.meta.url);
/** libs/geo as built (the bench dataset is made with it): the search's own folding of what is typed. */
const geoLibrary = () => require(join(ROOT, 'libs/geo/dist/index.js'));

/** A deterministic number from a text (FNV-1a), for choices that must not change between builds. */
export function hashOf(text) {
  let hash = 0x811c9dc5;
  for (const char of text) hash = Math.imul(hash ^ char.charCodeAt(0), 0x01000193) >>> 0;
  return hash;
}

const ABBREVIATED_TYPES = {
  Street: 'St',
  Road: 'Rd',
  Avenue: 'Ave',
  Drive: 'Dr',
  Crescent: 'Cres',
  Close: 'Cl',
  Lane: 'Ln',
  Place: 'Pl',
  Boulevard: 'Blvd',
  Way: 'Wy',
};
const AFRIKAANS_TYPES = {
  straat: ['Straat', 'Str', 'Street'],
  weg: ['Weg', 'Road', 'Rd'],
  laan: ['Laan', 'Avenue', 'Ave'],
};

/** One typing mistake in a word: two letters swapped, one dropped, one doubled, or a vowel changed. */
function misspell(word, seed) {
  const at = 1 + (seed % Math.max(1, word.length - 2));
  switch ((seed >> 8) % 4) {
    case 0:
      return word.slice(0, at) + word[at + 1] + word[at] + word.slice(at + 2);
    case 1:
      return word.slice(0, at) + word.slice(at + 1);
    case 2:
      return word.slice(0, at) + word[at] + word.slice(at);
    default: {
      const vowels = 'aeiou';
      const i = [...word].findIndex((c, j) => j >= 1 && vowels.includes(c));
      if (i < 0) return word.slice(0, at) + word.slice(at + 1);
      const other = vowels[(vowels.indexOf(word[i]) + 1 + (seed % 4)) % 5];
      return word.slice(0, i) + other + word.slice(i + 1);
    }
  }
}

/** The longest word of a street's name without its type (the word a typo is put in). */
function baseWord(street) {
  const words = street.split(' ');
  const named = words.length > 1 ? words.slice(0, -1) : words;
  return named.reduce((a, b) => (b.length > a.length ? b : a));
}

/** Every way a query is written: the addresses it needs, and how each is written. */
const CATEGORIES = [
  {
    name: 'full address',
    scope: 'town',
    write: (a) => `${a.house_number} ${a.street_name}, ${a.suburb}, ${a.town}, ${a.postal_code}`,
  },
  {
    name: 'lower case, no commas',
    scope: 'town',
    write: (a) => `${a.house_number} ${a.street_name} ${a.suburb} ${a.town}`.toLowerCase(),
  },
  {
    name: 'misspelt street',
    scope: 'town',
    area: (a) => ({ text: a.town }),
    where: (a) => baseWord(a.street_name).length >= 5,
    write: (a, seed) => {
      const word = baseWord(a.street_name);
      return `${a.house_number} ${a.street_name.replace(word, misspell(word, seed))}, ${a.town}`;
    },
  },
  {
    name: 'misspelt town',
    scope: 'town',
    area: (a) => ({ text: a.town }),
    where: (a) => a.town.length >= 5,
    write: (a, seed) => {
      const word = baseWord(`${a.town} x`);
      return `${a.house_number} ${a.street_name}, ${a.town.replace(word, misspell(word, seed))}`;
    },
  },
  {
    name: 'abbreviated street type',
    scope: 'town',
    area: (a) => ({ text: a.town }),
    where: (a) =>
      ABBREVIATED_TYPES[a.street_name.split(' ').at(-1)] !== undefined && a.street_name.includes(' '),
    write: (a) => {
      const words = a.street_name.split(' ');
      return `${a.house_number} ${[...words.slice(0, -1), ABBREVIATED_TYPES[words.at(-1)]].join(' ')}, ${a.town}`;
    },
  },
  {
    name: 'partial input',
    scope: 'town',
    area: (a, seed) => ({ text: a.town.slice(0, 3 + (seed % 3)).trim(), prefix: true }),
    where: (a) => a.town.length >= 6,
    write: (a, seed) => {
      const words = a.street_name.split(' ');
      const type = ABBREVIATED_TYPES[words.at(-1)];
      const street = (type && words.length > 1 ? [...words.slice(0, -1), type] : words).join(' ');
      return `${a.house_number} ${street} ${a.town.slice(0, 3 + (seed % 3)).trim()}`.toLowerCase();
    },
  },
  {
    name: 'missing suburb',
    scope: 'town',
    area: (a) => ({ text: a.town }),
    write: (a) => `${a.house_number} ${a.street_name}, ${a.town}`,
  },
  {
    name: 'suburb, no town',
    scope: 'suburb',
    area: (a) => ({ text: a.suburb }),
    write: (a) => `${a.house_number} ${a.street_name}, ${a.suburb}`,
  },
  {
    name: 'postal code',
    scope: 'postal_code',
    write: (a) => `${a.house_number} ${a.street_name} ${a.postal_code}`,
  },
  {
    name: 'Afrikaans street type',
    scope: 'town',
    area: (a) => ({ text: a.town }),
    sql: "a.street_name ~ '^[A-Z][a-z]+(straat|weg|laan)$'",
    write: (a, seed) => {
      const [, stem, type] = /^([A-Z][a-z]+?)(straat|weg|laan)$/.exec(a.street_name);
      const written = AFRIKAANS_TYPES[type][seed % 3];
      return `${a.house_number} ${stem} ${written}, ${a.town}`;
    },
  },
  {
    name: 'unit in an estate',
    scope: 'town',
    units: true,
    area: (a, seed) => ({ text: seed % 2 ? a.town : a.suburb }),
    write: (a, seed) =>
      seed % 2
        ? `Unit ${a.unit}, ${a.estate}, ${a.house_number} ${a.street_name}, ${a.town}`
        : `${a.unit}/${a.house_number} ${a.street_name}, ${a.suburb}`,
  },
];

export const PER_CATEGORY = 20;

/**
 * A street name as the search compares it, in SQL: case and spaces aside, an Afrikaans type written into
 * the name the same as the English one ("Voortrekkerstraat" is "Voortrekker Street").
 */
const streetKey = (column) =>
  `replace(regexp_replace(regexp_replace(regexp_replace(regexp_replace(lower(${column}),
     'straat$', 'street'), 'rylaan$', 'drive'), 'laan$', 'avenue'), 'weg$', 'road'), ' ', '')`;

/**
 * The first `count` addresses of a category in its fixed pseudo-random order (md5 of source id, category
 * and seed) whose number and street (and unit) are unique in the category's scope. Checked on the first
 * few times `count` candidates in that order, more when too few are unique: the same rows as checking
 * every address (the first `count` unique ones in the order), without comparing the street key of every
 * address with every other's — at 10 M addresses that took two minutes per category.
 */
async function uniqueCandidates(client, category, count, seed) {
  for (let candidates = count * 4; ; candidates *= 4) {
    const { rows } = await client.query(
      `WITH a AS MATERIALIZED (
         SELECT a.id, a.source_id, a.house_number, a.street_name, a.unit, a.estate, a.suburb, a.town,
                a.postal_code, md5(a.source_id || $1) AS rank
         FROM geo.addresses a
         WHERE a.source = 'generator' AND a.house_number <> '' AND a.street_name <> ''
           AND ${category.units ? 'a.unit IS NOT NULL AND a.estate IS NOT NULL' : 'a.unit IS NULL'}
           AND ${category.sql ?? 'true'}
         ORDER BY rank LIMIT $3),
       -- Not unique: another address with the same street name, number and unit in the same scope (an
       -- inner join, so the few candidates are hashed and every address probes them once; the street key
       -- is compared only where number and scope match).
       taken AS MATERIALIZED (
         SELECT DISTINCT a.id FROM a JOIN geo.addresses b
           ON b.house_number = a.house_number AND b.${category.scope} = a.${category.scope}
         WHERE ${streetKey('b.street_name')} = ${streetKey('a.street_name')}
           AND b.unit IS NOT DISTINCT FROM a.unit AND b.id <> a.id)
       -- One row at least (the candidates' count), so a round without a unique address asks for more.
       SELECT c.candidates, u.*
       FROM (SELECT count(*)::int AS candidates FROM a) c
       LEFT JOIN LATERAL (
         SELECT a.source_id, a.house_number, a.street_name, a.unit, a.estate, a.suburb, a.town, a.postal_code
         FROM a WHERE a.id NOT IN (SELECT id FROM taken)
         ORDER BY a.rank
         LIMIT $2) u ON true`,
      [category.name + seed, count, candidates],
    );
    const unique = rows.filter((row) => row.source_id !== null);
    // Enough unique ones, or every address of the category was a candidate.
    if (unique.length === count || rows[0].candidates < candidates) return unique;
  }
}

/**
 * Whether the area as a query types it also names the place of another address with the same number
 * and street (and unit): the query then names two addresses, and neither answer is wrong. The category's
 * scope is the address's own town or suburb; what is typed can say less — "Eastleigh" is a town and also
 * a suburb of another town, "rust" (Rustenburg half typed) is also a word of Bobbies Rust — and at 10 M
 * addresses such namesakes are common. A place matches when it holds every word typed (the last as the
 * start of a word when the area is half typed), as the search reads an area word by word.
 */
async function namesAnotherAddress(client, category, address, seed) {
  if (!category.area) return false;
  const { text, prefix = false } = category.area(address, seed);
  const words = geoLibrary().foldText(text).split(' ').filter(Boolean);
  if (!words.length) return false;
  const patterns = words.map((word, i) => `(^| )${word}${prefix && i === words.length - 1 ? '' : '( |$)'}`);
  const { rows } = await client.query(
    `SELECT 1
     FROM geo.streets s
     JOIN geo.addresses b ON b.street_id = s.id AND b.house_number = $2
     -- The name's first letters through the trigram index, then the key (a scan of every street's key
     -- would take a second a query at 10 M addresses).
     WHERE lower(s.name) LIKE lower(left($1::text, 3)) || '%'
       AND ${streetKey('s.name')} = ${streetKey('$1::text')}
       AND b.source_id <> $3 AND b.unit IS NOT DISTINCT FROM $4
       AND lower(b.suburb || ' ' || b.town) ~ ALL ($5::text[])
     LIMIT 1`,
    [address.street_name, address.house_number, address.source_id, address.unit, patterns],
  );
  return rows.length > 0;
}

/**
 * Builds the query set from the bench dataset: for each category, addresses in a fixed pseudo-random
 * order (md5 of source id and category) that the category can write and whose number and street (and
 * unit) are unique in the category's scope and in every place the area as typed names, written as the
 * category writes them.
 */
export async function buildRelevanceQueries(client, perCategory = PER_CATEGORY, seed = '') {
  const queries = [];
  for (const category of CATEGORIES) {
    const rows = await uniqueCandidates(client, category, perCategory * 20, seed);
    let taken = 0;
    for (const address of rows) {
      if (taken === perCategory) break;
      if (category.where && !category.where(address)) continue;
      const addressSeed = hashOf(address.source_id + category.name + seed);
      if (await namesAnotherAddress(client, category, address, addressSeed)) continue;
      const query = category.write(address, addressSeed);
      queries.push({ category: category.name, query, expected: address.source_id });
      taken += 1;
    }
    if (taken < perCategory)
      throw new Error(`Only ${taken} addresses for '${category.name}' in this dataset`);
  }
  return queries;
}
