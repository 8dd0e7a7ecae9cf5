import { REQUEST_STATUSES, type RequestStatus } from '@portal/contracts';

/**
 * The request queue's rules (spec 02 §4.1–4.3, §5, §6; spec 03 "User's request list"), pure, used by
 * services/requests (which enforces them) and mf-requests-admin (which shows them).
 */

/** Spec 02 §4.1: the action button of each status. Cancelled_rejected has none. */
export const ACTION_BY_STATUS: Readonly<Record<RequestStatus, RequestAction | null>> = {
  New: 'QS check',
  'Ready for QS': 'Start report',
  'In progress': 'Continue report',
  Pending: 'Continue report',
  Cancelled_rejected: null,
  'QC check': 'QC check',
  Query: 'Revisit report',
  Dispatch: 'Download report',
  Delivered: 'Download report',
  Finalised: 'Dispute',
};

export const REQUEST_ACTIONS = [
  'QS check',
  'Start report',
  'Continue report',
  'QC check',
  'Revisit report',
  'Download report',
  'Dispute',
] as const;
export type RequestAction = (typeof REQUEST_ACTIONS)[number];

export const actionFor = (status: string): RequestAction | null =>
  (ACTION_BY_STATUS as Record<string, RequestAction | null>)[status] ?? null;

/**
 * The ways a status changes (spec 02 §4.2). Each kind has the statuses it may start from; the server
 * answers 409 for any other, so a stale screen (or a second operator) cannot move a request backwards.
 */
export const TRANSITIONS = {
  /** QS checklist saved: the request is ready for a quantity surveyor. */
  qsChecklist: { to: 'Ready for QS', from: ['New'] },
  /** 'Start report' / 'Revisit report': the report builder opens it. */
  startReport: { to: 'In progress', from: ['Ready for QS', 'Pending', 'Query'] },
  /** The report builder's 'submit report' (POST request/submit). */
  submit: { to: 'QC check', from: ['In progress', 'Pending', 'Query', 'Ready for QS'] },
  /** QC checklist approved (all 7 checks, buildings and price, saviQC only). */
  qcApprove: { to: 'Dispatch', from: ['QC check'] },
  /** A query, with its comment: from the QC checklist, or anywhere a report exists or is being made. */
  query: {
    to: 'Query',
    from: ['New', 'Ready for QS', 'In progress', 'Pending', 'QC check', 'Dispatch', 'Delivered'],
  },
  /** A dispute of a delivered or finalised report (→ Query, the request marked disputed). */
  dispute: { to: 'Query', from: ['Dispatch', 'Delivered', 'Finalised'] },
  /** The bulk action 'all to Delivered'. */
  deliver: { to: 'Delivered', from: ['Dispatch', 'Delivered'] },
} as const satisfies Record<string, { to: RequestStatus; from: readonly RequestStatus[] }>;
export type TransitionKind = keyof typeof TRANSITIONS;

/**
 * The status edges an operator may take with POST request/update_status outside the checklists (the
 * grid's status cell, 'Start report', pending, cancel, finalise). An admin may set any status (spec 02
 * §4.2 "Admins can edit the status directly in the grid"): that is an override, recorded as such.
 */
export const STATUS_EDGES: Readonly<Record<RequestStatus, readonly RequestStatus[]>> = {
  New: ['Ready for QS', 'Cancelled_rejected'],
  'Ready for QS': ['In progress', 'Query', 'Cancelled_rejected'],
  'In progress': ['Pending', 'QC check', 'Query', 'Cancelled_rejected'],
  Pending: ['In progress', 'QC check', 'Query', 'Cancelled_rejected'],
  Cancelled_rejected: ['New'],
  'QC check': ['In progress', 'Query'],
  Query: ['In progress', 'QC check', 'Cancelled_rejected'],
  Dispatch: ['Delivered', 'Query'],
  Delivered: ['Finalised', 'Query'],
  Finalised: ['Query'],
};

/** True when `kind` may move a request from `from`. */
export const transitionAllowed = (kind: TransitionKind, from: string): boolean =>
  (TRANSITIONS[kind].from as readonly string[]).includes(from);

/**
 * Whether a direct status change (update_status) is allowed: admins may set any other status, other
 * staff follow STATUS_EDGES. Setting the status a request already has is not a change.
 */
export function statusChangeAllowed(from: string, to: string, isAdmin: boolean): boolean {
  if (from === to || !isRequestStatus(to)) return false;
  if (isAdmin) return true;
  return isRequestStatus(from) && STATUS_EDGES[from].includes(to);
}

export const isRequestStatus = (value: string): value is RequestStatus =>
  (REQUEST_STATUSES as readonly string[]).includes(value);

/** Spec 02 §4.2: the comment recorded when an admin sets Query in the grid. */
export const OVERRIDE_QUERY_COMMENT = 'Override from Request Admin page';

/** Spec 02 §4.3: the colour of a grid row. Red wins over orange. */
export type RowColour = 'red' | 'orange' | null;
export function rowColour(row: { priority: boolean | string; status: string; disputed: boolean }): RowColour {
  const priority = row.priority === true || row.priority === 'Yes';
  if (priority && row.status !== 'Finalised') return 'red';
  if ((row.disputed && row.status !== 'Finalised') || row.status === 'Query') return 'orange';
  return null;
}

/**
 * Spec 03 "User's request list": 'Finalised' shows the final RVE, the others the preliminary RVE when
 * there is one, else 'no RVE'. Amounts in rand, en-ZA grouping.
 */
export function statusDisplay(row: {
  status: string;
  finalRve?: number | null;
  preliminaryRve?: number | null;
}): string {
  if (row.status === 'Finalised')
    return row.finalRve != null ? `Finalised (final RVE ${formatRand(row.finalRve)})` : 'Finalised';
  if (row.preliminaryRve != null) return `${row.status} (preliminary RVE ${formatRand(row.preliminaryRve)})`;
  return `${row.status} (no RVE)`;
}

/** R 1 234 567.00: rand with spaces between thousands (spec 03 "RVE is in rand (R)"). */
export function formatRand(value: number): string {
  const [whole, cents] = Math.abs(value).toFixed(2).split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ' ');
  return `${value < 0 ? '-' : ''}R ${grouped}.${cents}`;
}

/**
 * Spec 03 duplicate check popup: the final RVE, else the preliminary RVE, else 'Insufficient Data'.
 */
export function duplicateRveText(row: { finalRve?: number | null; preliminaryRve?: number | null }): string {
  if (row.finalRve != null) return `Final RVE: ${formatRand(row.finalRve)}`;
  if (row.preliminaryRve != null) return `Preliminary RVE: ${formatRand(row.preliminaryRve)}`;
  return 'Insufficient Data';
}

/** Spec 02 §3: report fee = number of buildings × unit price. */
export const reportFee = (numberOfBuildings: number | null, unitPrice: number | null): number | null =>
  numberOfBuildings == null || unitPrice == null
    ? null
    : Math.round(numberOfBuildings * unitPrice * 100) / 100;

/** Spec 02 §3, §9: time in queue in whole hours, from creation until it was delivered (or now). */
export function hoursInQueue(created: Date | string, until: Date | string | null, now = new Date()): number {
  const start = new Date(created).getTime();
  const end = until ? new Date(until).getTime() : now.getTime();
  return Math.max(0, Math.floor((end - start) / 3_600_000));
}

/**
 * Beyond the spec, ageing: a target time in queue (hours) per open status. The requests service serves the
 * configured targets (REQUEST_AGEING_TARGETS), these are the defaults.
 */
export const DEFAULT_AGEING_TARGETS: Readonly<Partial<Record<RequestStatus, number>>> = {
  New: 4,
  'Ready for QS': 8,
  'In progress': 48,
  Pending: 72,
  'QC check': 8,
  Query: 24,
  Dispatch: 24,
};

export type AgeingLevel = 'ok' | 'near' | 'over' | null;

/** 'over' past the status's target, 'near' from 75 % of it, null for a status without a target. */
export function ageingLevel(
  status: string,
  hours: number,
  targets: Partial<Record<string, number>> = DEFAULT_AGEING_TARGETS,
): AgeingLevel {
  const target = targets[status];
  if (target == null) return null;
  if (hours > target) return 'over';
  if (hours >= target * 0.75) return 'near';
  return 'ok';
}

/** Spec 02 §5 / §9: the QS checklist's 3 checks and the QC checklist's 7. */
export const QS_CHECKS = [
  'The address and location of the property are correct',
  'The imagery covers the property',
  'The request is not a duplicate (duplicate check done)',
] as const;
export const QC_CHECKS = [
  'Every building on the property is captured',
  'Floor sizes and floor counts are captured',
  'Rates match the group and the building class',
  'Improvements are captured',
  'Images are clear and cropped',
  'Totals, professional fee and VAT are correct',
  'The report address and client references are correct',
] as const;

/** Spec 02 §9: property types, and the QC checklist's defaults. */
export const PROPERTY_TYPES = ['AGRICULTURAL', 'COMMERCIAL', 'RESIDENTIAL'] as const;
export type PropertyType = (typeof PROPERTY_TYPES)[number];
export const QC_DEFAULTS = { numberOfBuildings: 1, propertyType: 'RESIDENTIAL' as PropertyType };

/** Spec 02 §5 QC checklist: approval needs all 7 checks, buildings and price, and the saviQC flag. */
export function qcApprovalEnabled(input: {
  checks: readonly boolean[];
  numberOfBuildings: number | null | undefined;
  price: number | null | undefined;
  saviQC: boolean;
}): boolean {
  return (
    input.saviQC &&
    input.checks.length === QC_CHECKS.length &&
    input.checks.every(Boolean) &&
    input.numberOfBuildings != null &&
    Number.isFinite(input.numberOfBuildings) &&
    input.numberOfBuildings >= 0 &&
    input.price != null &&
    Number.isFinite(input.price) &&
    input.price >= 0
  );
}

/** Spec 02 §5: all 3 QS checks ticked. */
export const qsSaveEnabled = (checks: readonly boolean[]) =>
  checks.length === QS_CHECKS.length && checks.every(Boolean);

/** Spec 02 §6: the prioritise button is shown unless isAdmin is '0'. */
export const showPrioritise = (isAdmin: string | boolean | null | undefined) =>
  isAdmin !== '0' && isAdmin !== false;

/**
 * Spec 03 §7: how a report is downloaded, by its link: 'cloudinary' → the link itself; 'savi' → the report
 * builder's download; 'pdfReports' → the IRiS download; anything else → only logged (null).
 */
export type ReportLink =
  { kind: 'external'; url: string } | { kind: 'savi'; url: string } | { kind: 'pdfReports'; url: string };
export function reportDownloadLink(request: {
  id: string;
  reportPdfUrl?: string | null;
  reportId?: string | null;
}): ReportLink | null {
  const link = request.reportPdfUrl ?? '';
  if (link.includes('cloudinary')) return { kind: 'external', url: link };
  if (link.includes('savi'))
    return { kind: 'savi', url: `/api/v1.0/reportbuilder/savi/${encodeURIComponent(request.id)}/download` };
  if (link.includes('pdfReports') && request.reportId)
    return {
      kind: 'pdfReports',
      url: `/api/v1.0/iris/${encodeURIComponent(request.reportId)}/pdf/download/`,
    };
  return null;
}
