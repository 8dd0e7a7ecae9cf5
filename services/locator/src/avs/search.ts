// One file on purpose (over 500 lines): the address searches share its candidate limits, row shapes and
// merge, and each statement is tuned against the others (what one kind answers, another leaves out).
import type { FeatureType, SearchFlags, SearchResultItem } from '@portal/contracts';
import {
  afrikaansCompound,
  formatAddress,
  normaliseForSearch,
  shortAddress,
  type Queryable,
} from '@portal/geo';
import {
  parseErfQuery,
  parseFarmQuery,
  readAddressQuery,
  splitPostalQuery,
  splitStreetQuery,
  type AddressQuery,
  type ErfQuery,
  type FarmQuery,
  type SearchText,
} from './parse';
import {
  agreementFactor,
  areaCoverage,
  confidence,
  coreCoverage,
  namedStreetScore,
  nameCoverage,
  streetTextScore,
  streetTypeFactor,
} from './score';

/**
 * The searches behind /api/avs/search, /geocode and /searchPostal: one function per kind of feature, each
 * a single bound statement that lets an index find the candidates (trigram GIN on names and search texts,
 * B-trees on numbers and codes) and answers a handful of rows, which are scored here and merged best first.
 */

/** Results answered without includeAll, and with it. */
export const RESULT_LIMIT = { default: 10, all: 50 } as const;

export interface SearchOptions {
  limit: number;
  /** Answer the stable source keys a user copies ('Get ID') besides the result's own id. */
  includeIds: boolean;
}

/** A result before the merge: its item and what orders equally good matches (place importance 0..1). */
export interface Ranked {
  item: SearchResultItem;
  importance: number;
}

/** Best match first; equally good matches (to 2 places) by the importance of their place, then by name. */
export function rank(results: Ranked[], limit: number): SearchResultItem[] {
  const key = (r: Ranked) => Math.round(r.item.confidence * 100);
  return [...results]
    .sort(
      (a, b) =>
        key(b) - key(a) ||
        b.importance - a.importance ||
        b.item.confidence - a.item.confidence ||
        a.item.formatted_address.localeCompare(b.item.formatted_address) ||
        a.item.id.localeCompare(b.item.id, undefined, { numeric: true }),
    )
    .slice(0, limit)
    .map((r) => r.item);
}

/** Results this weak are noise (a stray trigram), not matches. */
const MIN_CONFIDENCE = 0.2;

function item(
  type: FeatureType,
  row: { id: string; lat: number; lng: number },
  fields: Omit<SearchResultItem, 'id' | 'type' | 'location'>,
): SearchResultItem {
  return { id: row.id, type, location: { lat: Number(row.lat), lng: Number(row.lng) }, ...fields };
}

/** The parcel always (the client draws it); the stable source key only with includeIds ('Get ID'). */
const withIds = (options: SearchOptions, ids: { parcelId?: string | null; sourceKey?: string | null }) => ({
  ...(ids.parcelId ? { parcelId: ids.parcelId } : {}),
  ...(options.includeIds && ids.sourceKey ? { sourceKey: ids.sourceKey } : {}),
});

// ---------------------------------------------------------------------------------------------------
// Street addresses

interface AddressRow {
  street_id: string;
  street: string;
  street_suburb: string;
  street_town: string;
  importance: number;
  query_in_text: number;
  area_in_text: number | null;
  street_lat: number | null;
  street_lng: number | null;
  street_key: string;
  address_id: string | null;
  house_number: string | null;
  number_value: number | null;
  unit: string | null;
  estate: string | null;
  suburb: string | null;
  town: string | null;
  postal_code: string | null;
  lat: number | null;
  lng: number | null;
  parcel_id: string | null;
  address_key: string | null;
}

/** The columns of the address chosen on each candidate street. */
const ADDRESS_COLUMNS = `
  x.id::text AS address_id, x.house_number, x.number_value, x.unit, x.estate, x.suburb, x.town, x.postal_code,
  ST_Y(x.point) AS lat, ST_X(x.point) AS lng, x.parcel_id::text AS parcel_id,
  x.source || ':' || x.source_id AS address_key`;

/**
 * With a house number: the addresses with that number on the street (every unit and letter) and the
 * nearest number above and below, each an index probe on (street_id, number_value); the best of them by
 * distance in numbers, then exact letter, unit, and postal code.
 */
const ADDRESS_BY_NUMBER = `
  SELECT ${ADDRESS_COLUMNS}
  FROM (
    (SELECT * FROM geo.addresses WHERE street_id = s.id AND number_value = $4)
    UNION ALL
    (SELECT * FROM geo.addresses WHERE street_id = s.id AND number_value > $4 ORDER BY number_value LIMIT 1)
    UNION ALL
    (SELECT * FROM geo.addresses WHERE street_id = s.id AND number_value < $4 ORDER BY number_value DESC LIMIT 1)
  ) x
  ORDER BY abs(x.number_value - $4), lower(x.house_number) = $5 DESC, lower(x.unit) IS NOT DISTINCT FROM $6 DESC,
           x.unit IS NULL DESC, x.postal_code IS NOT DISTINCT FROM $3::bpchar DESC, x.id
  LIMIT 1`;

/** Without a house number the street itself is the result; its first address gives a code and a fallback point. */
const FIRST_ADDRESS = `
  SELECT ${ADDRESS_COLUMNS}
  FROM geo.addresses x
  WHERE x.street_id = s.id
  ORDER BY x.number_value NULLS LAST, x.unit NULLS FIRST, x.id
  LIMIT 1`;

/**
 * How candidate streets are found (GIN trigram index on search_text, the threshold being the connection's
 * pg_trgm.word_similarity_threshold). Matching the whole query would do, but the area words ("cape
 * town") are in the text of every street of the town: thousands of rows to rank at scale. So the street's
 * own name (the core) finds the candidates, with the area too when one is typed (two index conditions,
 * intersected); the whole query is matched only when it has no street type to take the name from, or as
 * the second try when the first finds nothing good (a typo that leaves the name's trigrams behind). With an
 * area typed, that second try keeps to the streets whose text holds the area too ('text-area', two index
 * conditions intersected): the whole query alone hands every street sharing "street" and the town's
 * trigrams to the similarity check (22 000 of 260 000 streets at 10 M addresses, 150–250 ms); the whole
 * query unbounded is the last try, when nothing else found a good match (the area mistyped as well).
 * The third try ('area-initial') is for a typo that leaves too few of a short name's trigrams for either
 * ("Leatba Crescent, Durban", "Eukeweg, Oudtshoorn"): the area typed is read as places first (a few
 * hundred rows, trigram index on their names), and their streets whose name starts with the letter typed
 * first (people seldom get the first letter wrong) are the candidates, through the B-trees on town and
 * suburb: as many as that town has streets of that letter, not a scan of every street holding the town's
 * trigrams.
 */
type CandidateMode = 'core-area' | 'core' | 'text-area' | 'text' | 'prefix' | 'area-initial';

// Without an area the name is matched word for word (strict word similarity, pg_trgm's default 0.5): the
// loose match lets a name through on the type it holds — "strand" shares "  s", " st", "str" with every
// "… Street", 108 709 of 260 000 streets at 10 M addresses, 1.1 s to rank. The area intersects the loose
// match enough where one is typed ($12, areaKey). The whole query is matched without its street type
// ($13): "street" alone holds half the trigrams of "duiry street" and is in 40 % of the streets' texts.
// Without a street type the names starting with what is typed come first ('prefix', every trigram of it
// required: "2 stas" on the way to "2 Stasie Place" finds a few hundred streets, where a similarity of 0.4
// to "stas" passes every "st…"; "17 park r", 30 000 streets' texts holding "park", finds Park Road).

const CANDIDATE_CONDITION: Record<Exclude<CandidateMode, 'area-initial'>, string> = {
  'core-area': '$7 <% lower(s.name) AND $12 <% s.search_text',
  // Or the name and type typed as one Afrikaans word ("bos avenue" is also Boslaan, which "bos" alone
  // does not match word for word).
  core: '($7 <<% lower(s.name) OR $15 <<% lower(s.name))',
  'text-area': '$13 <% s.search_text AND $12 <% s.search_text',
  text: '$13 <% s.search_text',
  prefix: 'lower(s.name) LIKE $14',
};

/** The 'area-initial' candidates: streets of the places the area names, by the first letter of the name. */
const AREA_INITIAL_CANDIDATES = `
    area_places AS (
      SELECT id FROM geo.places
      WHERE kind IN ('town', 'suburb') AND (lower(name) % $8 OR $8 <% lower(name) OR lower(name) % $11)
    ), area_streets AS (
      SELECT st.id FROM geo.streets st WHERE st.town_id IN (SELECT id FROM area_places) AND lower(st.name) LIKE $10
      UNION
      SELECT st.id FROM geo.streets st WHERE st.suburb_id IN (SELECT id FROM area_places) AND lower(st.name) LIKE $10
    ), by_text AS (
      SELECT s.id FROM area_streets a JOIN geo.streets s ON s.id = a.id
      ORDER BY NAME_ORDER DESC, TYPE_ORDER DESC, s.importance DESC, s.id
      LIMIT $2
    )`;

/**
 * How candidates are ranked before the best are taken: the whole query in the street's text, or the name
 * typed in the street's name times the area typed in its text (the whole query's similarity would favour
 * a wrong street in a suburb with a short name over the right one in a long-named suburb that was not typed).
 * The name is compared with and without the type typed ($9, "codar way"): a typo in a short name leaves
 * few of its trigrams, as few as dozens of other names of the town share, and the type tells the right
 * one from those (Cedar Way, not Cosmos Road).
 */
const NAME_ORDER =
  'greatest(word_similarity($7, lower(s.name)), word_similarity($9, lower(s.name)), word_similarity($15, lower(s.name)))';
/**
 * Among names that match the name typed equally (every "Tshepo …" of East London holds "tshepo" whole),
 * the one of the type typed first: at 10 M addresses a town has dozens of namesakes of other types, more
 * than the candidates taken, and Tshepo Boulevard must not be left out behind Tshepo Avenue and Close.
 * The type is compared in both forms a name is signposted in ("Bos Avenue", "Boslaan": $15).
 */
const TYPE_ORDER = 'greatest(word_similarity($9, lower(s.name)), word_similarity($15, lower(s.name)))';
/** The candidate orders that read the name typed, and so break their ties by the type typed. */
const NAMED_MODES: ReadonlySet<CandidateMode> = new Set(['core-area', 'core', 'area-initial']);
const CANDIDATE_ORDER: Record<CandidateMode, string> = {
  'core-area': `${NAME_ORDER} * word_similarity($8, s.search_text)`,
  core: NAME_ORDER,
  'text-area': 'word_similarity($1, s.search_text)',
  text: 'word_similarity($1, s.search_text)',
  prefix: 'word_similarity($1, s.search_text)',
  'area-initial': NAME_ORDER,
};

/**
 * The candidates, ranked by how much of the whole query their text holds, and when a postal code was
 * typed the best within the suburbs and towns of that code (so that a common street name is not crowded
 * out by its namesakes elsewhere); on each, the address for the typed number.
 */
function addressStatement(mode: CandidateMode, withNumber: boolean, withPostal: boolean): string {
  // Every parameter typed once here, whether or not this variant uses it (PostgreSQL refuses untyped ones).
  return `
    WITH input AS (SELECT $1::text AS text, $2::int AS size, $3::bpchar AS postal_code, $4::int AS number,
                          $5::text AS house_number, $6::text AS unit, $7::text AS core, $8::text AS area,
                          $9::text AS typed_name, $10::text AS initial, $11::text AS area_last,
                          $12::text AS area_key, $13::text AS candidate_text, $14::text AS name_prefix,
                          $15::text AS afrikaans_name),
    ${
      mode === 'area-initial'
        ? AREA_INITIAL_CANDIDATES.replace('NAME_ORDER', NAME_ORDER).replace('TYPE_ORDER', TYPE_ORDER)
        : `by_text AS (
      SELECT s.id FROM geo.streets s
      WHERE ${CANDIDATE_CONDITION[mode]}
      ORDER BY ${CANDIDATE_ORDER[mode]} DESC,${NAMED_MODES.has(mode) ? ` ${TYPE_ORDER} DESC,` : ''} s.importance DESC, s.id
      LIMIT $2
    )`
    }${
      withPostal
        ? `, postal_places AS (
      SELECT place_id FROM geo.postal_codes
      WHERE (street_code = $3::bpchar OR box_code = $3::bpchar) AND place_id IS NOT NULL
    ), in_postal_area AS (
      SELECT s.id FROM geo.streets s
      -- As arrays, not IN (subquery): an OR of two subqueries is a scan of every street (260 000 at 10 M
      -- addresses), two = ANY are index scans on suburb and town OR-ed in one bitmap.
      WHERE s.suburb_id = ANY (ARRAY(SELECT place_id FROM postal_places))
         OR s.town_id = ANY (ARRAY(SELECT place_id FROM postal_places))
      ORDER BY ${CANDIDATE_ORDER[NAMED_MODES.has(mode) ? 'core' : mode]} DESC,${NAMED_MODES.has(mode) ? ` ${TYPE_ORDER} DESC,` : ''} s.importance DESC, s.id
      LIMIT $2
    ), candidates AS (SELECT id FROM by_text UNION SELECT id FROM in_postal_area)`
        : `, candidates AS (SELECT id FROM by_text)`
    }
    SELECT s.id::text AS street_id, s.name AS street, s.suburb AS street_suburb, s.town AS street_town,
           s.importance, word_similarity($1, s.search_text) AS query_in_text,
           CASE WHEN $8 <> '' THEN word_similarity($8, s.search_text) END AS area_in_text,
           s.source || ':' || s.source_id AS street_key,
           ST_Y(mid.point) AS street_lat, ST_X(mid.point) AS street_lng, a.*
    FROM candidates c
    JOIN geo.streets s ON s.id = c.id
    CROSS JOIN LATERAL (SELECT CASE WHEN s.geom IS NOT NULL THEN ST_ClosestPoint(s.geom, ST_Centroid(s.geom)) END AS point) mid
    LEFT JOIN LATERAL (${withNumber ? ADDRESS_BY_NUMBER : FIRST_ADDRESS}) a ON true`;
}

/**
 * Words of a suburb's or town's name that half the country's places share ("Naledi Extension 1", "Soshanguve
 * South"): in the area a query types they would make nearly every street's text a candidate (a third of
 * the streets hold "extension"), so the candidates are found by the area's other words; the ranking still
 * compares the whole area typed.
 */
const COMMON_AREA_WORDS = new Set([
  'extension',
  'ext',
  'north',
  'south',
  'east',
  'west',
  'central',
  'noord',
  'suid',
  'oos',
  'wes',
]);

/** The area typed without its common words and numbers; the whole area when nothing else is left. */
export function areaKey(area: string): string {
  const own = area.split(' ').filter((word) => !COMMON_AREA_WORDS.has(word) && !/^\d+$/.test(word));
  return own.length > 0 ? own.join(' ') : area;
}

/** A first try this sure needs no second. */
const SURE_ENOUGH = 0.6;

/** Street addresses (and streets, when no house number is typed) matching the query. */
export async function searchAddresses(
  db: Queryable,
  text: SearchText,
  options: SearchOptions,
): Promise<Ranked[]> {
  const query = readAddressQuery(text);
  if (!/[a-z]/.test(query.text)) return [];
  const street = splitStreetQuery(query.text);
  const first: CandidateMode = !street
    ? 'prefix'
    : !/[a-z]/.test(street.core)
      ? 'text'
      : street.area
        ? 'core-area'
        : 'core';
  const sure = (results: Ranked[]) => results.some((result) => result.item.confidence >= SURE_ENOUGH);
  const found = await addressesBy(db, query, street, first, options);
  if (first === 'text' || sure(found)) return found;
  // Without a street type: what is typed is the start of a name ("park r", "kensin"), or else it is
  // matched whole — not when it is one short word, which would match the start of half the country.
  if (first === 'prefix') {
    if (found.length > 0 || /^[a-z]{1,5}$/.test(query.text)) return found;
    return addressesBy(db, query, street, 'text', options);
  }
  const seen = new Set(found.map((result) => `${result.item.type}:${result.item.id}`));
  const add = (more: Ranked[]) => {
    for (const result of more) {
      const key = `${result.item.type}:${result.item.id}`;
      if (!seen.has(key)) found.push(result);
      seen.add(key);
    }
  };
  if (!street?.area) {
    add(await addressesBy(db, query, street, 'text', options));
    return found;
  }
  add(await addressesBy(db, query, street, 'text-area', options));
  // A typo in a short name: the streets of the area typed by the name's first letter (a name of 4
  // letters or more: shorter ones are not told apart by one typo), when the area is more than begun (one
  // or two letters typed name a thousand places).
  if (!sure(found) && /^[a-z]{4,}/.test(street.core) && /[a-z]{3}/.test(street.area))
    add(await addressesBy(db, query, street, 'area-initial', options));
  if (!sure(found)) add(await addressesBy(db, query, street, 'text', options));
  return found;
}

async function addressesBy(
  db: Queryable,
  query: AddressQuery,
  street: ReturnType<typeof splitStreetQuery>,
  mode: CandidateMode,
  options: SearchOptions,
): Promise<Ranked[]> {
  const withNumber = query.number !== undefined;
  const withPostal = query.postalCode !== undefined;
  const rows: AddressRow[] = await db.query(addressStatement(mode, withNumber, withPostal), [
    query.text,
    options.limit + 20,
    query.postalCode ?? null,
    query.number ?? null,
    query.houseNumber ?? null,
    query.unit ?? null,
    street?.core ?? null,
    street?.area ?? null,
    street ? `${street.core} ${street.type}` : null,
    street ? `${street.core[0]}%` : null,
    street?.area.split(' ').at(-1) ?? null,
    street ? areaKey(street.area) : null,
    street ? `${street.core} ${street.area}`.trim() || query.text : query.text,
    `${query.text.replace(/[%_\\]/g, '')}%`,
    street?.type ? (afrikaansCompound(street.core, street.type) ?? null) : null,
  ]);
  const queryWords = query.text.split(' ');
  const coreWords = street?.core.split(' ') ?? [];
  const areaWords = street?.area ? street.area.split(' ') : [];
  // A query that names the street by its own name is scored on its name and area, however its candidates
  // were found (the second try's whole-text match finds them when a typo hides the name's trigrams).
  const named = !!street && /[a-z]/.test(street.core);
  const results: Ranked[] = [];
  for (const row of rows) {
    const nameWords = normaliseForSearch(row.street).split(' ');
    const nameCovered = nameCoverage(nameWords, queryWords);
    // The area word by word (a typo in a short town's name), or by trigrams (words run together).
    const areaMatch = areaWords.length
      ? Math.max(
          areaCoverage(areaWords, normaliseForSearch(`${row.street_suburb} ${row.street_town}`).split(' ')),
          0.9 * Number(row.area_in_text ?? 0),
        )
      : null;
    const textScore = !named
      ? streetTextScore(Number(row.query_in_text), nameCovered)
      : namedStreetScore(nameCovered, coreCoverage(coreWords, nameWords), areaMatch) *
        streetTypeFactor(street?.type, nameWords);
    const hasAddress = row.address_id !== null;
    const factor = agreementFactor({
      numberTyped: withNumber,
      exactNumber: hasAddress && row.house_number?.toLowerCase() === query.houseNumber,
      sameNumber: hasAddress && row.number_value === query.number,
      gap: hasAddress && row.number_value !== null ? Math.abs(row.number_value - (query.number ?? 0)) : null,
      unitTyped: query.unit !== undefined,
      unitMatches: hasAddress && row.unit?.toLowerCase() === query.unit,
      unitUntyped: query.unit === undefined && hasAddress && !!row.unit,
      postalTyped: withPostal,
      postalMatches: hasAddress && row.postal_code === query.postalCode,
    });
    const score = confidence(textScore * factor);
    if (score < MIN_CONFIDENCE) continue;
    if (withNumber && hasAddress) {
      const parts = {
        houseNumber: row.house_number,
        street: row.street,
        unit: row.unit,
        estate: row.estate,
        suburb: row.suburb,
        town: row.town,
        postalCode: row.postal_code,
      };
      results.push({
        importance: Number(row.importance),
        item: item(
          'address',
          { id: row.address_id!, lat: row.lat!, lng: row.lng! },
          {
            formatted_address: formatAddress(parts),
            short_formatted_address: shortAddress(parts),
            confidence: score,
            suburb: row.suburb || undefined,
            town: row.town || undefined,
            postalCode: row.postal_code ?? undefined,
            ...withIds(options, { parcelId: row.parcel_id, sourceKey: row.address_key }),
          },
        ),
      });
      continue;
    }
    // The street: where its line is, or its first address when it has no line; neither, nothing to show.
    const lat = row.street_lat ?? row.lat;
    const lng = row.street_lng ?? row.lng;
    if (lat === null || lng === null) continue;
    const parts = {
      street: row.street,
      suburb: row.street_suburb,
      town: row.street_town,
      postalCode: row.postal_code,
    };
    results.push({
      importance: Number(row.importance),
      item: item(
        'street',
        { id: row.street_id, lat, lng },
        {
          formatted_address: formatAddress(parts),
          short_formatted_address: row.street,
          confidence: score,
          suburb: row.street_suburb || undefined,
          town: row.street_town || undefined,
          postalCode: row.postal_code ?? undefined,
          ...withIds(options, { sourceKey: row.street_key }),
        },
      ),
    });
  }
  return results;
}

// ---------------------------------------------------------------------------------------------------
// Points of interest

interface PoiRow {
  id: string;
  name: string;
  suburb: string;
  town: string;
  importance: number;
  lat: number;
  lng: number;
  parcel_id: string | null;
  source_key: string;
  name_in_query: number;
  query_in_text: number;
  house_number: string | null;
  street: string | null;
  postal_code: string | null;
}

/**
 * POIs whose name resembles the query or contains it (both through the name's trigram index), scored by
 * how much of the name was typed and how much of the query the name, suburb and town hold.
 */
export async function searchPois(db: Queryable, text: SearchText, options: SearchOptions): Promise<Ranked[]> {
  if (!/[a-z]/.test(text.folded)) return [];
  const rows: PoiRow[] = await db.query(
    `SELECT p.id::text AS id, p.name, p.suburb, p.town, p.importance, ST_Y(p.point) AS lat, ST_X(p.point) AS lng,
            p.parcel_id::text AS parcel_id, p.source || ':' || p.source_id AS source_key,
            word_similarity(lower(p.name), $1) AS name_in_query,
            word_similarity($1, lower(p.name || ' ' || p.suburb || ' ' || p.town)) AS query_in_text,
            a.house_number, a.street_name AS street, a.postal_code
     FROM geo.pois p
     LEFT JOIN geo.addresses a ON a.id = p.address_id
     WHERE lower(p.name) % $1 OR $1 <% lower(p.name)
     ORDER BY greatest(similarity(lower(p.name), $1), word_similarity($1, lower(p.name))) DESC, p.importance DESC, p.id
     LIMIT $2`,
    [text.folded, options.limit + 20],
  );
  return rows.flatMap((row) => {
    const score = confidence(0.5 * Number(row.name_in_query) + 0.5 * Number(row.query_in_text));
    if (score < MIN_CONFIDENCE) return [];
    const where = formatAddress({
      houseNumber: row.house_number,
      street: row.street,
      suburb: row.suburb,
      town: row.town,
      postalCode: row.postal_code,
    });
    return [
      {
        importance: Number(row.importance),
        item: item('poi', row, {
          formatted_address: [row.name, where].filter(Boolean).join(', '),
          short_formatted_address: row.name,
          confidence: score,
          suburb: row.suburb || undefined,
          town: row.town || undefined,
          postalCode: row.postal_code ?? undefined,
          ...withIds(options, { parcelId: row.parcel_id, sourceKey: row.source_key }),
        }),
      },
    ];
  });
}

// ---------------------------------------------------------------------------------------------------
// Places: suburbs and towns (the marker flag: the area around a point, or by name)

interface PlaceRow {
  id: string;
  kind: string;
  name: string;
  parent_name: string | null;
  importance: number;
  lat: number;
  lng: number;
  source_key: string;
  name_in_query: number;
  query_in_text: number;
}

export async function searchPlaces(
  db: Queryable,
  text: SearchText,
  options: SearchOptions,
): Promise<Ranked[]> {
  if (!/[a-z]/.test(text.folded)) return [];
  const rows: PlaceRow[] = await db.query(
    `SELECT pl.id::text AS id, pl.kind, pl.name, parent.name AS parent_name, pl.importance,
            ST_Y(pl.point) AS lat, ST_X(pl.point) AS lng, pl.source || ':' || pl.source_id AS source_key,
            word_similarity(lower(pl.name), $1) AS name_in_query,
            word_similarity($1, lower(pl.name || ' ' || coalesce(parent.name, ''))) AS query_in_text
     FROM geo.places pl
     LEFT JOIN geo.places parent ON parent.id = pl.parent_id
     WHERE pl.kind IN ('suburb', 'town') AND (lower(pl.name) % $1 OR $1 <% lower(pl.name))
     ORDER BY greatest(similarity(lower(pl.name), $1), word_similarity($1, lower(pl.name))) DESC, pl.importance DESC, pl.id
     LIMIT $2`,
    [text.folded, options.limit + 20],
  );
  return rows.flatMap((row) => {
    // Both ways round: the place's name typed, and nothing typed but the place ("12 Church Street, Paarl"
    // names Paarl, but is not a search for it).
    const score = confidence(Number(row.name_in_query) * Number(row.query_in_text));
    if (score < MIN_CONFIDENCE) return [];
    const parent = row.parent_name && row.parent_name !== row.name ? row.parent_name : undefined;
    return [
      {
        importance: Number(row.importance),
        item: item('place', row, {
          formatted_address: [row.name, parent].filter(Boolean).join(', '),
          short_formatted_address: row.name,
          confidence: score,
          ...(row.kind === 'suburb' ? { suburb: row.name, town: parent } : { town: row.name }),
          ...withIds(options, { sourceKey: row.source_key }),
        }),
      },
    ];
  });
}

// ---------------------------------------------------------------------------------------------------
// Farms

interface FarmRow {
  id: string;
  name: string;
  farm_number: number | null;
  portion: number;
  division: string;
  town: string;
  province: string;
  lat: number;
  lng: number;
  parcel_id: string | null;
  source_key: string;
  name_score: number | null;
}

export function farmTitle(farm: {
  name: string;
  farm_number: number | null;
  division: string;
  portion: number;
}) {
  const title = [farm.name, farm.farm_number ?? undefined, farm.division || undefined]
    .filter(Boolean)
    .join(' ');
  return farm.portion > 0 ? `Portion ${farm.portion} of ${title}` : title;
}

/**
 * Farms by number (B-tree on farm_number, portion) or name (trigram index). A typed name that differs
 * costs much, a typed portion or division that differs a little; without a typed portion the whole farm
 * or its remainder comes first.
 */
export async function searchFarms(
  db: Queryable,
  text: SearchText,
  options: SearchOptions,
): Promise<Ranked[]> {
  const farm = parseFarmQuery(text);
  if (!farm) return [];
  // A typed number finds the few farms that carry it (farm names repeat by the hundred, and fuzzy matches of
  // "...fontein" by the thousand); by name only when no number is typed, or none carries it.
  let rows = farm.farmNumber !== undefined ? await farmsBy(db, farm, 'f.farm_number = $2', options) : [];
  if (!rows.length && farm.name)
    rows = await farmsBy(db, farm, '(lower(f.name) % $1 OR $1 <% lower(f.name))', options);
  return rows.flatMap((row) => {
    const score = confidence(farmScore(farm, row));
    if (score < MIN_CONFIDENCE) return [];
    const title = farmTitle(row);
    return [
      {
        importance: 0,
        item: item('farm', row, {
          formatted_address: [title, row.town, row.province].filter(Boolean).join(', '),
          short_formatted_address: title,
          confidence: score,
          town: row.town || undefined,
          ...withIds(options, { parcelId: row.parcel_id, sourceKey: row.source_key }),
        }),
      },
    ];
  });
}

function farmsBy(
  db: Queryable,
  farm: FarmQuery,
  condition: string,
  options: SearchOptions,
): Promise<FarmRow[]> {
  return db.query(
    // Every parameter typed once (the name variant does not use the number).
    `WITH input AS (SELECT $1::text AS name, $2::int AS farm_number, $3::int AS portion)
     SELECT f.id::text AS id, f.name, f.farm_number, f.portion, f.division, f.town, f.province,
            ST_Y(ST_PointOnSurface(f.geom)) AS lat, ST_X(ST_PointOnSurface(f.geom)) AS lng,
            f.parcel_id::text AS parcel_id, f.source || ':' || f.source_id AS source_key,
            CASE WHEN $1 <> '' THEN greatest(similarity(lower(f.name), $1), word_similarity($1, lower(f.name))) END AS name_score
     FROM geo.farms f
     WHERE ${condition}
     ORDER BY CASE WHEN $1 <> '' THEN greatest(similarity(lower(f.name), $1), word_similarity($1, lower(f.name))) ELSE 1 END DESC,
              (f.portion IS NOT DISTINCT FROM $3) DESC, f.portion, f.id
     LIMIT $4`,
    [farm.name, farm.farmNumber ?? null, farm.portion ?? null, options.limit + 40],
  );
}

function farmScore(farm: FarmQuery, row: FarmRow): number {
  let score = farm.name ? Number(row.name_score ?? 0) : 1;
  if (farm.farmNumber !== undefined) score *= row.farm_number === farm.farmNumber ? 1 : farm.name ? 0.6 : 0;
  if (farm.portion !== undefined) score *= row.portion === farm.portion ? 1 : 0.85;
  else if (row.portion > 0) score *= 0.97;
  if (farm.division) score *= row.division.toLowerCase() === farm.division ? 1 : 0.8;
  return score;
}

// ---------------------------------------------------------------------------------------------------
// Erven (parcels by number)

interface ErfRow {
  id: string;
  parcel_number: string;
  portion: number;
  suburb: string;
  town: string;
  lat: number;
  lng: number;
  sg_key: string | null;
  source_key: string;
  area_score: number;
  house_number: string | null;
  street: string | null;
  unit: string | null;
  estate: string | null;
}

export function erfTitle(parcel: { parcel_number: string; portion: number }): string {
  return parcel.portion > 0 ? `Erf ${parcel.parcel_number}/${parcel.portion}` : `Erf ${parcel.parcel_number}`;
}

/**
 * Parcels by number (B-tree on parcel_number, portion): every erf with that number, scored by how well
 * its suburb and town match the rest of the query, with the first address on it for the answer.
 */
export async function searchErven(
  db: Queryable,
  text: SearchText,
  options: SearchOptions,
  requireWord: boolean,
): Promise<Ranked[]> {
  const erf = parseErfQuery(text, requireWord);
  if (!erf) return [];
  const rows: ErfRow[] = await db.query(
    `SELECT p.id::text AS id, p.parcel_number, p.portion, p.suburb, p.town, p.sg_key,
            ST_Y(ST_PointOnSurface(p.geom)) AS lat, ST_X(ST_PointOnSurface(p.geom)) AS lng,
            p.source || ':' || p.source_id AS source_key,
            CASE WHEN $2 = '' THEN 1 ELSE word_similarity($2, lower(p.suburb || ' ' || p.town)) END AS area_score,
            a.house_number, a.street_name AS street, a.unit, a.estate
     FROM geo.parcels p
     LEFT JOIN LATERAL (
       SELECT house_number, street_name, unit, estate FROM geo.addresses
       WHERE parcel_id = p.id ORDER BY unit NULLS FIRST, number_value, id LIMIT 1
     ) a ON true
     WHERE p.parcel_number = $1
       -- A farm portion has a number too, of another series: the farm search finds those.
       AND NOT EXISTS (SELECT 1 FROM geo.farms f WHERE f.parcel_id = p.id)
     ORDER BY area_score DESC, (p.portion IS NOT DISTINCT FROM $3) DESC, p.portion, p.id
     LIMIT $4`,
    [erf.parcelNumber, erf.area, erf.portion ?? null, options.limit + 20],
  );
  return rows.flatMap((row) => {
    const score = confidence(erfScore(erf, row));
    if (score < MIN_CONFIDENCE) return [];
    const title = erfTitle(row);
    const address = row.street
      ? shortAddress({
          houseNumber: row.house_number,
          street: row.street,
          unit: row.unit,
          estate: row.estate,
        })
      : undefined;
    const area = formatAddress({ suburb: row.suburb, town: row.town });
    return [
      {
        importance: 0,
        item: item('erf', row, {
          formatted_address: [title, address, area].filter(Boolean).join(', '),
          short_formatted_address: address ? `${title}, ${address}` : title,
          confidence: score,
          suburb: row.suburb || undefined,
          town: row.town || undefined,
          ...withIds(options, { parcelId: row.id, sourceKey: row.sg_key ?? row.source_key }),
        }),
      },
    ];
  });
}

function erfScore(erf: ErfQuery, row: ErfRow): number {
  // Without an area every erf with the number is as likely; the number alone is a weak answer.
  let score = erf.area ? Number(row.area_score) : 0.6;
  if (erf.portion !== undefined) score *= row.portion === erf.portion ? 1 : 0.85;
  else if (row.portion > 0) score *= 0.97;
  return score;
}

// ---------------------------------------------------------------------------------------------------
// Postal codes

interface PostalRow {
  id: string;
  street_code: string | null;
  box_code: string | null;
  suburb: string;
  town: string;
  lat: number | null;
  lng: number | null;
  importance: number | null;
  source_key: string;
  name_score: number | null;
}

/** Postal codes by code (street or box code, B-tree) and/or by suburb and town (trigram index). */
export async function searchPostalCodes(
  db: Queryable,
  text: SearchText,
  options: SearchOptions,
): Promise<Ranked[]> {
  const { code, name } = splitPostalQuery(text);
  if (!code && !/[a-z]/.test(name)) return [];
  const rows: PostalRow[] = await db.query(
    `SELECT pc.id::text AS id, pc.street_code, pc.box_code, pc.suburb, pc.town,
            ST_Y(coalesce(pc.point, pl.point)) AS lat, ST_X(coalesce(pc.point, pl.point)) AS lng,
            pl.importance, pc.source || ':' || pc.source_id AS source_key,
            CASE WHEN $2 <> '' THEN word_similarity($2, lower(pc.suburb || ' ' || pc.town)) END AS name_score
     FROM geo.postal_codes pc
     LEFT JOIN geo.places pl ON pl.id = pc.place_id
     WHERE (($1::bpchar IS NOT NULL AND (pc.street_code = $1::bpchar OR pc.box_code = $1::bpchar))
            OR ($1::bpchar IS NULL AND (lower(pc.suburb || ' ' || pc.town) % $2 OR $2 <% lower(pc.suburb || ' ' || pc.town))))
     ORDER BY name_score DESC NULLS LAST, pc.street_code = $1::bpchar DESC, pc.id
     LIMIT $3`,
    [code ?? null, name, options.limit + 20],
  );
  return rows.flatMap((row) => {
    if (row.lat === null || row.lng === null) return [];
    let score = name ? Number(row.name_score ?? 0) : 1;
    // A box code is where the post is collected, not where the suburb is: a little less sure.
    if (code && row.street_code !== code) score *= 0.95;
    score = confidence(score);
    if (score < MIN_CONFIDENCE) return [];
    const shown = row.street_code ?? row.box_code ?? '';
    const area = formatAddress({ suburb: row.suburb, town: row.town });
    return [
      {
        importance: Number(row.importance ?? 0),
        item: item(
          'postal',
          { id: row.id, lat: row.lat, lng: row.lng },
          {
            formatted_address: [area, shown].filter(Boolean).join(', '),
            short_formatted_address: shown,
            confidence: score,
            suburb: row.suburb || undefined,
            town: row.town || undefined,
            postalCode: shown || undefined,
            ...withIds(options, { sourceKey: row.source_key }),
          },
        ),
      },
    ];
  });
}

// ---------------------------------------------------------------------------------------------------
// The calls

/** Flags as sent; none set means a general search: addresses, POIs, areas and postal codes. */
export function effectiveFlags(flags: SearchFlags | undefined): Required<SearchFlags> {
  const chosen = {
    address: !!flags?.address,
    poi: !!flags?.poi,
    farm: !!flags?.farm,
    erf: !!flags?.erf,
    marker: !!flags?.marker,
    postal: !!flags?.postal,
  };
  if (Object.values(chosen).some(Boolean)) return chosen;
  return { address: true, poi: true, farm: false, erf: false, marker: true, postal: true };
}

/** POST /api/avs/search: each chosen kind searched at once, merged best first. */
export async function search(
  db: Queryable,
  text: SearchText,
  flags: Required<SearchFlags>,
  options: SearchOptions,
): Promise<SearchResultItem[]> {
  const searches: Promise<Ranked[]>[] = [];
  if (flags.address) searches.push(searchAddresses(db, text, options));
  if (flags.poi) searches.push(searchPois(db, text, options));
  if (flags.farm) searches.push(searchFarms(db, text, options));
  // With the erf flag a leading number is an erf number; an address search also finds "erf 1234 ...".
  if (flags.erf || flags.address) searches.push(searchErven(db, text, options, !flags.erf));
  if (flags.marker) searches.push(searchPlaces(db, text, options));
  if (flags.postal) searches.push(searchPostalCodes(db, text, options));
  return rank((await Promise.all(searches)).flat(), options.limit);
}

/** A geocode answer this sure is an address; below it the areas and codes the query names are added. */
const GEOCODE_SURE = 0.6;

/**
 * POST /api/avs/geocode: the address (or erf, "erf 1234 ...") the query names; when no address is a good
 * match, the suburbs, towns and postal codes it names too, so "Stellenbosch" still finds a place.
 */
export async function geocode(
  db: Queryable,
  text: SearchText,
  options: SearchOptions,
): Promise<SearchResultItem[]> {
  const found = (
    await Promise.all([searchAddresses(db, text, options), searchErven(db, text, options, true)])
  ).flat();
  if (!found.some((result) => result.item.confidence >= GEOCODE_SURE)) {
    const areas = await Promise.all([searchPlaces(db, text, options), searchPostalCodes(db, text, options)]);
    found.push(...areas.flat());
  }
  return rank(found, options.limit);
}
