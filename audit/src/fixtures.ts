import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import sharp from 'sharp';
import ExcelJS from 'exceljs';
import type { DataSource } from 'typeorm';
import { GroupEntity, UserEntity, insertApiKeyRows } from '@portal/db';
import type { KeyCaller } from '@portal/domain';
import { forgetApiKey, hashApiKey, newApiKey } from '@portal/server-kit';
import { multipartBody } from './hostile';

/**
 * What the hostile-input suite needs besides the seed (issue 22): API keys of every kind the gate must tell
 * apart, and rows that exist — a SAVi request of the plain user with an uploaded picture, an IRiS report, a
 * saved view, a console job, throwaway accounts for the administration routes to work on — so that valid
 * calls reach the handlers' real work instead of a 404 for an id nobody has. Made through the services' own
 * routes where one makes it (what a client would do), with SQL only for what has no route (keys are made
 * by services-admin, whose route needs a group admin's session: insertApiKeyRows is what it calls).
 */

/** Keys a service must take, each with what the gate reads of it. */
export const VALID_KEYS = ['key', 'readKey', 'avsKey', 'staffKey', 'otherGroupKey'] as const;
/** Keys no service may take: every guarded route answers them exactly 401. */
export const BAD_KEYS = ['forgedKey', 'truncatedKey', 'revokedKey', 'expiredKey'] as const;
export type KeyRole = (typeof VALID_KEYS)[number] | (typeof BAD_KEYS)[number];

export interface AuditKey {
  role: KeyRole;
  /** The Authorization header's value. */
  authorization: string;
  /** What the gate reads of a valid key; null for a key that must be refused (401). */
  caller: KeyCaller | null;
  /** The group the key belongs to. */
  group: string;
}

export interface AuditFixtures {
  keys: AuditKey[];
  /**
   * Real values for path parameters, by `<segment before it>/:<name>` (request/:id, group/:id) or by
   * `:<name>` alone (requestID): see paramValues in hostile.ts.
   */
  params: Record<string, string>;
  /** Real values for top-level body and query properties, by name (_id, requestID, requestId, groupID). */
  fields: Record<string, string>;
  /** Small real files for multipart routes: a PNG, a JPEG and a rates workbook. */
  files: { name: string; type: string; data: Buffer }[];
  /** Ids of the plain user's (KMI's) rows: another group's key must never have one answered 2xx. */
  kmiIds: string[];
  /** Puts the rows the valid calls move (statuses, active flags) back where the fixtures left them. */
  refresh(): Promise<void>;
}

interface Context {
  apps: Map<string, FastifyInstance>;
  ds: DataSource;
  redis: Redis;
  redisPrefix: string;
  cookie(role: 'user' | 'operator' | 'admin'): string | undefined;
}

/** Stellenbosch, where the seeded demo data and the locator's test data are. */
const LAT = -33.9321;
const LNG = 18.8602;

const requestForm = (requestType: 'SAVI' | 'IRIS') => ({
  requestType,
  requestSubType: requestType === 'SAVI' ? 'Replacement Value Estimate' : null,
  Searched_For: '12 Church Street Stellenbosch',
  mode: 'address',
  Selected_Address: {
    formatted_address: '12 Church Street, Stellenbosch Central, Stellenbosch, 7600',
    id: '42',
    type: 'address',
    location: { lat: LAT, lng: LNG },
  },
  coordinates: { lat: LAT, lng: LNG },
  coordinateArray: [LAT, LNG],
  map: { lat: LAT, lng: LNG, zoom: 18 },
  reference: { POLICY_NUMBER: 'KM123456' },
  needsUpdate: false,
  selected: {
    formatted_address: '12 Church Street, Stellenbosch Central, Stellenbosch, 7600',
    suburb: 'Stellenbosch Central',
    town: 'Stellenbosch',
    no: '12',
    name: 'Church Street',
    streetcode: '7600',
    boxcode: '7599',
  },
  query: '12 CHURCH STREET STELLENBOSCH',
});

/** A small real picture, made with sharp. */
const picture = async (format: 'png' | 'jpeg') => {
  const image = sharp({
    create: { width: 64, height: 48, channels: 3, background: { r: 40, g: 120, b: 200 } },
  });
  return format === 'png' ? image.png().toBuffer() : image.jpeg().toBuffer();
};

/**
 * The files: pictures made with sharp and a rates workbook — the one the rates editor exports (exceljs),
 * or, failing that, a sheet made here with exceljs.
 */
async function makeFiles(ratesSheet: Buffer | undefined): Promise<AuditFixtures['files']> {
  const png = await picture('png');
  const jpeg = await picture('jpeg');
  let xlsx = ratesSheet;
  if (!xlsx) {
    const workbook = new ExcelJS.Workbook();
    workbook.addWorksheet('Rates').addRow(['report', 'category', 'type', 'class', 'standard', 'rate']);
    xlsx = Buffer.from(await workbook.xlsx.writeBuffer());
  }
  return [
    { name: 'picture.png', type: 'image/png', data: png },
    { name: 'picture.jpg', type: 'image/jpeg', data: jpeg },
    {
      name: 'rates.xlsx',
      type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      data: xlsx,
    },
  ];
}

export async function makeFixtures(ctx: Context): Promise<AuditFixtures> {
  const { ds } = ctx;
  const app = (name: string) => {
    const found = ctx.apps.get(name);
    if (!found) throw new Error(`fixtures: no ${name} app`);
    return found;
  };
  const call = async (
    service: string,
    role: 'user' | 'operator' | 'admin',
    method: 'GET' | 'POST' | 'PUT',
    url: string,
    payload?: object | Buffer,
    headers: Record<string, string> = {},
  ) => {
    const cookie = ctx.cookie(role);
    return app(service).inject({
      method,
      url,
      ...(payload !== undefined ? { payload } : {}),
      headers: { ...headers, ...(cookie ? { cookie } : {}) },
      remoteAddress: '10.250.0.1',
    });
  };
  const expectOk = <T extends { statusCode: number; body: string }>(what: string, answer: T): T => {
    if (answer.statusCode >= 300)
      throw new Error(`fixtures: ${what} answered ${answer.statusCode} ${answer.body.slice(0, 300)}`);
    return answer;
  };

  // Keys are counted per minute; the suite makes thousands of calls with each in a minute.
  await ds.query('UPDATE identity.groups SET api_rate_limit_per_minute = 1000000000');

  const groups = ds.getRepository(GroupEntity);
  const users = ds.getRepository(UserEntity);
  const groupId = async (code: string) => (await groups.findOneByOrFail({ code })).id;
  const kmi = await groupId('KMI');

  // Throwaway rows for the administration routes' ids (a group and a person in it), so that an
  // administrator's valid calls (edit, remove a service, deactivate, delete) work on them, never on the
  // accounts the suite calls with.
  const { id: _ops, ...ops } = await groups.findOneByOrFail({ code: 'OPS' });
  const target = await groups.save(
    groups.create({ ...ops, name: 'Audit target group', code: 'AUDIT', adminUserId: null } as GroupEntity),
  );
  const { id: _user, ...plain } = await users.findOneByOrFail({ email: 'user@portal.test' });
  const person = await users.save(
    users.create({
      ...plain,
      name: 'Audit Target',
      email: 'audit-target@portal.test',
      groupId: target.id,
    } as UserEntity),
  );

  const makeKey = async (
    code: string,
    options: { services?: string[]; scope?: 'read' | 'write'; roles?: string[]; expiresAt?: Date } = {},
  ) => {
    const made = newApiKey();
    const services = options.services ?? ['avs', 'iris', 'savi', 'spatialkey'];
    const scope = options.scope ?? 'write';
    const roles = options.roles ?? [];
    const { id } = await insertApiKeyRows(ds, {
      groupId: await groupId(code),
      name: `audit ${code} ${scope}`,
      prefix: made.prefix,
      secretHash: made.secretHash,
      services,
      scope,
      roles,
      expiresAt: options.expiresAt ?? null,
    });
    return { ...made, id, caller: { services, scope, roles } satisfies KeyCaller };
  };
  const bearer = (key: string) => `Bearer ${key}`;
  const readWrite = await makeKey('KMI');
  const readOnly = await makeKey('KMI', { scope: 'read' });
  const avsOnly = await makeKey('KMI', { services: ['avs'] });
  const staff = await makeKey('OPS', { roles: ['saviOperator'] });
  const other = await makeKey('HVV', { services: ['savi', 'iris'] });
  const revoked = await makeKey('KMI');
  const expired = await makeKey('KMI', { expiresAt: new Date(Date.now() - 60_000) });
  // Revoked as services-admin revokes: the row, then the cached record (after a call cached it).
  await app('requests').inject({
    method: 'GET',
    url: '/api/v1.0/request/status_counts',
    headers: { authorization: bearer(revoked.key) },
  });
  await ds.query('UPDATE identity.api_keys SET revoked_at = now() WHERE id = $1', [revoked.id]);
  await forgetApiKey(ctx.redis, ctx.redisPrefix, hashApiKey(revoked.key));
  // The administrators' DELETE api-keys/:keyId revokes this one, never a key the suite calls with.
  const throwawayKey = await makeKey('AUDIT');

  const keys: AuditKey[] = [
    { role: 'key', authorization: bearer(readWrite.key), caller: readWrite.caller, group: 'KMI' },
    { role: 'readKey', authorization: bearer(readOnly.key), caller: readOnly.caller, group: 'KMI' },
    { role: 'avsKey', authorization: bearer(avsOnly.key), caller: avsOnly.caller, group: 'KMI' },
    { role: 'staffKey', authorization: bearer(staff.key), caller: staff.caller, group: 'OPS' },
    { role: 'otherGroupKey', authorization: bearer(other.key), caller: other.caller, group: 'HVV' },
    // The right shape (ppk_ and 43 base64url characters), known to nobody.
    { role: 'forgedKey', authorization: bearer(newApiKey().key), caller: null, group: 'KMI' },
    { role: 'truncatedKey', authorization: bearer(readWrite.key.slice(0, -1)), caller: null, group: 'KMI' },
    { role: 'revokedKey', authorization: bearer(revoked.key), caller: null, group: 'KMI' },
    { role: 'expiredKey', authorization: bearer(expired.key), caller: null, group: 'KMI' },
  ];

  // The plain user's SAVi request, in a status the report builder edits, and an IRiS report.
  const idFrom = (location: unknown) => String(location).split('/').at(-2)!;
  const savi = idFrom(
    expectOk(
      'a SAVi request',
      await call('requests', 'user', 'PUT', '/api/v1.0/request/', requestForm('SAVI')),
    ).headers.location,
  );
  const irisRequest = idFrom(
    expectOk(
      'an IRiS request',
      await call('requests', 'user', 'PUT', '/api/v1.0/request/', requestForm('IRIS')),
    ).headers.location,
  );
  const irisReport = (
    expectOk(
      'an IRiS report',
      await call('iris', 'user', 'PUT', '/api/v1.0/iris', { requestId: irisRequest }),
    ).json() as { report: { _id: string } }
  ).report._id;
  const editable = () =>
    ds.query(`UPDATE requests.requests SET status = 'In progress' WHERE id = $1`, [savi]);
  await editable();

  // A saved view of the plain user's, a console job of the operator's.
  const view = await call('requests', 'user', 'POST', '/api/v1.0/request/views', {
    name: 'Audit view',
    state: { pageSize: 25 },
  });
  const viewId = view.statusCode < 300 ? (view.json() as { id?: string }).id : undefined;
  const exported = await call('requests', 'operator', 'POST', '/api/v1.0/request/savi/export_to_excel', {
    ids: [savi],
  });
  const jobId = exported.statusCode < 300 ? (exported.json() as { id?: string }).id : undefined;

  // A picture uploaded to the request (the report builder's assets route serves it by name).
  const upload = multipartBody(
    { requestID: savi },
    { name: 'picture.png', type: 'image/png', data: await picture('png') },
  );
  const uploaded = await call(
    'reportbuilder',
    'operator',
    'POST',
    '/api/v1.0/reportbuilder/upload',
    upload.payload,
    {
      'content-type': upload.contentType,
    },
  );
  const fileName =
    uploaded.statusCode < 300 ? (uploaded.json() as { image?: { name?: string } }).image?.name : undefined;

  // KMI's rates as the editor exports them: a workbook the import reads back.
  const exportedRates = await call(
    'services-admin',
    'admin',
    'GET',
    `/api/v1.0/reportbuilder/rates/${kmi}/export.xlsx`,
  );
  const files = await makeFiles(exportedRates.statusCode === 200 ? exportedRates.rawPayload : undefined);

  const params: Record<string, string> = {
    ':requestID': savi,
    'request/:id': savi,
    'near/:id': savi,
    ':radius': '500',
    ':reportId': irisReport,
    ':requestId': irisRequest,
    'group/:id': target.id,
    'user/:id': person.id,
    ':service': 'savi',
    ':keyId': throwawayKey.id,
    ':groupID': kmi,
    ':lat': String(LAT),
    ':lng': String(LNG),
    ...(viewId ? { 'views/:id': viewId } : {}),
    ...(jobId ? { 'jobs/:id': jobId, 'download_xlsx/:id': jobId } : {}),
    ...(fileName ? { ':fileName': fileName } : {}),
  };
  const fields: Record<string, string> = {
    _id: savi,
    requestID: savi,
    requestId: irisRequest,
    reportId: irisReport,
    groupID: kmi,
  };

  return {
    keys,
    params,
    fields,
    files,
    kmiIds: [savi, irisRequest, irisReport],
    refresh: async () => {
      await editable();
      await ds.query('UPDATE identity.groups SET active = true WHERE id = $1', [target.id]);
      await ds.query('UPDATE identity.users SET active = true WHERE id = $1', [person.id]);
    },
  };
}
