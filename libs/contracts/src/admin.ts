import { Type, type Static } from '@sinclair/typebox';
import { Service } from './services';

/**
 * Services administration (spec 03 §7 "Administration"). Ids are uuids; `group` on a user and `admin` on a
 * group are ids (null when unset).
 */

/** A group reference entry in the spec's list format: [label, key, position, required?, regex?, message?, hidden?]. */
export const GroupReferenceEntry = Type.Array(Type.Unknown(), { minItems: 2, maxItems: 7 });

/**
 * GET /api/v1.0/users/me/references: the reference entries the request form asks the current user for —
 * the group's claimsReferences for a claims user, else its references ([] without a group). Unfiltered:
 * the form drops hidden entries itself (spec 01 §5).
 */
export const MyReferencesAnswer = Type.Object({
  claimsUser: Type.Boolean(),
  references: Type.Array(GroupReferenceEntry),
});
export type MyReferencesAnswer = Static<typeof MyReferencesAnswer>;

export const AdminUser = Type.Object({
  _id: Type.String(),
  name: Type.String(),
  email: Type.String(),
  group: Type.Union([Type.String(), Type.Null()]),
  groupName: Type.String(),
  active: Type.Boolean(),
  admin: Type.Boolean(),
  ratesEditor: Type.Boolean(),
  saviOperator: Type.Boolean(),
  saviQC: Type.Boolean(),
  claimsUser: Type.Boolean(),
  /** Identifiers of the services assigned to the user directly (not through the group). */
  services: Type.Array(Type.String()),
  createdAt: Type.String(),
});
export type AdminUser = Static<typeof AdminUser>;

export const AdminGroup = Type.Object({
  _id: Type.String(),
  name: Type.String(),
  code: Type.String(),
  admin: Type.Union([Type.String(), Type.Null()]),
  /** The admin user shown as the grid does: 'name (email)'; '' when unset. */
  adminLabel: Type.String(),
  active: Type.Boolean(),
  includeVAT: Type.Boolean(),
  includeProfessionalFee: Type.Boolean(),
  professionalFeePercentage: Type.Number(),
  extraField: Type.String(),
  reportNameFormat: Type.String(),
  references: Type.Array(GroupReferenceEntry),
  claimsReferences: Type.Array(GroupReferenceEntry),
  /** Identifiers of the services assigned to the group. */
  services: Type.Array(Type.String()),
  userCount: Type.Integer(),
});
export type AdminGroup = Static<typeof AdminGroup>;

export const ADMIN_MODELS = ['users', 'groups'] as const;
export const PAGE_SIZES = [10, 20, 50, 100, 500, 1000] as const;

/**
 * GET /api/v1.0/services/page-for-model. Besides these, each filtered field comes as its own parameter:
 * `{field}={"compareBy":"contains","compareTo":"text"}` (JSON). `sort` is JSON: `[["name","asc"]]`.
 */
export const PageForModelQuery = Type.Object(
  {
    modelName: Type.Union([Type.Literal('users'), Type.Literal('groups')]),
    pageNumber: Type.String({ maxLength: 12 }),
    pageSize: Type.String({ maxLength: 12 }),
    sort: Type.Optional(Type.String({ maxLength: 500 })),
  },
  { additionalProperties: Type.String({ maxLength: 500 }) },
);
export type PageForModelQuery = Static<typeof PageForModelQuery>;

/** Filter operators accepted in page-for-model (those of the MUI data grid's column types). */
export const FILTER_OPERATORS = [
  'contains',
  'equals',
  'startsWith',
  'endsWith',
  'isEmpty',
  'isNotEmpty',
  'is',
  'not',
  '=',
  '!=',
  '>',
  '>=',
  '<',
  '<=',
] as const;
export type FilterOperator = (typeof FILTER_OPERATORS)[number];
export interface FieldFilter {
  compareBy: FilterOperator;
  compareTo?: string | number | boolean | null;
}

export const UsersPage = Type.Object({ docs: Type.Array(AdminUser), total: Type.Integer() });
export const GroupsPage = Type.Object({ docs: Type.Array(AdminGroup), total: Type.Integer() });
export const ModelPage = Type.Union([UsersPage, GroupsPage]);
export type UsersPage = Static<typeof UsersPage>;
export type GroupsPage = Static<typeof GroupsPage>;

/** PUT /api/v1.0/groups and POST /api/v1.0/group/{id}. On update every field is optional. */
export const GroupBody = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 200 }),
  code: Type.String({ minLength: 1, maxLength: 50 }),
  admin: Type.Union([Type.String({ maxLength: 64 }), Type.Null()]),
  active: Type.Optional(Type.Boolean()),
  references: Type.Optional(Type.Array(GroupReferenceEntry, { maxItems: 100 })),
  claimsReferences: Type.Optional(Type.Array(GroupReferenceEntry, { maxItems: 100 })),
  reportNameFormat: Type.Optional(Type.String({ maxLength: 500 })),
  extraField: Type.Optional(Type.String({ maxLength: 200 })),
  includeVAT: Type.Optional(Type.Boolean()),
  includeProfessionalFee: Type.Optional(Type.Boolean()),
  professionalFeePercentage: Type.Optional(Type.Number({ minimum: 0, maximum: 100 })),
});
export type GroupBody = Static<typeof GroupBody>;
export const GroupUpdateBody = Type.Partial(GroupBody);
export type GroupUpdateBody = Static<typeof GroupUpdateBody>;

export const GroupAnswer = Type.Object({ success: Type.Boolean(), group: AdminGroup });
export type GroupAnswer = Static<typeof GroupAnswer>;

/** POST /api/v1.0/user/{id}: the fields of the spec; each cell edit may send just the one it changed. */
export const UserUpdateBody = Type.Partial(
  Type.Object({
    name: Type.String({ minLength: 1, maxLength: 200 }),
    email: Type.String({ maxLength: 254 }),
    group: Type.Union([Type.String({ maxLength: 64 }), Type.Null()]),
    groupName: Type.String({ maxLength: 200 }),
    active: Type.Boolean(),
    admin: Type.Boolean(),
    ratesEditor: Type.Boolean(),
    saviOperator: Type.Boolean(),
    saviQC: Type.Boolean(),
    claimsUser: Type.Boolean(),
  }),
);
export type UserUpdateBody = Static<typeof UserUpdateBody>;
export const UserAnswer = Type.Object({ success: Type.Boolean(), user: AdminUser });
export type UserAnswer = Static<typeof UserAnswer>;

export const UsersAnswer = Type.Object({
  success: Type.Boolean(),
  users: Type.Array(AdminUser),
  total: Type.Integer(),
});
export type UsersAnswer = Static<typeof UsersAnswer>;
export const GroupsAnswer = Type.Object({
  success: Type.Boolean(),
  groups: Type.Array(AdminGroup),
  total: Type.Integer(),
});
export type GroupsAnswer = Static<typeof GroupsAnswer>;

/**
 * Query of GET users, groups and group/{id}/users: `search` ("contains": users by name or e-mail, groups by
 * name or code) and a window. Users are never listed whole: `limit` defaults to 100 (groups: 500), at most
 * 500; `total` in the answer tells how many match.
 */
export const AdminListQuery = Type.Object({
  search: Type.Optional(Type.String({ maxLength: 200 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500 })),
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000_000 })),
});
export type AdminListQuery = Static<typeof AdminListQuery>;
export const AllServicesAnswer = Type.Object({ success: Type.Boolean(), services: Type.Array(Service) });

/** {service}: a service identifier (avs, iris, savi, spatialkey) or its id. */
export const ServiceAssignmentBody = Type.Object({ service: Type.String({ minLength: 1, maxLength: 64 }) });
export type ServiceAssignmentBody = Static<typeof ServiceAssignmentBody>;
export const ServiceListAnswer = Type.Object({
  success: Type.Boolean(),
  services: Type.Array(Type.String()),
});
export type ServiceListAnswer = Static<typeof ServiceListAnswer>;

/** A rate row (spec 02 §3, spec 03 §3); the three tiers are rand amounts. */
export const RateRow = Type.Object({
  report: Type.String({ maxLength: 100 }),
  category: Type.String({ maxLength: 100 }),
  type: Type.String({ maxLength: 100 }),
  class: Type.String({ maxLength: 100 }),
  quantity: Type.String({ maxLength: 30 }),
  increase: Type.Number(),
  standard: Type.Number({ minimum: 0 }),
  inbetween: Type.Number({ minimum: 0 }),
  expensive: Type.Number({ minimum: 0 }),
  slope: Type.Boolean(),
  fee: Type.Boolean(),
  vat: Type.Boolean(),
});
export type RateRow = Static<typeof RateRow>;

/** Spec 03 §5: a new rate row. */
export const NEW_RATE_ROW: RateRow = {
  report: '',
  category: '',
  type: '',
  class: '',
  quantity: 'no',
  increase: 0,
  standard: 0,
  inbetween: 0,
  expensive: 0,
  slope: true,
  fee: true,
  vat: true,
};

export const RatesAnswer = Type.Object({
  success: Type.Boolean(),
  groupID: Type.String(),
  rates: Type.Array(RateRow),
});
export type RatesAnswer = Static<typeof RatesAnswer>;
export const SaveRatesBody = Type.Object({
  groupID: Type.String({ minLength: 1, maxLength: 64 }),
  rates: Type.Array(RateRow, { maxItems: 5000 }),
});
export type SaveRatesBody = Static<typeof SaveRatesBody>;

export const ADMIN_API = {
  pageForModel: '/api/v1.0/services/page-for-model',
  allServices: '/api/v1.0/services/all',
  users: '/api/v1.0/users',
  groups: '/api/v1.0/groups',
  group: (id: string) => `/api/v1.0/group/${encodeURIComponent(id)}`,
  groupUsers: (id: string) => `/api/v1.0/group/${encodeURIComponent(id)}/users`,
  groupServices: (id: string) => `/api/v1.0/group/${encodeURIComponent(id)}/services`,
  groupService: (id: string, service: string) =>
    `/api/v1.0/group/${encodeURIComponent(id)}/service/${encodeURIComponent(service)}`,
  user: (id: string) => `/api/v1.0/user/${encodeURIComponent(id)}`,
  userServices: (id: string) => `/api/v1.0/user/${encodeURIComponent(id)}/services`,
  userService: (id: string, service: string) =>
    `/api/v1.0/user/${encodeURIComponent(id)}/service/${encodeURIComponent(service)}`,
  rates: (groupID: string) => `/api/v1.0/reportbuilder/rates/${encodeURIComponent(groupID)}`,
  saveRates: '/api/v1.0/reportbuilder/rates/',
  ratesExport: (groupID: string) =>
    `/api/v1.0/reportbuilder/rates/${encodeURIComponent(groupID)}/export.xlsx`,
  ratesImport: (groupID: string) => `/api/v1.0/reportbuilder/rates/${encodeURIComponent(groupID)}/import`,
} as const;

/**
 * The route patterns services-admin registers, as Fastify reads them (ADMIN_API writes the URLs the
 * clients call). libs/domain/src/routeAccess.ts keys its table by these exact patterns.
 */
export const ADMIN_ROUTES = {
  pageForModel: ADMIN_API.pageForModel,
  allServices: ADMIN_API.allServices,
  /** The caller's own group's services. */
  ownGroupServices: '/api/v1.0/group/services',
  groupServices: '/api/v1.0/group/:id/services',
  groupService: '/api/v1.0/group/:id/service/:service',
  userServices: '/api/v1.0/user/:id/services',
  userService: '/api/v1.0/user/:id/service/:service',
  users: ADMIN_API.users,
  user: '/api/v1.0/user/:id',
  groups: ADMIN_API.groups,
  group: '/api/v1.0/group/:id',
  groupUsers: '/api/v1.0/group/:id/users',
  rates: '/api/v1.0/reportbuilder/rates/:groupID',
  saveRates: ADMIN_API.saveRates,
  ratesExport: '/api/v1.0/reportbuilder/rates/:groupID/export.xlsx',
  ratesImport: '/api/v1.0/reportbuilder/rates/:groupID/import',
} as const;
