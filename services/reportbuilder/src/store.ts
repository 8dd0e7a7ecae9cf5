import type { DataSource, EntityManager } from 'typeorm';
import {
  REPORT_EDITABLE_STATUSES,
  type AddressDetailsAnswer,
  type ReportDetails,
  type ReportSectionsBody,
  type SectionsAnswer,
} from '@portal/contracts';
import { readReportState } from '@portal/db';
import {
  extraFieldOf,
  parseExtraFieldValue,
  ROUTE_REFUSALS,
  sectionsOf,
  totalsOf,
  vatOf,
  versionOf,
  type ReportRequestInfo,
  type ReportSections,
  type ReportState,
  type StoredDetails,
} from '@portal/domain';
import { HttpError, badRequest, forbidden, isStaff, notFound, type Caller } from '@portal/server-kit';
import { buildingWarningLines } from './validation';

// The pricing of a stored report is libs/domain's (reportState.ts), shared with services/requests' submit.
export { extraFieldOf, sectionsOf, totalsOf, totalsSettingsOf, vatOf, versionOf } from '@portal/domain';

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

/** The report and its request as libs/db reads them and libs/domain prices them (shared with services/requests). */
export type { ReportRow, ReportState, StoredDetails } from '@portal/domain';
export type RequestInfo = ReportRequestInfo;

type Query = { query(sql: string, params?: unknown[]): Promise<unknown> };

async function readState(db: Query, id: string, defaultVat: number, lock: boolean): Promise<ReportState> {
  const state = await readReportState(db, id, { defaultVat, lock });
  if (!state) throw notFound(REPORT_TEXT.noRequest);
  return state;
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
