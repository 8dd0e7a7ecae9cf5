import { reportTotals, type ReportTotals } from './totals';
import type { ExtraField, ReportSections, TotalsSettings } from './types';

/**
 * A SAVi report as it stands: the request it belongs to (with its group's pricing settings and the places at
 * its point), the report's stored row and the VAT default. Read by libs/db's readReportState, priced here —
 * the report builder's totals call, its PDF and services/requests' submission (the request's RVETotal) all
 * price a report with these functions, so they always agree.
 */

/** The request a report belongs to, with its group's settings (identity.groups) and the places at its point. */
export interface ReportRequestInfo {
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

/** A reportbuilder.reports row as the services read it. */
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

/** The report as it is now: its request, its row (null before the first save) and the VAT default. */
export interface ReportState {
  request: ReportRequestInfo;
  row: ReportRow | null;
  defaultVat: number;
}

/** The report's version (0 before its first save): a PDF is made of one version. */
export const versionOf = (state: ReportState) => state.row?.version ?? 0;

export function sectionsOf(state: ReportState): ReportSections {
  return Object.fromEntries(state.row?.sections ?? []);
}

export function extraFieldOf(state: ReportState): ExtraField & { value: number } {
  const row = state.row;
  return {
    include: row?.extra_include ?? false,
    description: row?.extra_description ?? state.request.group?.extraField ?? '',
    value: row ? Number(row.extra_value) : 0,
  };
}

export const vatOf = (state: ReportState) => state.row?.details.vatPercentage ?? state.defaultVat;

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

/** Spec 02 §4.5: the report's totals (its grand total is the request's RVETotal). */
export const totalsOf = (state: ReportState): ReportTotals =>
  reportTotals(sectionsOf(state), extraFieldOf(state), totalsSettingsOf(state));
