import { Type, type Static } from '@sinclair/typebox';
import { nullable } from './common';

/**
 * Usage metering (issue 22): what each group used, per service, day (SAST), metric and source (an API key,
 * or people's sessions). Counted by server-kit's meter in the services, read in services admin (a chart
 * per metric over the month's days, a table) and exported for invoicing (xlsx, CSV).
 */
export const USAGE_ROUTES = {
  /** GET ?groupId=&month=YYYY-MM: the month's totals per day, service, metric and source. */
  usage: '/api/v1.0/usage',
  /** GET ?groupId=&month=YYYY-MM: the month's totals per group, service, metric and source as a spreadsheet. */
  exportXlsx: '/api/v1.0/usage/export.xlsx',
  /** The same rows as CSV. */
  exportCsv: '/api/v1.0/usage/export.csv',
} as const;

/**
 * What is counted, one unit each: look-ups (geocode, search, reverse), validations (a single address;
 * a batch's rows one each), vector parcel tiles at zoom 14 and above, imagery pictures served, IRiS reports
 * created, PDFs generated (IRiS and SAVi reports, counted when the worker has stored one), SAVi requests
 * created.
 */
export const USAGE_METRICS = [
  'geocode',
  'search',
  'reverse',
  'validation',
  'validation_row',
  'parcel_tile',
  'imagery_picture',
  'iris_report',
  'pdf',
  'savi_request',
] as const;
export type UsageMetric = (typeof USAGE_METRICS)[number];

/** Parcel tiles are counted from this zoom on (the zooms where parcels are data, not a backdrop). */
export const METERED_PARCEL_TILE_MIN_ZOOM = 14;

/** A source that is not an API key: calls made by people in the portal's screens (a session cookie). */
export const USAGE_SESSION_SOURCE = 'session';

export const UsageQuery = Type.Object({
  /** One group's usage; omitted: every group's (administrators only). */
  groupId: Type.Optional(Type.String({ format: 'uuid' })),
  /** The month, 'YYYY-MM' (SAST days); omitted: the current month. */
  month: Type.Optional(Type.String({ pattern: '^[0-9]{4}-(0[1-9]|1[0-2])$' })),
});
export type UsageQuery = Static<typeof UsageQuery>;

export const UsageRow = Type.Object({
  /** 'YYYY-MM-DD', SAST. */
  day: Type.String(),
  /** null: callers without a group (staff). */
  groupId: nullable(Type.String()),
  service: Type.String(),
  metric: Type.String(),
  /** An API key's id, or 'session'. */
  source: Type.String(),
  /** The key's name and prefix when the source is a key that still exists. */
  sourceName: nullable(Type.String()),
  count: Type.Integer(),
});
export type UsageRow = Static<typeof UsageRow>;

export const UsageAnswer = Type.Object({
  month: Type.String(),
  groupId: nullable(Type.String()),
  /** Every day of the month, 'YYYY-MM-DD' (the chart's axis). */
  days: Type.Array(Type.String()),
  rows: Type.Array(UsageRow),
  /** Totals per metric over the month. */
  totals: Type.Record(Type.String(), Type.Integer()),
});
export type UsageAnswer = Static<typeof UsageAnswer>;

/** The refusals of the usage routes. */
export const USAGE_TEXTS = {
  groupRequired: 'Name your group (groupId) to see its usage.',
} as const;
