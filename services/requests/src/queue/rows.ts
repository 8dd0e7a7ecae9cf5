import { referenceFields, referencesText, type ReferenceField, type RequestRow } from '@portal/contracts';
import { hoursInQueue, reportFee } from '@portal/domain';
import { yesNoText } from './yesNo';

/** created_at as ISO 8601 in UTC with milliseconds, e.g. 2026-01-20T16:50:14.006Z (to_char truncates). */
const CREATED_ISO = `to_char(r.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * The columns of a grid row (spec 02 §3 "Request (grid row)") over `requests.requests r`: what the pager,
 * the streamed list, the change calls, the realtime events and the exports answer. Numbers come back as
 * numbers (numeric cast to float8), dates as Date, except the creation time: it is written as the answer
 * writes it (Date.prototype.toISOString's form, milliseconds truncated as the driver's Date truncates them),
 * which spares a date parse, a Date and a toISOString per row — on a 1 000-row page the largest part of
 * toRequestRow's time.
 */
export const REQUEST_ROW_COLUMNS = `r.id, r.request_type, r.request_sub_type, r.priority, r.grip_reference, r.user_id,
  r.user_name, r.user_email, ${CREATED_ISO} AS created, r.status, r.first_user_id, r.first_user_name, r.address, r.lat, r.lng,
  r.additional, r.cant_locate, r.report_pdf_downloaded, r.report_invoice_number, r.report_disputed, r.group_name,
  r.reference_string, r.rve_total::float8 AS rve_total, r.preliminary_rve::float8 AS preliminary_rve, r.property_type, r.number_of_buildings,
  r.unit_price::float8 AS unit_price, r.report_pdf_url, r.report_id, r.date_finalised, r.delivered_at, r.version,
  r.reference,
  (SELECT CASE WHEN r.claims_user THEN g.claims_references ELSE g."references" END
     FROM identity.groups g WHERE g.id = r.group_id)::text AS reference_list`;

/** A row as the driver answers REQUEST_ROW_COLUMNS. */
export interface RequestDbRow {
  id: string;
  request_type: string;
  request_sub_type: string | null;
  priority: boolean;
  grip_reference: string;
  user_id: string;
  user_name: string;
  user_email: string;
  /** created_at as toISOString writes it (REQUEST_ROW_COLUMNS). */
  created: string;
  status: string;
  first_user_id: string | null;
  first_user_name: string | null;
  address: string;
  lat: number | null;
  lng: number | null;
  additional: string;
  cant_locate: boolean;
  report_pdf_downloaded: boolean;
  report_invoice_number: string | null;
  report_disputed: boolean;
  group_name: string | null;
  reference_string: string;
  rve_total: number | null;
  preliminary_rve: number | null;
  property_type: string | null;
  number_of_buildings: number | null;
  unit_price: number | null;
  report_pdf_url: string | null;
  report_id: string | null;
  date_finalised: Date | null;
  delivered_at: Date | null;
  version: number;
  /** The client's references (key → value) and the group's list that labels them (claims' for a claims user). */
  reference: Record<string, unknown> | null;
  /** The list as its JSON text: rows of one group share it, read once (referenceFieldsOf). */
  reference_list: string | null;
}

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

/** Whether an object has a key (without Object.keys' array per row). */
function hasKeys(value: object): boolean {
  for (const _ in value) return true;
  return false;
}

/** A request whose group is gone (or has no list): no labels. */
const NO_FIELDS: readonly ReferenceField[] = [];
/** The fields of the lists seen lately, by their text: a page of 1 000 rows holds a few groups' lists. */
const fieldsOfList = new Map<string, readonly ReferenceField[]>();
const FIELD_LISTS_KEPT = 500;

/**
 * A group's reference fields, read from its list's JSON text once rather than per row (a parse, then
 * referenceFields' objects and sort, for each of a page's rows). A changed list is other text: read anew.
 */
function referenceFieldsOf(list: string | null): readonly ReferenceField[] {
  if (list === null) return NO_FIELDS;
  let fields = fieldsOfList.get(list);
  if (fields === undefined) {
    if (fieldsOfList.size >= FIELD_LISTS_KEPT) fieldsOfList.clear();
    fields = referenceFields(JSON.parse(list) as unknown[] | null);
    fieldsOfList.set(list, fields);
  }
  return fields;
}

/** The grid row of a request (contract RequestRow). */
export function toRequestRow(row: RequestDbRow, now = new Date()): RequestRow {
  return {
    requestID: row.id,
    type: row.request_type,
    subType: row.request_sub_type,
    priority: yesNoText(row.priority),
    gripReference: row.grip_reference,
    user: row.user_name,
    userId: row.user_id,
    email: row.user_email,
    created: row.created,
    status: row.status,
    firstQS: row.first_user_name,
    firstUser: row.first_user_id,
    address: row.address,
    coordinates: row.lat === null || row.lng === null ? null : { lat: row.lat, lng: row.lng },
    comments: row.additional ?? '',
    // The report builder owns the note (spec 02 §7.1 requestNote); the grid shows it once that exists.
    note: '',
    timeInQueue: hoursInQueue(row.created, row.delivered_at, now),
    cantlocate: yesNoText(row.cant_locate),
    downloaded: yesNoText(row.report_pdf_downloaded),
    invoice: row.report_invoice_number,
    disputed: yesNoText(row.report_disputed),
    client: row.group_name,
    // "Label: value" (issue 22): the stored JSON read with the group's labels.
    clientReference: referencesText(
      row.reference && hasKeys(row.reference) ? row.reference : row.reference_string,
      referenceFieldsOf(row.reference_list),
    ),
    reportFee: reportFee(row.number_of_buildings, row.unit_price),
    rve: row.rve_total,
    preliminaryRve: row.preliminary_rve,
    rveType: row.property_type,
    numberOfBuildings: row.number_of_buildings,
    unitPrice: row.unit_price,
    reportPdfUrl: row.report_pdf_url,
    reportId: row.report_id,
    dateFinalised: iso(row.date_finalised),
    version: row.version,
  };
}
