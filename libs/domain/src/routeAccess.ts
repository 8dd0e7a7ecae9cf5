import { INSIGHT_TEXTS, type ServiceIdentifier } from '@portal/contracts';

/**
 * Who may enter every route of every HTTP service: the one table the services' role gate reads
 * (libs/server-kit, createServiceApp's `routeAccess` option: 401 without a valid session, 403 without an
 * allowed role, before anything else of the request is read) and the audit's authorization matrix
 * (audit/src/access-matrix.test.ts) walks. A route a service registers that is not here stops the service
 * from starting, so the table cannot drift from the code.
 *
 * Keys are the service's name (config/services.json), the method and the route pattern exactly as Fastify
 * registers it (`app.registeredRoutes`: '/api/v1.0/request/:id/any', with or without the trailing slash
 * the code wrote). HEAD asks as GET. `prefix` entries cover a third-party plugin's own routes below a path
 * (the queue dashboard, the oblique viewer's proxy), `method: '*'` every method of the pattern.
 *
 * The table holds the role gate only. Finer refusals stay in the services and are noted here so a test
 * knows a 403 for an allowed role may be right: `service` (the caller's group or own services must hold one
 * of these), `rowLevel` (the row must be the caller's, or the caller staff; or the row's state refuses),
 * `finer` (any other rule, in words). The services also re-read the caller's row on each call (a
 * deactivated account or a removed role counts at once); the gate reads the session's roles only.
 */

/** Who may enter: anyone, any signed-in user, or a user holding one of the roles (ROLE in contracts). */
export type AccessRole =
  | 'anonymous'
  | 'authenticated'
  | 'admin'
  | 'saviOperator'
  | 'saviQC'
  | 'ratesEditor'
  /** The admin of their own group (identity.groups.admin_user_id): its keys, webhooks and usage. */
  | 'groupAdmin';

/** The HTTP services whose routes the table gates (config/services.json names). */
export const ROUTE_ACCESS_APPS = [
  'identity',
  'services-admin',
  'locator',
  'requests',
  'reportbuilder',
  'iris',
  'avs-editor',
] as const;
export type RouteAccessApp = (typeof ROUTE_ACCESS_APPS)[number];

export interface RouteAccessEntry {
  /** The HTTP service (config/services.json name). */
  app: RouteAccessApp;
  /** An HTTP method, or '*' for every method the pattern is registered for. */
  method: string;
  /** The route pattern as Fastify registers it; with `prefix`, every route at or below it. */
  url: string;
  prefix?: true;
  /** Who may enter (any one of these). */
  allow: readonly AccessRole[];
  /** The caller must also have one of these services (spec 03 §3): a 403 otherwise. */
  service?: readonly ServiceIdentifier[];
  /** The row must be the caller's (or the caller staff), or its state refuses: a 403 possible. */
  rowLevel?: true;
  /** Another rule the service applies after the gate (a 403 possible), in words. */
  finer?: string;
  /** The words of the gate's 403 (ROUTE_REFUSALS), where the service has its own; otherwise the default. */
  refusal?: string;
  /**
   * Whether an API key may call the route (issue 22), and with what: the service the key must hold
   * ('request': the request's type decides, checked by the service against the caller's services, which
   * are the key's) and the scope ('write' for anything that creates or changes). Without it, a key gets
   * 403 (accounts, administration, the address editor, the screens' own settings).
   */
  key?: KeyAccess;
}

/** What an API key needs to call a route. */
export interface KeyAccess {
  service: ServiceIdentifier | 'request';
  scope: 'read' | 'write';
}

/**
 * The gate's 403 texts where a service words its refusal itself (the services' own checks use the same
 * constants, so the answer reads the same whichever refuses).
 */
export const ROUTE_REFUSALS = {
  requestConsole: 'The request console is for administrators and SAVi operators.',
  requestStaff: 'Only the operations team (administrators, SAVi operators and QC) may do that.',
  prioritiseAll: 'Only administrators may prioritise requests.',
  exports: 'Exports and zips are for administrators and SAVi operators.',
  reportEditing: 'Only the operations team (administrators, SAVi operators and QC) may edit reports.',
  addressEditor: 'The address editor is for SAVi operators and administrators.',
  queueDashboard: 'The queue dashboard is for administrators.',
  insight: INSIGHT_TEXTS.staffOnly,
} as const;

const ANYONE = ['anonymous'] as const satisfies readonly AccessRole[];
const SIGNED_IN = ['authenticated'] as const satisfies readonly AccessRole[];
const ADMIN = ['admin'] as const satisfies readonly AccessRole[];
/** The request console (spec 02 §2.2): administrators and SAVi operators. */
const CONSOLE = ['admin', 'saviOperator'] as const satisfies readonly AccessRole[];
/** The operations team (STAFF_ROLES in server-kit): every request, editing reports. */
const STAFF = ['admin', 'saviOperator', 'saviQC'] as const satisfies readonly AccessRole[];
/** The address editor (ADDRESS_EDITOR_ROLES). */
const EDITOR = ['admin', 'saviOperator'] as const satisfies readonly AccessRole[];
/** A group's integration (API keys, webhooks, usage): administrators, and the group's own admin. */
const GROUP_INTEGRATION = ['admin', 'groupAdmin'] as const satisfies readonly AccessRole[];
const OWN_GROUP: Extra = { rowLevel: true, finer: "a group's admin: their own group only" };
/** The operations dashboard (issue 24): the request console's roles, and a group's admin for their group. */
const INSIGHT = ['admin', 'saviOperator', 'groupAdmin'] as const satisfies readonly AccessRole[];

type Extra = Pick<RouteAccessEntry, 'prefix' | 'service' | 'rowLevel' | 'finer' | 'refusal' | 'key'>;
const ROW: Extra = { rowLevel: true };
const R = ROUTE_REFUSALS;
const CONSOLE_CALL: Extra = { refusal: R.requestConsole };
const INSIGHT_CALL: Extra = {
  rowLevel: true,
  finer: "a group's admin: their own group's figures only",
  refusal: R.insight,
};
const STAFF_CALL: Extra = { rowLevel: true, refusal: R.requestStaff };
const REPORT_EDIT: Extra = { rowLevel: true, refusal: R.reportEditing };
const ADDRESS_EDIT: Extra = { refusal: R.addressEditor };
const ADDRESS_EDIT_ROW: Extra = { rowLevel: true, refusal: R.addressEditor };
/** Open to API keys holding the service, reading (K) or writing (KW). */
const K = (service: KeyAccess['service'], extra: Extra = {}): Extra => ({
  ...extra,
  key: { service, scope: 'read' },
});
const KW = (service: KeyAccess['service'], extra: Extra = {}): Extra => ({
  ...extra,
  key: { service, scope: 'write' },
});

/**
 * Internal paths every service answers on its own port (never through the gateway). /openapi.json is the
 * service's OpenAPI document (server-kit's openapi.ts): the gateway publishes the merged one at
 * /api/openapi.json instead.
 */
export const INTERNAL_ROUTES = ['/health', '/ready', '/metrics', '/openapi.json'] as const;

const routes = (
  app: RouteAccessApp,
  list: [method: string, url: string, allow: readonly AccessRole[], extra?: Extra][],
): RouteAccessEntry[] => [
  ...INTERNAL_ROUTES.map((url) => ({ app, method: 'GET', url, allow: ANYONE })),
  ...list.map(([method, url, allow, extra]) => ({ app, method, url, allow, ...extra })),
];

const VALIDATORS = 'validators only: the e-mail prefix rule (AVS_EDITOR_VALIDATOR_PREFIXES)';

export const ROUTE_ACCESS: readonly RouteAccessEntry[] = [
  ...routes('identity', [
    // Answers 401 itself too (the user's row as it is now).
    ['GET', '/api/v1.0/users/me', SIGNED_IN],
    // '0' without a session.
    ['GET', '/api/v1.0/loggedin', ANYONE],
    ['POST', '/api/v1.0/login', ANYONE],
    ['POST', '/api/v1.0/register', ANYONE],
    ['GET', '/api/v1.0/logout', ANYONE],
    ['POST', '/api/v1.0/forgot-password', ANYONE],
    ['POST', '/api/v1.0/passwordreset', ANYONE],
    ['POST', '/api/v1.0/reset/:tokenId', ANYONE],
    ['POST', '/api/v1.0/passwordresetcb', ANYONE],
    ['GET', '/admin/menu/:name', ANYONE],
    ['GET', '/api/v1.0/services', SIGNED_IN],
    ['GET', '/api/v1.0/users/me/references', SIGNED_IN],
    ['POST', '/api/v1.0/audit/', SIGNED_IN],
  ]),
  ...routes('services-admin', [
    ['GET', '/api/v1.0/services/page-for-model', ADMIN],
    ['GET', '/api/v1.0/services/all', ADMIN],
    ['GET', '/api/v1.0/group/services', ADMIN],
    ['GET', '/api/v1.0/group/:id/services', ADMIN],
    ['POST', '/api/v1.0/group/:id/services', ADMIN],
    ['DELETE', '/api/v1.0/group/:id/service/:service', ADMIN],
    ['GET', '/api/v1.0/user/:id/services', ADMIN],
    ['POST', '/api/v1.0/user/:id/services', ADMIN],
    ['DELETE', '/api/v1.0/user/:id/service/:service', ADMIN],
    ['GET', '/api/v1.0/users', ADMIN],
    ['GET', '/api/v1.0/group/:id/users', ADMIN],
    ['POST', '/api/v1.0/user/:id', ADMIN],
    ['DELETE', '/api/v1.0/user/:id', ADMIN],
    ['GET', '/api/v1.0/groups', ADMIN],
    ['PUT', '/api/v1.0/groups', ADMIN],
    ['POST', '/api/v1.0/group/:id', ADMIN],
    ['DELETE', '/api/v1.0/group/:id', ADMIN],
    // API keys (issue 22).
    ['POST', '/api/v1.0/group/:id/api-keys', GROUP_INTEGRATION, OWN_GROUP],
    ['GET', '/api/v1.0/group/:id/api-keys', GROUP_INTEGRATION, OWN_GROUP],
    ['DELETE', '/api/v1.0/api-keys/:keyId', GROUP_INTEGRATION, OWN_GROUP],
    ['PUT', '/api/v1.0/group/:id/api-rate-limit', ADMIN],
    // Usage metering (issue 22): a group's admin their own group's, administrators any or all.
    ['GET', '/api/v1.0/usage', GROUP_INTEGRATION, OWN_GROUP],
    ['GET', '/api/v1.0/usage/export.xlsx', GROUP_INTEGRATION, OWN_GROUP],
    ['GET', '/api/v1.0/usage/export.csv', GROUP_INTEGRATION, OWN_GROUP],
    // Webhooks (issue 22): a group's endpoints and their deliveries.
    ['GET', '/api/v1.0/group/:id/webhooks', GROUP_INTEGRATION, OWN_GROUP],
    ['POST', '/api/v1.0/group/:id/webhooks', GROUP_INTEGRATION, OWN_GROUP],
    ['PUT', '/api/v1.0/group/:id/webhooks/:endpointId', GROUP_INTEGRATION, OWN_GROUP],
    ['DELETE', '/api/v1.0/group/:id/webhooks/:endpointId', GROUP_INTEGRATION, OWN_GROUP],
    ['POST', '/api/v1.0/group/:id/webhooks/:endpointId/rotate-secret', GROUP_INTEGRATION, OWN_GROUP],
    ['POST', '/api/v1.0/group/:id/webhooks/:endpointId/test', GROUP_INTEGRATION, OWN_GROUP],
    ['GET', '/api/v1.0/group/:id/webhooks/:endpointId/deliveries', GROUP_INTEGRATION, OWN_GROUP],
    [
      'POST',
      '/api/v1.0/group/:id/webhooks/:endpointId/deliveries/:deliveryId/redeliver',
      GROUP_INTEGRATION,
      OWN_GROUP,
    ],
    // The report builder's staff read every group's rates; a rates editor reads and edits their own group's.
    [
      'GET',
      '/api/v1.0/reportbuilder/rates/:groupID',
      ['admin', 'ratesEditor', 'saviOperator', 'saviQC'],
      { rowLevel: true, finer: "a rates editor: their own group's table only" },
    ],
    ['POST', '/api/v1.0/reportbuilder/rates/', ['admin', 'ratesEditor'], ROW],
    ['GET', '/api/v1.0/reportbuilder/rates/:groupID/export.xlsx', ['admin', 'ratesEditor'], ROW],
    ['POST', '/api/v1.0/reportbuilder/rates/:groupID/import', ['admin', 'ratesEditor'], ROW],
  ]),
  ...routes('locator', [
    // The address service also needs the session's e-mail (a 401 without one).
    ['POST', '/api/avs/geocode', SIGNED_IN, K('avs')],
    ['POST', '/api/avs/search', SIGNED_IN, K('avs')],
    ['POST', '/api/avs/searchPostal', SIGNED_IN, K('avs')],
    ['POST', '/api/avs/reverse', SIGNED_IN, K('avs')],
    ['POST', '/api/avs/geojson', SIGNED_IN, K('avs')],
    ['POST', '/api/avs/validate', SIGNED_IN, K('avs')],
    ['POST', '/api/avs/validate/batch', SIGNED_IN, K('avs')],
    ['GET', '/api/v1.0/tiles/satellite/:z/:x/:y.jpg', SIGNED_IN, K('spatialkey')],
    ['GET', '/api/v1.0/tiles/:layer/:z/:x/:y.mvt', SIGNED_IN, K('spatialkey')],
    // GIS tools (issue 23): TileJSON documents and OGC API – Features, read like the tiles.
    ['GET', '/api/v1.0/tiles/:layer.json', SIGNED_IN, K('spatialkey')],
    ['GET', '/ogc', SIGNED_IN, K('spatialkey')],
    ['GET', '/ogc/conformance', SIGNED_IN, K('spatialkey')],
    ['GET', '/ogc/collections', SIGNED_IN, K('spatialkey')],
    ['GET', '/ogc/collections/:collectionId', SIGNED_IN, K('spatialkey')],
    ['GET', '/ogc/collections/:collectionId/items', SIGNED_IN, K('spatialkey')],
    ['GET', '/ogc/collections/:collectionId/items/:featureId', SIGNED_IN, K('spatialkey')],
    ['GET', '/api/idanCoverage', SIGNED_IN, K('spatialkey')],
    ['GET', '/api/idanImageUrl', SIGNED_IN, K('spatialkey')],
    ['GET', '/api/idanSmallImageUrl', SIGNED_IN, K('spatialkey')],
    ['GET', '/api/imagery/images/*', SIGNED_IN, K('spatialkey')],
    // Dated imagery (issue 21).
    ['GET', '/api/imagery/surveys', SIGNED_IN, K('spatialkey')],
    ['GET', '/api/imagery/changes', SIGNED_IN, K('spatialkey')],
    ['GET', '/api/imagery/buildings', SIGNED_IN, K('spatialkey')],
    // The oblique viewer's proxy (every method, its own paths below).
    ['*', '/api/pictometry/proxy', SIGNED_IN, { prefix: true }],
  ]),
  ...routes('requests', [
    // The request type's service: SAVI savi, AVS avs, IRIS iris, Can't Locate savi or avs.
    ['PUT', '/api/v1.0/request/', SIGNED_IN, KW('request', { service: ['savi', 'avs', 'iris'] })],
    ['GET', '/api/v1.0/request/:id/any', SIGNED_IN, K('request', ROW)],
    // Own requests; staff everyone's.
    ['GET', '/api/v1.0/request/map', SIGNED_IN, K('request')],
    ['GET', '/api/v1.0/request/pager', SIGNED_IN, K('request')],
    ['GET', '/api/v1.0/request/status_counts', SIGNED_IN, K('request')],
    ['GET', '/api/v1.0/request/settings', SIGNED_IN, K('request')],
    ['GET', '/api/v1.0/requests', CONSOLE, K('request', CONSOLE_CALL)],
    ['GET', '/api/v1.0/request/:id/history', SIGNED_IN, K('request', ROW)],
    // Measurements (issue 21): the requester and staff read, staff write.
    ['GET', '/api/v1.0/request/:id/measurements', SIGNED_IN, K('request', ROW)],
    ['POST', '/api/v1.0/request/:id/measurements', STAFF, KW('savi', STAFF_CALL)],
    ['DELETE', '/api/v1.0/request/:id/measurements/:measurementId', STAFF, KW('savi', STAFF_CALL)],
    ['GET', '/api/v1.0/request/:id/references', SIGNED_IN, K('request', ROW)],
    ['GET', '/api/v1.0/request/near/:id/:radius', SIGNED_IN, K('request', ROW)],
    [
      'POST',
      '/api/v1.0/request/update_status',
      STAFF,
      KW('savi', { rowLevel: true, finer: 'the status change allowed', refusal: R.requestStaff }),
    ],
    ['POST', '/api/v1.0/request/submit', STAFF, KW('savi', STAFF_CALL)],
    ['POST', '/api/v1.0/request/query', STAFF, KW('savi', STAFF_CALL)],
    ['POST', '/api/v1.0/request/dispute', SIGNED_IN, KW('request', ROW)],
    [
      'POST',
      '/api/v1.0/request/update_qc_checklist',
      CONSOLE,
      KW('savi', { finer: 'QC approval: saviQC', refusal: R.requestConsole }),
    ],
    ['POST', '/api/v1.0/request/update_qs_checklist', STAFF, KW('savi', STAFF_CALL)],
    ['POST', '/api/v1.0/request/priority', CONSOLE, KW('savi', CONSOLE_CALL)],
    ['POST', '/api/v1.0/request/property-type', CONSOLE, KW('savi', CONSOLE_CALL)],
    ['POST', '/api/v1.0/request/number-of-buildings', CONSOLE, KW('savi', CONSOLE_CALL)],
    ['POST', '/api/v1.0/request/unit-price', CONSOLE, KW('savi', CONSOLE_CALL)],
    ['POST', '/api/v1.0/request/references', SIGNED_IN, KW('request', ROW)],
    ['POST', '/api/v1.0/request/prioritise_all', ADMIN, KW('savi', { refusal: R.prioritiseAll })],
    ['POST', '/api/v1.0/request/all_to_delivered', CONSOLE, KW('savi', CONSOLE_CALL)],
    ['POST', '/api/v1.0/request/update_all_fees', CONSOLE, KW('savi', CONSOLE_CALL)],
    ['POST', '/api/v1.0/reportbuilder/savi/markInvoiced', CONSOLE, KW('savi', CONSOLE_CALL)],
    // The user's own saved views.
    ['GET', '/api/v1.0/request/views', SIGNED_IN],
    ['POST', '/api/v1.0/request/views', SIGNED_IN],
    ['DELETE', '/api/v1.0/request/views/:id', SIGNED_IN],
    // A person's own notifications and preferences (issue 24); not for API keys (they are told nothing).
    ['GET', '/api/v1.0/request/notifications', SIGNED_IN],
    ['GET', '/api/v1.0/request/notifications/unread_count', SIGNED_IN],
    ['POST', '/api/v1.0/request/notifications/read', SIGNED_IN],
    ['POST', '/api/v1.0/request/notifications/read_all', SIGNED_IN],
    ['GET', '/api/v1.0/request/notifications/preferences', SIGNED_IN],
    ['PUT', '/api/v1.0/request/notifications/preferences', SIGNED_IN],
    ['POST', '/api/v1.0/request/savi/export_to_excel', CONSOLE, KW('savi', { refusal: R.exports })],
    ['POST', '/api/v1.0/reportbuilder/savi/createzip', CONSOLE, KW('savi', { refusal: R.exports })],
    // The job's owner, or an admin.
    ['GET', '/api/v1.0/request/jobs/:id', SIGNED_IN, K('request', ROW)],
    ['GET', '/api/v1.0/request/savi/download_xlsx/:id', SIGNED_IN, K('savi', ROW)],
    ['GET', '/api/v1.0/reportbuilder/savi/downloadzip/:id', SIGNED_IN, K('savi', ROW)],
    // The operations dashboard (issue 24): the console's roles any group, a group's admin their own group.
    ['GET', '/api/v1.0/requests/insight', INSIGHT, INSIGHT_CALL],
    ['GET', '/api/v1.0/requests/insight/export.xlsx', INSIGHT, INSIGHT_CALL],
    ['GET', '/api/v1.0/requests/insight/export.csv', INSIGHT, INSIGHT_CALL],
  ]),
  ...routes('reportbuilder', [
    // Reading: the request's owner and staff. Writing: staff, while the request is editable.
    ['GET', '/api/v1.0/reportbuilder/sections/:requestID', SIGNED_IN, K('savi', ROW)],
    ['POST', '/api/v1.0/reportbuilder/section', STAFF, KW('savi', REPORT_EDIT)],
    ['GET', '/api/v1.0/reportbuilder/requestComments', SIGNED_IN, K('savi', ROW)],
    ['GET', '/api/v1.0/reportbuilder/requestComments/:requestID', SIGNED_IN, K('savi', ROW)],
    ['POST', '/api/v1.0/reportbuilder/requestComments', STAFF, KW('savi', REPORT_EDIT)],
    ['POST', '/api/v1.0/reportbuilder/requestComments/:requestID', STAFF, KW('savi', REPORT_EDIT)],
    ['GET', '/api/v1.0/reportbuilder/requestNote', SIGNED_IN, K('savi', ROW)],
    ['GET', '/api/v1.0/reportbuilder/requestNote/:requestID', SIGNED_IN, K('savi', ROW)],
    ['POST', '/api/v1.0/reportbuilder/requestNote', STAFF, KW('savi', REPORT_EDIT)],
    ['POST', '/api/v1.0/reportbuilder/requestNote/:requestID', STAFF, KW('savi', REPORT_EDIT)],
    ['GET', '/api/v1.0/reportbuilder/requestDetails/:requestID', SIGNED_IN, K('savi', ROW)],
    ['GET', '/api/v1.0/reportbuilder/requestReportAddressDetails/:requestID', SIGNED_IN, K('savi', ROW)],
    ['POST', '/api/v1.0/reportbuilder/requestDetails/address', STAFF, KW('savi', REPORT_EDIT)],
    ['POST', '/api/v1.0/reportbuilder/requestExtraField/included', STAFF, KW('savi', REPORT_EDIT)],
    ['POST', '/api/v1.0/reportbuilder/requestExtraField/description', STAFF, KW('savi', REPORT_EDIT)],
    ['POST', '/api/v1.0/reportbuilder/requestExtraField/value', STAFF, KW('savi', REPORT_EDIT)],
    ['GET', '/api/v1.0/reportbuilder/totals/:requestID', SIGNED_IN, K('savi', ROW)],
    ['GET', '/api/v1.0/reportbuilder/versions/:requestID', SIGNED_IN, K('savi', ROW)],
    ['POST', '/api/v1.0/reportbuilder/footprints', STAFF, KW('savi', REPORT_EDIT)],
    ['POST', '/api/v1.0/reportbuilder/image', STAFF, KW('savi', REPORT_EDIT)],
    ['POST', '/api/v1.0/reportbuilder/upload', STAFF, KW('savi', REPORT_EDIT)],
    ['POST', '/api/v1.0/reportbuilder/image/crop', STAFF, KW('savi', REPORT_EDIT)],
    ['POST', '/api/v1.0/reportbuilder/image/copy', STAFF, KW('savi', REPORT_EDIT)],
    ['POST', '/api/v1.0/reportbuilder/image/rearrange', STAFF, KW('savi', REPORT_EDIT)],
    ['GET', '/api/v1.0/reportbuilder/image/thumbnails/:requestID', SIGNED_IN, K('savi', ROW)],
    [
      'GET',
      '/api/v1.0/reportbuilder/image/:requestID/:type/:first/:second/:third',
      SIGNED_IN,
      K('savi', ROW),
    ],
    [
      'GET',
      '/api/v1.0/reportbuilder/image/info/:requestID/:type/:first/:second/:third',
      SIGNED_IN,
      K('savi', ROW),
    ],
    ['DELETE', '/api/v1.0/reportbuilder/image/:requestID/:sectionID', STAFF, KW('savi', REPORT_EDIT)],
    [
      'DELETE',
      '/api/v1.0/reportbuilder/image/:requestID/:sectionID/:buildingID',
      STAFF,
      KW('savi', REPORT_EDIT),
    ],
    ['GET', '/reportbuilder/assets/uploads/:requestID/:fileName', SIGNED_IN, K('savi', ROW)],
    ['GET', '/api/v1.0/reportbuilder/report/:requestID/savi/:country/:group/full', SIGNED_IN, K('savi', ROW)],
    ['GET', '/api/v1.0/reportbuilder/report/:requestID/pdf/ready', SIGNED_IN, K('savi', ROW)],
    ['GET', '/api/v1.0/reportbuilder/savi/:requestID/download', SIGNED_IN, K('savi', ROW)],
  ]),
  ...routes('iris', [
    ['GET', '/api/v1.0/iris/settings', SIGNED_IN, K('iris')],
    // The iris service, and a request given must be the caller's (or the caller staff).
    ['PUT', '/api/v1.0/iris', SIGNED_IN, KW('iris', { service: ['iris'], rowLevel: true })],
    // A report: its owner and staff.
    ['GET', '/api/v1.0/iris/:reportId', SIGNED_IN, K('iris', ROW)],
    ['GET', '/api/v1.0/iris/:reportId/pdf/canGenerate', SIGNED_IN, K('iris', ROW)],
    ['GET', '/api/v1.0/iris/:reportId/:requestId/pdf/generate', SIGNED_IN, KW('iris', ROW)],
    ['GET', '/api/v1.0/iris/:reportId/pdf/ready', SIGNED_IN, K('iris', ROW)],
    ['GET', '/api/v1.0/iris/:reportId/pdf/regenerate', SIGNED_IN, KW('iris', ROW)],
    ['GET', '/api/v1.0/iris/:reportId/pdf/cancel', SIGNED_IN, KW('iris', ROW)],
    ['POST', '/api/v1.0/iris/:reportId/pdf/cancel', SIGNED_IN, KW('iris', ROW)],
    ['GET', '/api/v1.0/iris/:reportId/pdf/download', SIGNED_IN, K('iris', ROW)],
    ['GET', '/api/v1.0/iris/:reportId/imagery/clean', SIGNED_IN, K('iris', ROW)],
    ['POST', '/api/v1.0/iris/:reportId/imagery/clean', SIGNED_IN, KW('iris', ROW)],
    ['POST', '/api/v1.0/iris/:reportId/imagery/highres/:status', SIGNED_IN, KW('iris', ROW)],
    ['POST', '/api/v1.0/iris/:reportId/aerial/:viewId', SIGNED_IN, KW('iris', ROW)],
    // The queue dashboard (Bull Board's own routes): administrators.
    ['*', '/admin/queues', ADMIN, { prefix: true, refusal: R.queueDashboard }],
  ]),
  ...routes('avs-editor', [
    ['GET', '/api/v1.0/addresseditor/display_data/:lat/:lng', EDITOR, ADDRESS_EDIT],
    ['GET', '/api/v1.0/addaddress/get_point_data/:lat/:lng', EDITOR, ADDRESS_EDIT],
    ['GET', '/api/v1.0/addresseditor/settings', EDITOR, ADDRESS_EDIT],
    ['GET', '/api/v1.0/addresseditor/parcel/:id/edits', EDITOR, ADDRESS_EDIT],
    ['GET', '/api/v1.0/addresseditor/multi_parcel', EDITOR, ADDRESS_EDIT],
    ['GET', '/api/v1.0/addaddress/no_address_parcel', EDITOR, ADDRESS_EDIT],
    [
      'GET',
      '/api/v1.0/addresseditor/dequeue_validate_parcel',
      EDITOR,
      { finer: VALIDATORS, refusal: R.addressEditor },
    ],
    ['GET', '/api/v1.0/addresseditor/cant_locate', EDITOR, ADDRESS_EDIT],
    ['POST', '/api/v1.0/addresseditor/release', EDITOR, ADDRESS_EDIT],
    ['POST', '/api/v1.0/addresseditor/address/:id/official', EDITOR, ADDRESS_EDIT_ROW],
    ['POST', '/api/v1.0/addresseditor/address/:id/accept', EDITOR, ADDRESS_EDIT_ROW],
    ['POST', '/api/v1.0/addresseditor/address/:id/reject', EDITOR, ADDRESS_EDIT_ROW],
    ['POST', '/api/v1.0/addaddress/address', EDITOR, ADDRESS_EDIT_ROW],
    ['POST', '/api/v1.0/addaddress/poi', EDITOR, ADDRESS_EDIT_ROW],
    ['POST', '/api/v1.0/addresseditor/poi/:id/detach', EDITOR, ADDRESS_EDIT_ROW],
    ['POST', '/api/v1.0/addresseditor/parcel/:id/investigate', EDITOR, ADDRESS_EDIT_ROW],
    ['POST', '/api/v1.0/addresseditor/parcel/:id/unaddressable', EDITOR, ADDRESS_EDIT_ROW],
    ['POST', '/api/v1.0/addresseditor/parcel/:id/reviewed', EDITOR, ADDRESS_EDIT_ROW],
    [
      'POST',
      '/api/v1.0/addresseditor/parcel/:id/validate',
      EDITOR,
      { rowLevel: true, finer: VALIDATORS, refusal: R.addressEditor },
    ],
    ['POST', '/api/v1.0/addresseditor/cant_locate/:id/resolve', EDITOR, ADDRESS_EDIT_ROW],
  ]),
];

const keyOf = (app: string, method: string, url: string) => `${app} ${method} ${url}`;
const EXACT = new Map<string, RouteAccessEntry>();
const PREFIXES: RouteAccessEntry[] = [];
for (const entry of ROUTE_ACCESS) {
  if (entry.prefix) PREFIXES.push(entry);
  else {
    const key = keyOf(entry.app, entry.method, entry.url);
    if (EXACT.has(key)) throw new Error(`routeAccess: ${key} is in the table twice`);
    EXACT.set(key, entry);
  }
}
PREFIXES.sort((a, b) => b.url.length - a.url.length);

const under = (url: string, prefix: string) =>
  url === prefix || url.startsWith(prefix.endsWith('/') ? prefix : `${prefix}/`);

/**
 * The table's entry for a route of a service, by the pattern as registered (HEAD asks as GET), or
 * undefined when the table does not know it (the service then refuses to start).
 */
export function routeAccess(service: string, method: string, url: string): RouteAccessEntry | undefined {
  const asked = method.toUpperCase() === 'HEAD' ? 'GET' : method.toUpperCase();
  const exact = EXACT.get(keyOf(service, asked, url)) ?? EXACT.get(keyOf(service, '*', url));
  if (exact) return exact;
  return PREFIXES.find(
    (entry) =>
      entry.app === service && (entry.method === '*' || entry.method === asked) && under(url, entry.url),
  );
}

/** True when the service's routes are gated by the table. */
export const isRouteAccessApp = (service: string): service is RouteAccessApp =>
  (ROUTE_ACCESS_APPS as readonly string[]).includes(service);

/**
 * The role gate's answer for a caller: 401 without a session (roles null) on a route that needs one, 403
 * when the session holds none of the allowed roles, null when the gate lets the caller in (the service's
 * finer checks, `service` and `rowLevel`, may still refuse).
 */
export function expectedRefusal(
  entry: Pick<RouteAccessEntry, 'allow'>,
  roles: readonly string[] | null,
): 401 | 403 | null {
  if (entry.allow.includes('anonymous')) return null;
  if (roles === null) return 401;
  if (entry.allow.includes('authenticated')) return null;
  return entry.allow.some((role) => roles.includes(role)) ? null : 403;
}

/** What the gate reads of an API key (issue 22): its services, its scope and the staff roles given to it. */
export interface KeyCaller {
  services: readonly string[];
  scope: 'read' | 'write';
  roles: readonly string[];
}

/**
 * The gate's answer for a valid API key (server-kit's route gate, in its order): nothing on a route open
 * to anyone (the gate does not look), 403 on a route the table does not open to keys, without the entry's
 * service ('request': the service decides, after the gate) or with a read-only key on a writing route, and
 * then the role gate with the key's own roles ('authenticated' and the staff roles given to it). An invalid
 * key (forged, truncated, revoked, expired) is a 401 on every guarded route instead.
 */
export function expectedKeyRefusal(
  entry: Pick<RouteAccessEntry, 'allow' | 'key'>,
  key: KeyCaller,
): 403 | null {
  if (entry.allow.includes('anonymous')) return null;
  if (!entry.key) return 403;
  const { service, scope } = entry.key;
  if (service !== 'request' && !key.services.includes(service)) return 403;
  if (scope === 'write' && key.scope !== 'write') return 403;
  return expectedRefusal(entry, ['authenticated', ...key.roles]) === 403 ? 403 : null;
}
