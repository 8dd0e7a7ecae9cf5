import type { DataSource, EntityManager } from 'typeorm';
import {
  REPORT_EDITABLE_STATUSES,
  type AddressDetailsAnswer,
  type ReportDetails,
  type ReportSectionsBody,
  type SectionsAnswer,
} from '@portal/contracts';
import {
  parseExtraFieldValue,
  reportTotals,
  ROUTE_REFUSALS,
  type ExtraField,
  type ReportSections,
  type ReportTotals,
  type TotalsSettings,
} from '@portal/domain';
import { HttpError, badRequest, forbidden, isStaff, notFound, type Caller } from '@portal/server-kit';
import { buildingWarningLines } from './validation';

/**
 * A request's report: read (with the request it belongs to, its group's settings and the place names at its
 * point) and saved — each save in one transaction that locks the request's row, checks who may edit and the
 * request's status as they are then, checks the version the client read, writes the report (version + 1) and
 * its edit line together, or nothing.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const REPORT_TEXT = {
  badId: (id: string) => `'${id}' is not a request id (a UUID).`,
  noRequest: 'No such request.',
  notYours: 'This request belongs to another user.',
  // The route table gate's words (ROUTE_REFUSALS), so the answer reads the same whichever check refuses.
  staffOnly: ROUTE_REFUSALS.reportEditing,
  notSavi: (type: string) => `This is a ${type} request: only SAVI requests have a report.`,
  notEditable: (status: string) =>
    `A request in '${status}' cannot be edited: reports are edited in ${REPORT_EDITABLE_STATUSES.map((s) => `'${s}'`).join(', ')}.`,
  stale: (version: number) =>
    `This report was changed by someone else meanwhile (it is at version ${version}); the latest is shown.`,
  idMismatch: 'The request ID in the path and in the body differ.',
  idRequired: 'ID (the request id) is required.',
} as const;

export function checkId(id: string): string {
  if (!UUID.test(id)) throw badRequest(REPORT_TEXT.badId(id));
  return id.toLowerCase();
}

/** The request a report belongs to, with its group's settings (identity.groups) and the places at its point. */
export interface RequestInfo {
  id: string;
  gripReference: string;
  requestType: string;
  status: string;
  userId: string;
  address: string;
  lat: number | null;
  lng: number | null;
  selectedSuburb: string | null;
  selectedTown: string | null;
  placeSuburb: string | null;
  placeTown: string | null;
  placeProvince: string | null;
  /** The client's references (requests.requests reference: the group's reference keys → values). */
  reference: Record<string, unknown>;
  group: {
    id: string;
    name: string;
    includeVAT: boolean;
    includeProfessionalFee: boolean;
    professionalFeePercentage: number;
    doubleVolumePercent: number;
    extraField: string;
  } | null;
}

/** The stored details the builder edits (the rest of the report details come from the request). */
export interface StoredDetails {
  location?: string;
  suburbTownCity?: string;
  vatPercentage?: number;
}

/** A reportbuilder.reports row as the service reads it. */
export interface ReportRow {
  sections: [string, ReportSections[string]][];
  details: StoredDetails;
  extra_include: boolean;
  extra_description: string | null;
  extra_value: string;
  comments: string;
  comments_user_id: string | null;
  note: string;
  note_user_id: string | null;
  version: number;
  updated_by: string | null;
  updated_by_name: string | null;
  updated_at: Date | null;
}

/** The report as it is now: its request, its row (null before the first save) and the service's VAT default. */
export interface ReportState {
  request: RequestInfo;
  row: ReportRow | null;
  defaultVat: number;
}

const REQUEST_SQL = `
  SELECT r.id, r.grip_reference, r.request_type, r.status, r.user_id, r.address, r.lat, r.lng, r.reference,
         r.selected->>'suburb' AS selected_suburb, r.selected->>'town' AS selected_town,
         g.id AS group_id, g.name AS group_name, g.include_vat, g.include_professional_fee,
         g.professional_fee_percentage::float8 AS professional_fee_percentage,
         g.double_volume_percent::float8 AS double_volume_percent, g.extra_field,
         (SELECT p.name FROM geo.places p WHERE p.kind = 'suburb' AND p.geom IS NOT NULL AND r.point IS NOT NULL
            AND ST_Intersects(p.geom, r.point) ORDER BY p.importance DESC, p.id LIMIT 1) AS place_suburb,
         (SELECT p.name FROM geo.places p WHERE p.kind = 'town' AND p.geom IS NOT NULL AND r.point IS NOT NULL
            AND ST_Intersects(p.geom, r.point) ORDER BY p.importance DESC, p.id LIMIT 1) AS place_town,
         (SELECT p.name FROM geo.places p WHERE p.kind = 'province' AND p.geom IS NOT NULL AND r.point IS NOT NULL
            AND ST_Intersects(p.geom, r.point) ORDER BY p.importance DESC, p.id LIMIT 1) AS place_province
    FROM requests.requests r
    LEFT JOIN identity.groups g ON g.id = COALESCE(r.for_group_id, r.group_id)
   WHERE r.id = $1`;

interface RequestDbRow {
  id: string;
  grip_reference: string;
  request_type: string;
  status: string;
  user_id: string;
  address: string;
  lat: number | null;
  lng: number | null;
  reference: Record<string, unknown> | null;
  selected_suburb: string | null;
  selected_town: string | null;
  group_id: string | null;
  group_name: string | null;
  include_vat: boolean | null;
  include_professional_fee: boolean | null;
  professional_fee_percentage: number | null;
  double_volume_percent: number | null;
  extra_field: string | null;
  place_suburb: string | null;
  place_town: string | null;
  place_province: string | null;
}

const toRequestInfo = (row: RequestDbRow): RequestInfo => ({
  id: row.id,
  gripReference: row.grip_reference,
  requestType: row.request_type,
  status: row.status,
  userId: row.user_id,
  address: row.address,
  lat: row.lat,
  lng: row.lng,
  selectedSuburb: row.selected_suburb,
  selectedTown: row.selected_town,
  placeSuburb: row.place_suburb,
  placeTown: row.place_town,
  placeProvince: row.place_province,
  reference: row.reference ?? {},
  group: row.group_id
    ? {
        id: row.group_id,
        name: row.group_name ?? '',
        includeVAT: row.include_vat ?? false,
        includeProfessionalFee: row.include_professional_fee ?? false,
        professionalFeePercentage: row.professional_fee_percentage ?? 0,
        doubleVolumePercent: row.double_volume_percent ?? 0,
        extraField: row.extra_field ?? '',
      }
    : null,
});

const REPORT_COLUMNS = `sections, details, extra_include, extra_description, extra_value::text AS extra_value,
  comments, comments_user_id, note, note_user_id, version, updated_by, updated_by_name, updated_at`;

type Query = { query(sql: string, params?: unknown[]): Promise<unknown> };

async function readState(db: Query, id: string, defaultVat: number, lock: boolean): Promise<ReportState> {
  if (lock) {
    // The request's row first (the status can't change under the save), then the report's.
    const locked = (await db.query('SELECT id FROM requests.requests WHERE id = $1 FOR UPDATE', [
      id,
    ])) as unknown[];
    if (locked.length === 0) throw notFound(REPORT_TEXT.noRequest);
  }
  const [request] = (await db.query(REQUEST_SQL, [id])) as RequestDbRow[];
  if (!request) throw notFound(REPORT_TEXT.noRequest);
  const [row] = (await db.query(
    `SELECT ${REPORT_COLUMNS} FROM reportbuilder.reports WHERE request_id = $1${lock ? ' FOR UPDATE' : ''}`,
    [id],
  )) as ReportRow[];
  return { request: toRequestInfo(request), row: row ?? null, defaultVat };
}

// ------------------------------------------------------------------------------------------------- access

const isEditableStatus = (status: string) => (REPORT_EDITABLE_STATUSES as readonly string[]).includes(status);

/** Reading: the request's owner and staff, in every status. */
export function checkRead(state: ReportState, caller: Caller): void {
  if (state.request.userId !== caller.id && !isStaff(caller)) throw forbidden(REPORT_TEXT.notYours);
  if (state.request.requestType !== 'SAVI')
    throw new HttpError(409, REPORT_TEXT.notSavi(state.request.requestType));
}

/** Editing: staff only (checked before the request is read), a SAVI request in an editable status. */
export function checkEdit(state: ReportState, caller: Caller): void {
  checkRead(state, caller);
  if (!isStaff(caller)) throw forbidden(REPORT_TEXT.staffOnly);
  if (!isEditableStatus(state.request.status))
    throw new ReportConflict(REPORT_TEXT.notEditable(state.request.status), state, caller);
}

export const mayEdit = (state: ReportState, caller: Caller) =>
  isStaff(caller) && state.request.requestType === 'SAVI' && isEditableStatus(state.request.status);

// ---------------------------------------------------------------------------------------------- answers

export const versionOf = (state: ReportState) => state.row?.version ?? 0;

export function sectionsOf(state: ReportState): ReportSections {
  return Object.fromEntries(state.row?.sections ?? []);
}

function saved(state: ReportState) {
  const row = state.row;
  return {
    version: versionOf(state),
    updatedAt: row?.updated_at ? row.updated_at.toISOString() : null,
    updatedBy: row?.updated_by ? { id: row.updated_by, name: row.updated_by_name ?? '' } : null,
  };
}

export function sectionsAnswer(state: ReportState, caller: Caller): SectionsAnswer {
  const sections = sectionsOf(state);
  return {
    ID: state.request.id,
    reportType: 'savi',
    sections: sections as ReportSectionsBody,
    ...saved(state),
    status: state.request.status,
    editable: mayEdit(state, caller),
    warnings: buildingWarningLines(sections),
  };
}

export function extraFieldOf(state: ReportState): ExtraField & { value: number } {
  const row = state.row;
  return {
    include: row?.extra_include ?? false,
    description: row?.extra_description ?? state.request.group?.extraField ?? '',
    value: row ? Number(row.extra_value) : 0,
  };
}

const joinPlaces = (...names: (string | null | undefined)[]) =>
  names.filter((name): name is string => !!name && name.trim() !== '').join(', ');

export function addressOf(state: ReportState) {
  const { request } = state;
  const details = state.row?.details ?? {};
  const suburb = request.selectedSuburb || request.placeSuburb || '';
  const town = request.selectedTown || request.placeTown || '';
  const province = request.placeProvince ?? '';
  return {
    location: details.location ?? request.address,
    suburb,
    town,
    province,
    suburbTownCity: details.suburbTownCity ?? joinPlaces(suburb, town),
    coordinates: request.lat !== null && request.lng !== null ? { lat: request.lat, lng: request.lng } : null,
  };
}

export function addressAnswer(state: ReportState): AddressDetailsAnswer {
  return { ID: state.request.id, ...addressOf(state), version: versionOf(state) };
}

export const vatOf = (state: ReportState) => state.row?.details.vatPercentage ?? state.defaultVat;

export function detailsAnswer(state: ReportState, caller: Caller): ReportDetails {
  const { request } = state;
  return {
    ID: request.id,
    gripReference: request.gripReference,
    ...addressOf(state),
    comments: state.row?.comments ?? '',
    note: { text: state.row?.note ?? '' },
    extraField: extraFieldOf(state),
    vatPercentage: vatOf(state),
    group: request.group ? { id: request.group.id, name: request.group.name } : null,
    ...saved(state),
    status: request.status,
    editable: mayEdit(state, caller),
  };
}

/** Spec 02 §1, §4.5: the settings of the request's group (the client's) and the report's VAT rate. */
export function totalsSettingsOf(state: ReportState): TotalsSettings {
  const group = state.request.group;
  return {
    doubleVolumePercent: group?.doubleVolumePercent ?? 0,
    includeProfessionalFee: group?.includeProfessionalFee ?? false,
    professionalFeePercentage: group?.professionalFeePercentage ?? 0,
    includeVAT: group?.includeVAT ?? false,
    vatPercentage: vatOf(state),
  };
}

export const totalsOf = (state: ReportState): ReportTotals =>
  reportTotals(sectionsOf(state), extraFieldOf(state), totalsSettingsOf(state));

// ------------------------------------------------------------------------------------------------- saves

/** A 409 carrying the report as it is now (the screen shows the latest). */
export class ReportConflict extends HttpError {
  constructor(
    message: string,
    readonly state: ReportState,
    readonly caller: Caller,
  ) {
    super(409, message);
    this.name = 'ReportConflict';
  }
}

/** What a save changes: any of the report's columns (the row is created at the first save). */
export interface ReportChange {
  sections?: [string, ReportSections[string]][];
  details?: StoredDetails;
  extra_include?: boolean;
  extra_description?: string;
  extra_value?: number;
  comments?: string;
  comments_user_id?: string;
  note?: string;
  note_user_id?: string;
}

const JSON_COLUMNS = new Set(['sections', 'details']);

export async function readReport(ds: DataSource, id: string, defaultVat: number): Promise<ReportState> {
  return readState(ds, checkId(id), defaultVat, false);
}

/**
 * One save: staff only (before anything is read), then in one transaction the request's row locked, the
 * request's type and status checked, the report's row locked and its version compared with the one the
 * client read (when sent), `decide` run on the report as it is, inside the transaction (it may read what it
 * needs through `em`, and throws a 400 to refuse), the change and
 * its edit line written, version + 1. Answers the report after the save.
 */
export async function saveReport(
  ds: DataSource,
  input: { id: string; caller: Caller; version?: number; what: string; defaultVat: number },
  decide: (state: ReportState, em: EntityManager) => ReportChange | Promise<ReportChange>,
): Promise<ReportState> {
  if (!isStaff(input.caller)) throw forbidden(REPORT_TEXT.staffOnly);
  const id = checkId(input.id);
  return ds.transaction(async (em) => {
    const state = await readState(em, id, input.defaultVat, true);
    checkEdit(state, input.caller);
    const version = versionOf(state);
    if (input.version !== undefined && input.version !== version)
      throw new ReportConflict(REPORT_TEXT.stale(version), state, input.caller);
    const change = await decide(state, em);
    if (!state.row && !('details' in change)) change.details = {};
    // A new report fixes its VAT rate at creation (the service's setting may change later).
    if (!state.row) change.details = { vatPercentage: input.defaultVat, ...change.details };
    else if (change.details) change.details = { ...state.row.details, ...change.details };
    await writeChange(em, id, state, change, input.caller);
    const after = await readState(em, id, input.defaultVat, false);
    // The totals of this save, kept for the version a submission makes of it.
    await em.query('UPDATE reportbuilder.reports SET totals = $2 WHERE request_id = $1', [
      id,
      JSON.stringify(totalsOf(after)),
    ]);
    await em.query(
      `INSERT INTO reportbuilder.report_edits (request_id, version, what, user_id, user_name)
       VALUES ($1, $2, $3, $4, $5)`,
      [id, versionOf(after), input.what, input.caller.id, input.caller.name],
    );
    return after;
  });
}

async function writeChange(
  em: EntityManager,
  id: string,
  state: ReportState,
  change: ReportChange,
  caller: Caller,
): Promise<void> {
  const columns = Object.keys(change) as (keyof ReportChange)[];
  const values = columns.map((column) =>
    JSON_COLUMNS.has(column) ? JSON.stringify(change[column]) : change[column],
  );
  if (!state.row) {
    const names = [...columns, 'updated_by', 'updated_by_name'];
    await em.query(
      `INSERT INTO reportbuilder.reports (request_id, ${names.join(', ')})
       VALUES ($1, ${names.map((_, i) => `$${i + 2}`).join(', ')})`,
      [id, ...values, caller.id, caller.name],
    );
    return;
  }
  const assignments = columns.map((column, i) => `${column} = $${i + 2}`);
  const n = columns.length;
  assignments.push(
    'version = version + 1',
    'updated_at = now()',
    `updated_by = $${n + 2}`,
    `updated_by_name = $${n + 3}`,
  );
  await em.query(`UPDATE reportbuilder.reports SET ${assignments.join(', ')} WHERE request_id = $1`, [
    id,
    ...values,
    caller.id,
    caller.name,
  ]);
}

/** Spec 02 §4.4: the extra field's value as typed (blank → 0, commas stripped); not a number → 400. */
export function extraFieldValue(value: string | number | null | undefined): number {
  const parsed = parseExtraFieldValue(value);
  if (parsed === null || Math.abs(parsed) >= 1e12)
    throw badRequest('value must be an amount, e.g. 12,345.67.');
  return Math.round(parsed * 100) / 100;
}
