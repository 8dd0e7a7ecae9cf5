import {
  REQUEST_FILTER_NAMES,
  REQUEST_STATUSES,
  REQUEST_SUBTYPES,
  REQUEST_TYPES,
  type RequestFilterName,
  type RequestFilterQuery,
  type RequestStatus,
  type RequestType,
} from '@portal/contracts';
import { containsPattern, SqlParameters } from '@portal/db';
import { badRequest } from '@portal/server-kit';

/**
 * The request queue's filters (spec 02 §7.2, spec 03 §7): parsed once, checked with clear 400s, and turned
 * into one WHERE clause over `requests.requests r`. Shared by the pager, the streamed list, the status
 * counts, the xlsx export and the zip worker, so every one of them reads the same rows for the same query.
 */
export interface ParsedRequestFilters {
  requestTypes: RequestType[] | null;
  requestSubTypes: string[] | null;
  statuses: RequestStatus[] | null;
  /** Case-insensitive "contains" texts. */
  client: string | null;
  gripReference: string | null;
  clientReference: string | null;
  email: string | null;
  firstUser: string | null;
  address: string | null;
  invoiceNumber: string | null;
  /** created_at >= from. */
  from: Date | null;
  /** created_at < to (exclusive: a date alone is moved to the start of the next day). */
  to: Date | null;
  cantLocate: boolean | null;
  reportDisputed: boolean | null;
  downloaded: boolean | null;
  priority: boolean | null;
  /** Exact owner. */
  userId: string | null;
}

export const FILTER_TEXT = {
  badStatus: (value: string) => `Unknown status '${value}'. Statuses: ${REQUEST_STATUSES.join(', ')}.`,
  badType: (value: string) => `Unknown request type '${value}'. Types: ${REQUEST_TYPES.join(', ')}.`,
  badSubType: (value: string) =>
    `Unknown request subtype '${value}'. Subtypes: ${REQUEST_SUBTYPES.join(', ')}.`,
  badDate: (name: string) =>
    `${name} must be epoch milliseconds, a date (YYYY-MM-DD) or a date-time (ISO 8601).`,
  dates: 'start_date must be before end_date.',
  badYesNo: (name: string) => `${name} must be Yes, No, true or false.`,
  badUserId: 'user_id must be a user id (a UUID).',
  badFiltersJson: 'filters must be a JSON object of filter names and text values.',
  unknownFilter: (name: string) => `Unknown filter '${name}'. Filters: ${REQUEST_FILTER_NAMES.join(', ')}.`,
} as const;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const EPOCH_MS = /^-?\d{1,15}$/;
const DAY_MS = 24 * 3600 * 1000;

/** The filters of the JSON `filters` parameter, merged under the named parameters (named ones win). */
function mergedFilters(query: Record<string, unknown>): Partial<Record<RequestFilterName, string>> {
  const merged: Partial<Record<RequestFilterName, string>> = {};
  const raw = query.filters;
  if (typeof raw === 'string' && raw.trim() !== '') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch {
      throw badRequest(FILTER_TEXT.badFiltersJson);
    }
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
      throw badRequest(FILTER_TEXT.badFiltersJson);
    for (const [name, value] of Object.entries(parsed as Record<string, unknown>)) {
      if (!(REQUEST_FILTER_NAMES as readonly string[]).includes(name))
        throw badRequest(FILTER_TEXT.unknownFilter(name));
      if (value === null || value === undefined) continue;
      if (typeof value === 'boolean') merged[name as RequestFilterName] = value ? 'true' : 'false';
      else if (typeof value === 'string' || typeof value === 'number')
        merged[name as RequestFilterName] = String(value);
      else if (Array.isArray(value) && value.every((item) => typeof item === 'string'))
        merged[name as RequestFilterName] = value.join(',');
      else throw badRequest(FILTER_TEXT.badFiltersJson);
    }
  }
  for (const name of REQUEST_FILTER_NAMES) {
    const value = query[name];
    if (typeof value === 'string') merged[name] = value;
  }
  return merged;
}

/** A filter's text, trimmed; null when there is none. */
const trimmedOrNull = (value: string | undefined) => {
  const trimmed = (value ?? '').trim();
  return trimmed === '' ? null : trimmed;
};

/**
 * A comma-separated filter of known values (`status=New,QC check`): the distinct values, null when none is
 * given; a value that is not one of `allowed` is a 400 naming it.
 */
export function allowedValues<T extends string>(
  value: string | undefined,
  allowed: readonly T[],
  message: (v: string) => string,
) {
  const items = (value ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
  if (items.length === 0) return null;
  for (const item of items) if (!allowed.includes(item as T)) throw badRequest(message(item));
  return [...new Set(items)] as T[];
}

function yesNo(name: string, value: string | undefined): boolean | null {
  const given = trimmedOrNull(value);
  if (given === null) return null;
  const lower = given.toLowerCase();
  if (lower === 'yes' || lower === 'true') return true;
  if (lower === 'no' || lower === 'false') return false;
  throw badRequest(FILTER_TEXT.badYesNo(name));
}

/**
 * A date filter as an instant. Epoch milliseconds or an ISO date-time are taken as they are (an end is
 * included: the bound moves one millisecond on); a date alone is a South African day (SAST, UTC+2, spec 03
 * §9), and an end day is included whole.
 */
export function dateBound(name: string, value: string | undefined, end: boolean): Date | null {
  const given = trimmedOrNull(value);
  if (given === null) return null;
  let date: Date;
  if (EPOCH_MS.test(given)) date = new Date(Number(given));
  else if (DATE_ONLY.test(given)) date = new Date(`${given}T00:00:00+02:00`);
  else if (/^\d{4}-\d{2}-\d{2}T/.test(given)) date = new Date(given);
  else throw badRequest(FILTER_TEXT.badDate(name));
  if (Number.isNaN(date.getTime())) throw badRequest(FILTER_TEXT.badDate(name));
  if (!end) return date;
  return new Date(date.getTime() + (DATE_ONLY.test(given) ? DAY_MS : 1));
}

/** Reads and checks the filters of a query (named parameters and/or the `filters` JSON object). */
export function parseRequestFilters(
  query: RequestFilterQuery | Record<string, string>,
): ParsedRequestFilters {
  const f = mergedFilters(query as Record<string, unknown>);
  const from = dateBound('start_date', f.start_date, false);
  const to = dateBound('end_date', f.end_date, true);
  if (from && to && from >= to) throw badRequest(FILTER_TEXT.dates);
  const userId = trimmedOrNull(f.user_id);
  if (userId !== null && !UUID.test(userId)) throw badRequest(FILTER_TEXT.badUserId);
  return {
    requestTypes: allowedValues<RequestType>(f.request_type, REQUEST_TYPES, FILTER_TEXT.badType),
    requestSubTypes: allowedValues<string>(f.request_sub_type, REQUEST_SUBTYPES, FILTER_TEXT.badSubType),
    statuses: allowedValues<RequestStatus>(f.status, REQUEST_STATUSES, FILTER_TEXT.badStatus),
    client: trimmedOrNull(f.client),
    gripReference: trimmedOrNull(f.grip_reference),
    clientReference: trimmedOrNull(f.client_reference),
    email: trimmedOrNull(f.email),
    firstUser: trimmedOrNull(f.firstUser),
    address: trimmedOrNull(f.address),
    invoiceNumber: trimmedOrNull(f.invoiceNumber),
    from,
    to,
    cantLocate: yesNo('cantlocate', f.cantlocate),
    reportDisputed: yesNo('reportDisputed', f.reportDisputed),
    downloaded: yesNo('downloaded', f.downloaded),
    priority: yesNo('priority', f.priority),
    userId: userId?.toLowerCase() ?? null,
  };
}

/** No filter at all (every request the scope allows). */
export const NO_FILTERS: ParsedRequestFilters = {
  requestTypes: null,
  requestSubTypes: null,
  statuses: null,
  client: null,
  gripReference: null,
  clientReference: null,
  email: null,
  firstUser: null,
  address: null,
  invoiceNumber: null,
  from: null,
  to: null,
  cantLocate: null,
  reportDisputed: null,
  downloaded: null,
  priority: null,
  userId: null,
};

/**
 * The WHERE clause (without the keyword; 'TRUE' when nothing filters) over `requests.requests r`, its
 * parameters numbered from `firstParam`. `scope.userId` restricts to one owner (a plain user's own
 * requests) on top of the filters.
 */
export function requestFilterSql(
  filters: ParsedRequestFilters,
  scope: { userId: string | null },
  firstParam = 1,
  placeholder = (n: number) => `$${n}`,
): { where: string; params: unknown[] } {
  const where: string[] = [];
  const params = new SqlParameters([], (n) => placeholder(firstParam + n - 1));
  // One value is an equality (an index's leading column keeps its order; ANY would not).
  const oneOf = (column: string, values: string[]) =>
    values.length === 1
      ? `${column} = ${params.bind(values[0])}::text`
      : `${column} = ANY(${params.bind(values)}::text[])`;
  const contains = (column: string, value: string | null) => {
    if (value !== null) where.push(`${column} ILIKE ${params.bind(containsPattern(value))}::text`);
  };
  const flag = (column: string, value: boolean | null) => {
    if (value !== null) where.push(value ? column : `NOT ${column}`);
  };
  if (scope.userId) where.push(`r.user_id = ${params.bind(scope.userId)}::uuid`);
  if (filters.userId) where.push(`r.user_id = ${params.bind(filters.userId)}::uuid`);
  if (filters.requestTypes) where.push(oneOf('r.request_type', filters.requestTypes));
  if (filters.requestSubTypes) where.push(oneOf('r.request_sub_type', filters.requestSubTypes));
  if (filters.statuses) where.push(oneOf('r.status', filters.statuses));
  contains('r.group_name', filters.client);
  contains('r.grip_reference', filters.gripReference);
  contains('r.user_email', filters.email);
  contains('r.address', filters.address);
  contains('r.first_user_name', filters.firstUser);
  contains('r.report_invoice_number', filters.invoiceNumber);
  if (filters.clientReference !== null) {
    const pattern = `${params.bind(containsPattern(filters.clientReference))}::text`;
    where.push(
      `(r.reference_string ILIKE ${pattern}
        OR EXISTS (SELECT 1 FROM jsonb_each_text(r.reference) AS ref(key, value) WHERE ref.value ILIKE ${pattern}))`,
    );
  }
  if (filters.from) where.push(`r.created_at >= ${params.bind(filters.from)}::timestamptz`);
  if (filters.to) where.push(`r.created_at < ${params.bind(filters.to)}::timestamptz`);
  flag('r.cant_locate', filters.cantLocate);
  flag('r.report_disputed', filters.reportDisputed);
  flag('r.report_pdf_downloaded', filters.downloaded);
  flag('r.priority', filters.priority);
  return { where: where.length > 0 ? where.join(' AND ') : 'TRUE', params: params.values };
}
