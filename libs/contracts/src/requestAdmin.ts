import { Type, type Static, type TOptional, type TString } from '@sinclair/typebox';
import { nullable } from './common';
import { REQUEST_STATUSES } from './requests';

/**
 * The request queue (spec 02 §2.2, §3, §4, §7.2; spec 03 "User's request list", "Duplicate check", §7
 * "Request list and reports"): the pager both grids read, every call of the console, the exports, the
 * duplicate check, history, saved views and the realtime events. Served by services/requests.
 */

export const REQUEST_ADMIN_API = {
  pager: '/api/v1.0/request/pager/',
  all: '/api/v1.0/requests/',
  statusCounts: '/api/v1.0/request/status_counts',
  settings: '/api/v1.0/request/settings',
  updateStatus: '/api/v1.0/request/update_status',
  submit: '/api/v1.0/request/submit',
  query: '/api/v1.0/request/query',
  dispute: '/api/v1.0/request/dispute',
  qcChecklist: '/api/v1.0/request/update_qc_checklist',
  qsChecklist: '/api/v1.0/request/update_qs_checklist',
  prioritiseAll: '/api/v1.0/request/prioritise_all',
  allToDelivered: '/api/v1.0/request/all_to_delivered',
  updateAllFees: '/api/v1.0/request/update_all_fees',
  priority: '/api/v1.0/request/priority',
  propertyType: '/api/v1.0/request/property-type',
  numberOfBuildings: '/api/v1.0/request/number-of-buildings',
  unitPrice: '/api/v1.0/request/unit-price',
  references: '/api/v1.0/request/references',
  referencesOf: (id: string) => `/api/v1.0/request/${encodeURIComponent(id)}/references`,
  history: (id: string) => `/api/v1.0/request/${encodeURIComponent(id)}/history`,
  near: (id: string, radius: number) => `/api/v1.0/request/near/${encodeURIComponent(id)}/${radius}`,
  markInvoiced: '/api/v1.0/reportbuilder/savi/markInvoiced',
  createZip: '/api/v1.0/reportbuilder/savi/createzip',
  downloadZip: (id: string) => `/api/v1.0/reportbuilder/savi/downloadzip/${encodeURIComponent(id)}`,
  exportToExcel: '/api/v1.0/request/savi/export_to_excel',
  downloadXlsx: (id: string) => `/api/v1.0/request/savi/download_xlsx/${encodeURIComponent(id)}`,
  job: (id: string) => `/api/v1.0/request/jobs/${encodeURIComponent(id)}`,
  views: '/api/v1.0/request/views',
  view: (id: string) => `/api/v1.0/request/views/${encodeURIComponent(id)}`,
} as const;

/**
 * The queue's, exports' and jobs' routes as services/requests registers them (Fastify's `:param` spelling;
 * the pager and the list without the trailing slash REQUEST_ADMIN_API gives them: the service answers both).
 * These are the keys libs/domain/src/routeAccess.ts looks a route up by, so a path here changes only with its
 * entry there; the screens build their URLs with REQUEST_ADMIN_API.
 */
export const REQUEST_ADMIN_ROUTES = {
  pager: '/api/v1.0/request/pager',
  all: '/api/v1.0/requests',
  statusCounts: REQUEST_ADMIN_API.statusCounts,
  settings: REQUEST_ADMIN_API.settings,
  history: '/api/v1.0/request/:id/history',
  referencesOf: '/api/v1.0/request/:id/references',
  near: '/api/v1.0/request/near/:id/:radius',
  updateStatus: REQUEST_ADMIN_API.updateStatus,
  submit: REQUEST_ADMIN_API.submit,
  query: REQUEST_ADMIN_API.query,
  dispute: REQUEST_ADMIN_API.dispute,
  qcChecklist: REQUEST_ADMIN_API.qcChecklist,
  qsChecklist: REQUEST_ADMIN_API.qsChecklist,
  priority: REQUEST_ADMIN_API.priority,
  propertyType: REQUEST_ADMIN_API.propertyType,
  numberOfBuildings: REQUEST_ADMIN_API.numberOfBuildings,
  unitPrice: REQUEST_ADMIN_API.unitPrice,
  references: REQUEST_ADMIN_API.references,
  prioritiseAll: REQUEST_ADMIN_API.prioritiseAll,
  allToDelivered: REQUEST_ADMIN_API.allToDelivered,
  updateAllFees: REQUEST_ADMIN_API.updateAllFees,
  markInvoiced: REQUEST_ADMIN_API.markInvoiced,
  views: REQUEST_ADMIN_API.views,
  view: '/api/v1.0/request/views/:id',
  exportToExcel: REQUEST_ADMIN_API.exportToExcel,
  createZip: REQUEST_ADMIN_API.createZip,
  job: '/api/v1.0/request/jobs/:id',
  downloadXlsx: '/api/v1.0/request/savi/download_xlsx/:id',
  downloadZip: '/api/v1.0/reportbuilder/savi/downloadzip/:id',
} as const;

/** Spec 02 §9 / spec 03 §9: the grids' page sizes, default 20. */
export const REQUEST_PAGE_SIZES = [10, 20, 50, 100, 500, 1000] as const;
export const REQUEST_DEFAULT_PAGE_SIZE = 20;
/** Spec 02 §9: duplicate check radius (metres). The answer is bounded to this many neighbours. */
export const DUPLICATE_RADIUS_M = 100000;
export const DUPLICATE_MAX_NEIGHBOURS = 200;
/** Exports: the most rows one spreadsheet holds (Excel's own limit is 1 048 576). */
export const EXPORT_MAX_ROWS = 1_000_000;
/** The zip: the most reports one job collects. */
export const ZIP_MAX_REQUESTS = 1000;

/** Realtime (socket.io at REALTIME_PATH): spec 02 §7.2 events. */
export const REALTIME_PATH = '/realtime/';
export const REALTIME_EVENTS = {
  updateRequest: 'update_request',
  updateRequests: 'update_requests',
} as const;
/** Redis channel on which the services announce changed requests (the socket layer relays them), under the portal's prefix. */
export const requestUpdatedChannel = (redisPrefix: string) => `${redisPrefix}:request-updated`;
/** update_request carries the changed row; update_requests the ids of a bulk change (grids refetch). */
export interface RequestUpdatedEvent {
  ids: string[];
  /** The row as it is now, for a single change. */
  row?: RequestRow;
  /** The owners of the changed requests: a plain user's socket hears only their own. */
  userIds: string[];
}

/**
 * Spec 02 §7.2 / spec 03 §7 filter names, each a query parameter of the pager, the streamed list, the
 * counts and the xlsx export (or one JSON object in `filters`). Yes/No filters take Yes, No, true, false.
 * Dates: epoch milliseconds or ISO dates (a date alone is a South African day, end_date included).
 */
export const REQUEST_FILTER_NAMES = [
  'request_type',
  'request_sub_type',
  'client',
  'grip_reference',
  'client_reference',
  'email',
  'start_date',
  'end_date',
  'status',
  'firstUser',
  'address',
  'invoiceNumber',
  'cantlocate',
  'reportDisputed',
  'downloaded',
  'priority',
  'user_id',
] as const;
export type RequestFilterName = (typeof REQUEST_FILTER_NAMES)[number];
export type RequestFilters = Partial<Record<RequestFilterName, string>>;

const FilterValue = Type.String({ maxLength: 500 });
const filterProperties = Object.fromEntries(
  REQUEST_FILTER_NAMES.map((name) => [name, Type.Optional(FilterValue)]),
) as Record<RequestFilterName, TOptional<TString>>;

export const RequestFilterQuery = Type.Object({
  ...filterProperties,
  /** The same filters as one JSON object (the earlier client's form); named parameters win. */
  filters: Type.Optional(Type.String({ maxLength: 4000 })),
});
export type RequestFilterQuery = Static<typeof RequestFilterQuery>;

/** Sortable columns of the grid (their names in RequestRow). */
export const REQUEST_SORT_FIELDS = [
  'created',
  'priority',
  'status',
  'type',
  'gripReference',
  'user',
  'address',
  'client',
  'timeInQueue',
  'firstQS',
  'invoice',
  'rve',
  'reportFee',
  'numberOfBuildings',
  'unitPrice',
] as const;
export type RequestSortField = (typeof REQUEST_SORT_FIELDS)[number];

export const RequestPagerQuery = Type.Object({
  ...RequestFilterQuery.properties,
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
  /**
   * JSON: {"priority": -1, "created": -1} (1/-1 or "asc"/"desc", in order of precedence). Default
   * priority desc then created desc for staff (spec 02 §9), created ascending for a user's own list.
   */
  sort_object: Type.Optional(Type.String({ maxLength: 500 })),
});
export type RequestPagerQuery = Static<typeof RequestPagerQuery>;

const YesNo = Type.Union([Type.Literal('Yes'), Type.Literal('No')]);

/** Spec 02 §3 "Request (grid row)", plus the server fields the screens read. */
export const RequestRow = Type.Object({
  requestID: Type.String(),
  type: Type.String(),
  subType: nullable(Type.String()),
  priority: YesNo,
  gripReference: Type.String(),
  user: Type.String(),
  userId: Type.String(),
  email: Type.String(),
  created: Type.String({ format: 'date-time' }),
  status: Type.String(),
  firstQS: nullable(Type.String()),
  firstUser: nullable(Type.String()),
  address: Type.String(),
  coordinates: nullable(Type.Object({ lat: Type.Number(), lng: Type.Number() })),
  comments: Type.String(),
  note: Type.String(),
  timeInQueue: Type.Integer(),
  cantlocate: YesNo,
  downloaded: YesNo,
  invoice: nullable(Type.String()),
  disputed: YesNo,
  client: nullable(Type.String()),
  clientReference: Type.String(),
  reportFee: nullable(Type.Number()),
  /** The final RVE (the report's total). */
  rve: nullable(Type.Number()),
  /** The estimate shown until the report is finalised (spec 03 "Status display"). */
  preliminaryRve: nullable(Type.Number()),
  rveType: nullable(Type.String()),
  numberOfBuildings: nullable(Type.Number()),
  unitPrice: nullable(Type.Number()),
  reportPdfUrl: nullable(Type.String()),
  reportId: nullable(Type.String()),
  dateFinalised: nullable(Type.String()),
  /** Bumped on every change: a write that names an older version is refused with 409. */
  version: Type.Integer(),
});
export type RequestRow = Static<typeof RequestRow>;

export const RequestPagerAnswer = Type.Object({ total: Type.Integer(), docs: Type.Array(RequestRow) });
export type RequestPagerAnswer = Static<typeof RequestPagerAnswer>;

export const RequestStatusCountsAnswer = Type.Object({
  total: Type.Integer(),
  counts: Type.Record(Type.String(), Type.Integer()),
});
export type RequestStatusCountsAnswer = Static<typeof RequestStatusCountsAnswer>;

export const RequestConsoleSettings = Type.Object({
  /** Hours in queue per status before a row is 'over' (beyond the spec: ageing). */
  ageingTargets: Type.Record(Type.String(), Type.Number()),
  statuses: Type.Array(Type.String()),
  pageSizes: Type.Array(Type.Integer()),
});
export type RequestConsoleSettings = Static<typeof RequestConsoleSettings>;

const Id = Type.String({ minLength: 1, maxLength: 64 });
const Ids = Type.Array(Id, { minItems: 1, maxItems: 1000 });
const Version = Type.Optional(Type.Integer({ minimum: 0 }));
const Comment = Type.String({ maxLength: 4000 });
const Money = Type.Number({ minimum: 0, maximum: 1e10 });
const Count = Type.Integer({ minimum: 0, maximum: 100000 });
export const StatusSchema = Type.Unsafe<string>(
  Type.Union(REQUEST_STATUSES.map((status) => Type.Literal(status))),
);
export const PropertyTypeSchema = Type.Union([
  Type.Literal('AGRICULTURAL'),
  Type.Literal('COMMERCIAL'),
  Type.Literal('RESIDENTIAL'),
]);

export const UpdateStatusBody = Type.Object({
  _id: Id,
  status: StatusSchema,
  firstUser: Type.Optional(Type.String({ maxLength: 200 })),
  version: Version,
});
export const SubmitBody = Type.Object({
  _id: Id,
  lat: Type.Number({ minimum: -90, maximum: 90 }),
  lng: Type.Number({ minimum: -180, maximum: 180 }),
  status: Type.Optional(StatusSchema),
  version: Version,
});
export const QueryBody = Type.Object({
  _id: Id,
  comment: Comment,
  status: Type.Optional(StatusSchema),
  version: Version,
});
export const DisputeBody = Type.Object({ _id: Id, comment: Comment, version: Version });
export const QcChecklistBody = Type.Object({
  _id: Id,
  status: Type.Optional(StatusSchema),
  propertyType: PropertyTypeSchema,
  numberOfBuildings: Count,
  price: Money,
  /** The 7 ticks, as the checklist had them: the server checks them too. */
  checks: Type.Optional(Type.Array(Type.Boolean(), { maxItems: 20 })),
  version: Version,
});
export const QsChecklistBody = Type.Object({
  _id: Id,
  status: Type.Optional(StatusSchema),
  firstUser: Type.Optional(Type.String({ maxLength: 200 })),
  priority: Type.Union([Type.Boolean(), YesNo]),
  checks: Type.Optional(Type.Array(Type.Boolean(), { maxItems: 20 })),
  version: Version,
});
export const IdsBody = Type.Object({ ids: Ids });
export const UpdateAllFeesBody = Type.Object({
  ids: Ids,
  type: PropertyTypeSchema,
  price: Money,
  buildings: Count,
});
export const PriorityBody = Type.Object({
  id: Id,
  priority: Type.Union([Type.Boolean(), YesNo]),
  version: Version,
});
export const PropertyTypeBody = Type.Object({ id: Id, propertyType: PropertyTypeSchema, version: Version });
export const NumberOfBuildingsBody = Type.Object({ id: Id, numberOfBuildings: Count, version: Version });
export const UnitPriceBody = Type.Object({ id: Id, unitPrice: Money, version: Version });
export const ClientReferencesBody = Type.Object({
  _id: Id,
  clientReferences: Type.Record(
    Type.String({ minLength: 1, maxLength: 100 }),
    Type.String({ maxLength: 200 }),
    {
      maxProperties: 50,
    },
  ),
});
export const ClientReferencesAnswer = Type.Object({
  clientReferences: Type.Record(Type.String(), Type.String()),
  /** The group's reference fields (label, key), for the editor's labels. */
  fields: Type.Array(Type.Object({ key: Type.String(), label: Type.String() })),
});
export type ClientReferencesAnswer = Static<typeof ClientReferencesAnswer>;
export const MarkInvoicedBody = Type.Object({
  requestids: Ids,
  invoiceNumber: Type.String({ minLength: 1, maxLength: 100 }),
});
export const CreateZipBody = Type.Object({
  requestids: Type.Array(Id, { minItems: 1, maxItems: ZIP_MAX_REQUESTS }),
});
/** The selection's ids, or none: then every match of the filters (`filters`, as the pager takes them). */
export const ExportToExcelBody = Type.Object({
  requests: Type.Optional(Type.Array(Id, { maxItems: 100000 })),
  filters: Type.Optional(Type.Record(Type.String(), Type.String({ maxLength: 500 }))),
});

export type UpdateStatusBody = Static<typeof UpdateStatusBody>;
export type SubmitBody = Static<typeof SubmitBody>;
export type QueryBody = Static<typeof QueryBody>;
export type DisputeBody = Static<typeof DisputeBody>;
export type QcChecklistBody = Static<typeof QcChecklistBody>;
export type QsChecklistBody = Static<typeof QsChecklistBody>;
export type IdsBody = Static<typeof IdsBody>;
export type UpdateAllFeesBody = Static<typeof UpdateAllFeesBody>;
export type PriorityBody = Static<typeof PriorityBody>;
export type PropertyTypeBody = Static<typeof PropertyTypeBody>;
export type NumberOfBuildingsBody = Static<typeof NumberOfBuildingsBody>;
export type UnitPriceBody = Static<typeof UnitPriceBody>;
export type ClientReferencesBody = Static<typeof ClientReferencesBody>;
export type MarkInvoicedBody = Static<typeof MarkInvoicedBody>;
export type CreateZipBody = Static<typeof CreateZipBody>;
export type ExportToExcelBody = Static<typeof ExportToExcelBody>;

/** A single change: the row as it is now. */
export const RequestChangeAnswer = Type.Object({ success: Type.Literal(true), request: RequestRow });
export type RequestChangeAnswer = Static<typeof RequestChangeAnswer>;
/** A bulk change: how many rows changed (all or none: one transaction). */
export const BulkChangeAnswer = Type.Object({ success: Type.Literal(true), updated: Type.Integer() });
export type BulkChangeAnswer = Static<typeof BulkChangeAnswer>;

/**
 * 409 answers of a change carry the row as it is now, so the screen shows the latest (spec: "two operators
 * saving the same row → one wins, the other gets 409 or the latest row").
 */
export const ConflictAnswer = Type.Object({
  statusCode: Type.Literal(409),
  error: Type.String(),
  message: Type.String(),
  messages: Type.Optional(Type.Array(Type.String())),
  requestId: Type.Optional(Type.String()),
  current: Type.Optional(RequestRow),
  /** For a bulk change: the requests whose status does not allow it. */
  refused: Type.Optional(
    Type.Array(Type.Object({ id: Type.String(), gripReference: Type.String(), status: Type.String() })),
  ),
});
export type ConflictAnswer = Static<typeof ConflictAnswer>;

export const RequestHistoryEntry = Type.Object({
  at: Type.String(),
  user: Type.String(),
  /** status, priority, fee, invoice, propertyType, numberOfBuildings, unitPrice, references, query, dispute. */
  field: Type.String(),
  from: nullable(Type.String()),
  to: nullable(Type.String()),
  comment: nullable(Type.String()),
});
export type RequestHistoryEntry = Static<typeof RequestHistoryEntry>;
export const RequestHistoryAnswer = Type.Object({ history: Type.Array(RequestHistoryEntry) });
export type RequestHistoryAnswer = Static<typeof RequestHistoryAnswer>;

/** Spec 03 "Duplicate check": a request on the map, with what its popup shows. */
export const NearRequest = Type.Object({
  requestID: Type.String(),
  gripReference: Type.String(),
  location: Type.String(),
  lat: Type.Number(),
  lng: Type.Number(),
  client: nullable(Type.String()),
  reference: Type.String(),
  status: Type.String(),
  /** The finalised date when finalised, else the created date. */
  date: Type.String(),
  dateKind: Type.Union([Type.Literal('finalised'), Type.Literal('created')]),
  finalRve: nullable(Type.Number()),
  preliminaryRve: nullable(Type.Number()),
  distance: Type.Number(),
});
export type NearRequest = Static<typeof NearRequest>;
export const NearAnswer = Type.Object({
  centre: NearRequest,
  requests: Type.Array(NearRequest),
  radius: Type.Number(),
  truncated: Type.Boolean(),
});
export type NearAnswer = Static<typeof NearAnswer>;
export const NearParams = Type.Object({
  id: Id,
  radius: Type.Number({ exclusiveMinimum: 0, maximum: 1_000_000 }),
});

/** A background job of the console (xlsx export or zip), as its poll answers. */
export const ConsoleJob = Type.Object({
  id: Type.String(),
  kind: Type.Union([Type.Literal('xlsx'), Type.Literal('zip')]),
  state: Type.Union([
    Type.Literal('queued'),
    Type.Literal('running'),
    Type.Literal('done'),
    Type.Literal('failed'),
  ]),
  /** 0–100. */
  progress: Type.Number(),
  rows: nullable(Type.Integer()),
  error: nullable(Type.String()),
  downloadUrl: nullable(Type.String()),
  createdAt: Type.String(),
  finishedAt: nullable(Type.String()),
});
export type ConsoleJob = Static<typeof ConsoleJob>;

/** Beyond the spec: a user's saved filter views of the console. */
export const SavedView = Type.Object({
  id: Type.String(),
  name: Type.String(),
  /** Filters, sort and page size as the grid keeps them. */
  state: Type.Record(Type.String(), Type.Unknown()),
  updatedAt: Type.String(),
});
export type SavedView = Static<typeof SavedView>;
export const SavedViewBody = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 80 }),
  state: Type.Record(Type.String(), Type.Unknown(), { maxProperties: 40 }),
});
export type SavedViewBody = Static<typeof SavedViewBody>;
export const SavedViewsAnswer = Type.Object({ views: Type.Array(SavedView) });
export type SavedViewsAnswer = Static<typeof SavedViewsAnswer>;
