import {
  VALIDATION_THRESHOLDS,
  type AddressPartsAnswer,
  type SearchResultItem,
  type ValidatedParcel,
  type ValidationResult,
  type ValidationVerdict,
} from '@portal/contracts';
import { formatAddress, type Queryable } from '@portal/geo';
import { HttpError } from '@portal/server-kit';
import { readSearchText } from '../avs/parse';
import { erfTitle, geocode, RESULT_LIMIT } from '../avs/search';

/**
 * Address validation (POST /api/avs/validate and /validate/batch): the address service's geocoder finds
 * the best match for what was typed (avs/search.ts, the same ranking the request tool's search uses), and
 * the match is written out in full here — the standardised address, its parts, the parcel — with a
 * verdict from its confidence.
 */

type MatchType = NonNullable<ValidationResult['matchType']>;
const MATCH_TYPES: ReadonlySet<string> = new Set<MatchType>(['address', 'street', 'erf']);

/**
 * The verdict for a match. Only an address or an erf can be valid: a street match means the street
 * exists but the typed number was not given (or not found), so the property itself is not confirmed.
 */
export function verdictOf(matchType: MatchType, confidence: number): ValidationVerdict {
  if (confidence >= VALIDATION_THRESHOLDS.valid && matchType !== 'street') return 'valid';
  if (confidence >= VALIDATION_THRESHOLDS.probable) return 'probable';
  return 'not found';
}

const notFound = (query: string, confidence: number, error?: string): ValidationResult => ({
  query,
  verdict: 'not found',
  confidence,
  matchType: null,
  formatted_address: null,
  parts: null,
  location: null,
  parcel: null,
  ...(error ? { error } : {}),
});

interface DetailRow {
  house_number: string | null;
  street: string | null;
  unit: string | null;
  estate: string | null;
  suburb: string | null;
  town: string | null;
  postal_code: string | null;
  parcel_id: string | null;
  parcel_number: string | null;
  portion: number | null;
}

const PARCEL_COLUMNS = `p.id::text AS parcel_id, p.parcel_number, p.portion`;

/** The stored parts of the matched feature and the parcel it lies on. */
async function detailsOf(db: Queryable, match: SearchResultItem): Promise<DetailRow | undefined> {
  let rows: DetailRow[];
  if (match.type === 'address') {
    rows = await db.query(
      `SELECT a.house_number, a.street_name AS street, a.unit, a.estate, a.suburb, a.town, a.postal_code,
              ${PARCEL_COLUMNS}
       FROM geo.addresses a LEFT JOIN geo.parcels p ON p.id = a.parcel_id
       WHERE a.id = $1`,
      [match.id],
    );
  } else if (match.type === 'street') {
    // The street's first address gives its postal code (streets carry none of their own).
    rows = await db.query(
      `SELECT NULL AS house_number, s.name AS street, NULL AS unit, NULL AS estate, s.suburb, s.town,
              (SELECT a.postal_code FROM geo.addresses a WHERE a.street_id = s.id AND a.postal_code IS NOT NULL
               ORDER BY a.number_value NULLS LAST, a.id LIMIT 1) AS postal_code,
              NULL AS parcel_id, NULL AS parcel_number, NULL::int AS portion
       FROM geo.streets s WHERE s.id = $1`,
      [match.id],
    );
  } else {
    // An erf: its own suburb and town, and the first street address on it, as the erf search shows it.
    rows = await db.query(
      `SELECT a.house_number, a.street_name AS street, a.unit, a.estate, p.suburb, p.town, a.postal_code,
              ${PARCEL_COLUMNS}
       FROM geo.parcels p
       LEFT JOIN LATERAL (
         SELECT house_number, street_name, unit, estate, postal_code FROM geo.addresses
         WHERE parcel_id = p.id ORDER BY unit NULLS FIRST, number_value, id LIMIT 1
       ) a ON true
       WHERE p.id = $1`,
      [match.id],
    );
  }
  return rows[0];
}

const orNull = (value: string | null | undefined) => (value ? value : null);

/** Validates one address; a text that cannot be searched (empty, too long, no words) is a 400. */
export async function validateAddress(db: Queryable, address: string): Promise<ValidationResult> {
  const text = readSearchText(address);
  const query = address.trim();
  const candidates = await geocode(db, text, { limit: RESULT_LIMIT.default, includeIds: false });
  // The geocoder adds the areas and postal codes the text names when no address fits it well; when one
  // of them is the best match, the text names an area ("Stellenbosch"), not an address.
  const [match] = candidates;
  if (!match || !MATCH_TYPES.has(match.type)) return notFound(query, 0);
  const matchType = match.type as MatchType;
  const verdict = verdictOf(matchType, match.confidence);
  if (verdict === 'not found') return notFound(query, match.confidence);
  const row = await detailsOf(db, match);
  // Gone between the two statements (a data reload): as good as not found.
  if (!row) return notFound(query, 0);

  const parts: AddressPartsAnswer = {
    number: orNull(row.house_number),
    street: orNull(row.street),
    unit: orNull(row.unit),
    estate: orNull(row.estate),
    suburb: orNull(row.suburb),
    town: orNull(row.town),
    postalCode: orNull(row.postal_code),
  };
  const parcel: ValidatedParcel | null =
    row.parcel_id && row.parcel_number !== null
      ? {
          id: row.parcel_id,
          number: row.parcel_number,
          portion: Number(row.portion ?? 0),
          title: erfTitle({ parcel_number: row.parcel_number, portion: Number(row.portion ?? 0) }),
        }
      : null;
  // An erf without a street address on it is written as the erf search writes it ("Erf 1234, Suburb, Town").
  const formatted =
    matchType === 'erf' && !parts.street
      ? match.formatted_address
      : formatAddress({ houseNumber: parts.number, ...parts });
  return {
    query,
    verdict,
    confidence: match.confidence,
    matchType,
    formatted_address: formatted,
    parts,
    location: match.location,
    parcel,
  };
}

/**
 * How many addresses of a batch are validated at once: each takes a few short statements, so a handful
 * in flight keeps the pool's connections busy without taking all of them from the other calls.
 */
export const BATCH_CONCURRENCY = 4;

/**
 * Validates addresses in order. A row that cannot be searched (an empty line of a CSV file, a note
 * where the address should be) is answered as not found with the reason, so one bad row does not refuse
 * the other 99; anything else (the database down) fails the call, and the client retries the chunk.
 */
export async function validateBatch(
  db: Queryable,
  addresses: readonly string[],
): Promise<ValidationResult[]> {
  const results = new Array<ValidationResult>(addresses.length);
  let next = 0;
  const worker = async () => {
    while (next < addresses.length) {
      const at = next++;
      try {
        results[at] = await validateAddress(db, addresses[at]);
      } catch (error) {
        if (!(error instanceof HttpError) || error.statusCode !== 400) throw error;
        results[at] = notFound(addresses[at].trim(), 0, error.message);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(BATCH_CONCURRENCY, addresses.length) }, worker));
  return results;
}
