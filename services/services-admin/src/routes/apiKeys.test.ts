import { createHash } from 'node:crypto';
import {
  ADMIN_API,
  API_KEY_PATTERN,
  API_KEY_ROUTES,
  DEFAULT_API_RATE_LIMIT_PER_MINUTE,
  type AdminGroup,
  type AdminUser,
  type ApiKeyList,
  type CreatedApiKey,
} from '@portal/contracts';
import { loadServicesAdminConfig } from '../config';
import { GROUP_ADMIN_TEXT } from '../access';
import { API_KEY_TEXT } from './apiKeys';
import {
  ADMIN,
  PLAIN,
  asAdmin,
  call,
  env,
  groups,
  latestAudit,
  page,
  redis,
  userByEmail,
  asGroupAdmin,
  makePlainAdminOfKmi,
  useServicesAdminApp,
} from '../testing/harness';

/** A group's API keys: create (shown once, stored hashed, with its account row), list, revoke; who may. */

useServicesAdminApp();

const keysOf = (groupId: string) => API_KEY_ROUTES.groupKeys.replace(':id', groupId);
const keyUrl = (keyId: string) => API_KEY_ROUTES.key.replace(':keyId', keyId);
const rateLimitOf = (groupId: string) => API_KEY_ROUTES.groupRateLimit.replace(':id', groupId);
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const { redisPrefix } = loadServicesAdminConfig();

const createAsAdmin = (groupId: string, body: object = {}) =>
  asAdmin('POST', keysOf(groupId), { name: 'Policy system', services: ['savi'], scope: 'read', ...body });

describe('API keys', () => {
  let kmi: string;
  let hvv: string;

  beforeAll(async () => {
    ({ kmi, hvv } = await makePlainAdminOfKmi());
  });

  it('creates a key: shown once, stored as its SHA-256 with its prefix, with its own account row, audited', async () => {
    const expiresAt = new Date(Date.now() + 30 * 86_400_000).toISOString();
    const res = await createAsAdmin(kmi, {
      name: '  Claims intake  ',
      services: ['savi', 'iris'],
      scope: 'write',
      expiresAt,
      roles: ['saviOperator'],
    });
    expect(res.statusCode).toBe(201);
    const created = res.json() as CreatedApiKey;
    expect(created.key).toMatch(API_KEY_PATTERN);
    expect(created).toMatchObject({
      groupId: kmi,
      name: 'Claims intake',
      prefix: created.key.slice(0, 12),
      services: ['savi', 'iris'],
      scope: 'write',
      roles: ['saviOperator'],
      createdByName: 'Thandiwe Nkosi',
      expiresAt,
      revokedAt: null,
      lastUsedAt: null,
      useCount: 0,
      state: 'active',
    });

    const [row] = await env.db.dataSource.query(
      `SELECT k.secret_hash, k.prefix, u.kind, u.name, u.email, u.password_hash, u.group_id, u.active
       FROM identity.api_keys k JOIN identity.users u ON u.id = k.user_id WHERE k.id = $1`,
      [created._id],
    );
    expect(row).toMatchObject({
      secret_hash: sha256(created.key),
      prefix: created.prefix,
      kind: 'apiKey',
      name: 'API key: Claims intake',
      email: `${created.prefix.toLowerCase()}@api-keys.invalid`,
      group_id: kmi,
      active: true,
    });
    expect(row.password_hash.startsWith('$argon2')).toBe(false);
    // The key itself is nowhere in the database, nor in the audit record.
    const [{ found }] = await env.db.dataSource.query(
      `SELECT count(*)::int AS found FROM identity.api_keys k WHERE k::text LIKE '%' || $1 || '%'`,
      [created.key],
    );
    expect(found).toBe(0);
    const audit = await latestAudit('apiKey', created._id);
    expect(audit).toMatchObject({
      message: `API key ${created.prefix} (Claims intake) created for group KMI`,
      before: null,
      after: { name: 'Claims intake', prefix: created.prefix, services: ['savi', 'iris'], scope: 'write' },
    });
    expect(JSON.stringify(audit)).not.toContain(created.key.slice(12));
  });

  it('writes nothing when the creation fails after the key is inserted (one transaction)', async () => {
    const count = async () =>
      (
        await env.db.dataSource.query(
          `SELECT (SELECT count(*) FROM identity.api_keys)::int AS keys,
                  (SELECT count(*) FROM identity.users WHERE kind = 'apiKey')::int AS accounts`,
        )
      )[0];
    const before = await count();
    // The audit record comes after the key's insert: make it fail.
    await env.db.dataSource.query(`
      CREATE FUNCTION identity.refuse_key_audit() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'audit refused by the test'; END $$`);
    await env.db.dataSource.query(`
      CREATE TRIGGER refuse_key_audit BEFORE INSERT ON identity.audit_records
      FOR EACH ROW WHEN (NEW.entity = 'apiKey') EXECUTE FUNCTION identity.refuse_key_audit()`);
    try {
      const res = await createAsAdmin(kmi, { name: 'Doomed' });
      expect(res.statusCode).toBe(500);
    } finally {
      await env.db.dataSource.query('DROP TRIGGER refuse_key_audit ON identity.audit_records');
      await env.db.dataSource.query('DROP FUNCTION identity.refuse_key_audit()');
    }
    expect(await count()).toEqual(before);
  });

  it('lists the group’s keys newest first, with the group’s limit, never the key', async () => {
    const second = (await createAsAdmin(kmi, { name: 'Quote engine', services: ['avs'] })).json();
    const res = await asAdmin('GET', keysOf(kmi));
    expect(res.statusCode).toBe(200);
    const list = res.json() as ApiKeyList;
    expect(list.keys.map((key) => key.name)).toEqual(['Quote engine', 'Claims intake']);
    expect(list.keys[0]).toMatchObject({ _id: second._id, createdByName: 'Thandiwe Nkosi', state: 'active' });
    expect(list).toMatchObject({
      group: { _id: kmi, code: 'KMI', services: ['avs', 'iris', 'savi', 'spatialkey'] },
      rateLimitPerMinute: DEFAULT_API_RATE_LIMIT_PER_MINUTE,
      rateLimitIsDefault: true,
    });
    expect(JSON.stringify(list)).not.toMatch(/"key"|secret/i);
    expect((await asAdmin('GET', keysOf(hvv))).json().keys).toEqual([]);
  });

  it('says when a key has expired', async () => {
    const key = (await createAsAdmin(kmi, { name: 'Short lived' })).json() as CreatedApiKey;
    await env.db.dataSource.query(
      `UPDATE identity.api_keys SET expires_at = now() - interval '1 minute' WHERE id = $1`,
      [key._id],
    );
    const listed = (await asAdmin('GET', keysOf(kmi))).json() as ApiKeyList;
    expect(listed.keys.find((k) => k._id === key._id)?.state).toBe('expired');
  });

  it('revokes a key at once: its account deactivated, its cached record dropped, audited', async () => {
    const key = (await createAsAdmin(kmi, { name: 'To revoke' })).json() as CreatedApiKey;
    const cached = `${redisPrefix}:apikey:${sha256(key.key)}`;
    await redis.set(cached, '{}', 'EX', 60);

    const res = await asAdmin('DELETE', keyUrl(key._id));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ _id: key._id, state: 'revoked' });
    expect(res.json().revokedAt).not.toBeNull();
    expect(await redis.exists(cached)).toBe(0);
    const [row] = await env.db.dataSource.query(
      `SELECT k.revoked_by, u.active FROM identity.api_keys k JOIN identity.users u ON u.id = k.user_id
       WHERE k.id = $1`,
      [key._id],
    );
    expect(row).toEqual({ revoked_by: (await userByEmail(ADMIN)).id, active: false });
    expect((await latestAudit('apiKey', key._id))?.message).toBe(
      `API key ${key.prefix} (To revoke) of group KMI revoked`,
    );
    // Again: nothing changes.
    const again = await asAdmin('DELETE', keyUrl(key._id));
    expect(again.statusCode).toBe(200);
    expect(again.json().revokedAt).toBe(res.json().revokedAt);
    expect((await asAdmin('DELETE', keyUrl('6f1c4b1e-0000-4000-8000-000000000000'))).statusCode).toBe(404);
  });

  it('lets a group’s admin manage their own group’s keys only, without staff roles', async () => {
    const own = await asGroupAdmin('POST', keysOf(kmi), {
      name: 'Broker portal',
      services: ['iris'],
      scope: 'read',
    });
    expect(own.statusCode).toBe(201);
    expect(own.json().createdByName).toBe('Johan Botha');
    expect((await asGroupAdmin('GET', keysOf(kmi))).statusCode).toBe(200);
    expect((await asGroupAdmin('DELETE', keyUrl(own.json()._id))).statusCode).toBe(200);

    const withRoles = await asGroupAdmin('POST', keysOf(kmi), {
      name: 'Ops robot',
      services: ['savi'],
      scope: 'write',
      roles: ['saviOperator'],
    });
    expect(withRoles.statusCode).toBe(403);
    expect(withRoles.json().message).toBe(API_KEY_TEXT.rolesAdminsOnly);

    const other = await asGroupAdmin('GET', keysOf(hvv));
    expect(other.statusCode).toBe(403);
    expect(other.json().message).toBe(GROUP_ADMIN_TEXT.ownGroupOnly);
    expect(
      (await asGroupAdmin('POST', keysOf(hvv), { name: 'x', services: ['savi'], scope: 'read' })).statusCode,
    ).toBe(403);
    const hvvKey = (await createAsAdmin(hvv, { name: 'HVV key' })).json() as CreatedApiKey;
    expect((await asGroupAdmin('DELETE', keyUrl(hvvKey._id))).statusCode).toBe(403);
    expect((await asGroupAdmin('PUT', rateLimitOf(kmi), { rateLimitPerMinute: 5 })).statusCode).toBe(403);

    // The session's role is stale once the group has another admin: the database decides.
    await groups().update(kmi, { adminUserId: (await userByEmail(ADMIN)).id });
    try {
      expect((await asGroupAdmin('GET', keysOf(kmi))).statusCode).toBe(403);
    } finally {
      await groups().update(kmi, { adminUserId: (await userByEmail(PLAIN)).id });
    }
    // A plain user's session (no groupAdmin role) is refused by the gate.
    expect((await call(PLAIN, 'GET', keysOf(kmi))).statusCode).toBe(403);
  });

  it('refuses services the group lacks, naming them, and an expiry in the past', async () => {
    const lacking = await createAsAdmin(hvv, { services: ['savi', 'avs', 'spatialkey'] });
    expect(lacking.statusCode).toBe(400);
    expect(lacking.json().message).toBe(API_KEY_TEXT.servicesNotHeld(['avs', 'spatialkey']));

    const past = await createAsAdmin(kmi, { expiresAt: new Date(Date.now() - 60_000).toISOString() });
    expect(past.statusCode).toBe(400);
    expect(past.json().message).toBe(API_KEY_TEXT.expiryPast);

    const blank = await createAsAdmin(kmi, { name: '   ' });
    expect(blank.statusCode).toBe(400);
    expect((await createAsAdmin(kmi, { scope: 'admin' })).statusCode).toBe(400);
    expect((await asAdmin('GET', keysOf('6f1c4b1e-0000-4000-8000-000000000000'))).statusCode).toBe(404);
  });

  it('sets the group’s limit per key (administrators), audited', async () => {
    const res = await asAdmin('PUT', rateLimitOf(kmi), { rateLimitPerMinute: 120 });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ rateLimitPerMinute: 120, rateLimitIsDefault: false });
    expect((await asGroupAdmin('GET', keysOf(kmi))).json()).toMatchObject({ rateLimitPerMinute: 120 });
    expect((await latestAudit('group', kmi))?.message).toBe('Group KMI API rate limit set to 120 per minute');
    const reset = await asAdmin('PUT', rateLimitOf(kmi), { rateLimitPerMinute: null });
    expect(reset.json()).toEqual({
      rateLimitPerMinute: DEFAULT_API_RATE_LIMIT_PER_MINUTE,
      rateLimitIsDefault: true,
    });
    expect((await asAdmin('PUT', rateLimitOf(kmi), { rateLimitPerMinute: -5 })).statusCode).toBe(400);
  });

  it('never lists or counts a key’s account row among people', async () => {
    const key = (await createAsAdmin(kmi, { name: 'Hidden account' })).json() as CreatedApiKey;
    const [{ userId, people }] = await env.db.dataSource.query(
      `SELECT (SELECT user_id FROM identity.api_keys WHERE id = $1) AS "userId",
              (SELECT count(*) FROM identity.users WHERE kind = 'person')::int AS people`,
      [key._id],
    );
    const ids = (docs: AdminUser[]) => docs.map((user) => user._id);

    // The users grid, every way a page is read: unfiltered (kept totals), by a flag, by text, by group.
    const all = (await page({ pageSize: 1000 })).json();
    expect(all.total).toBe(people);
    expect(ids(all.docs)).not.toContain(userId);
    const active = (await page({ pageSize: 1000, active: { compareBy: 'is', compareTo: true } })).json();
    expect(ids(active.docs)).not.toContain(userId);
    expect(active.total).toBe(active.docs.length);
    const named = (await page({ name: { compareBy: 'contains', compareTo: 'API key' } })).json();
    expect(named.total).toBe(0);
    const byGroup = (await page({ pageSize: 1000, sort: [['groupName', 'asc']] })).json();
    expect(byGroup.total).toBe(people);
    expect(ids(byGroup.docs)).not.toContain(userId);

    // The plain lists, the group's members and its count, the group admin picker, a user's own routes.
    const listed = (await asAdmin('GET', `${ADMIN_API.users}?limit=500`)).json();
    expect(listed.total).toBe(people);
    expect((await asAdmin('GET', `${ADMIN_API.users}?search=api-keys.invalid`)).json().total).toBe(0);
    expect(ids(listed.users)).not.toContain(userId);
    const members = (await asAdmin('GET', ADMIN_API.groupUsers(kmi))).json();
    expect(ids(members.users)).not.toContain(userId);
    const [{ persons }] = await env.db.dataSource.query(
      `SELECT count(*)::int AS persons FROM identity.users WHERE group_id = $1 AND kind = 'person'`,
      [kmi],
    );
    const groupRow = (await asAdmin('GET', ADMIN_API.groups))
      .json()
      .groups.find((g: AdminGroup) => g._id === kmi);
    expect(groupRow.userCount).toBe(persons);
    expect((await asAdmin('POST', ADMIN_API.group(kmi), { admin: userId })).statusCode).toBe(400);
    expect((await asAdmin('POST', ADMIN_API.user(userId), { name: 'Renamed' })).statusCode).toBe(404);
    expect((await asAdmin('DELETE', ADMIN_API.user(userId))).statusCode).toBe(404);
  });

  it('deletes a group’s keys and their accounts with the group', async () => {
    const group = (
      await asAdmin('PUT', ADMIN_API.groups, { name: 'Short Term', code: 'STK', admin: null })
    ).json().group as AdminGroup;
    await asAdmin('POST', ADMIN_API.groupServices(group._id), { service: 'avs' });
    const key = await createAsAdmin(group._id, { services: ['avs'] });
    expect(key.statusCode).toBe(201);
    const res = await asAdmin('DELETE', ADMIN_API.group(group._id));
    expect(res.statusCode).toBe(200);
    const [{ left }] = await env.db.dataSource.query(
      `SELECT count(*)::int AS left FROM identity.users WHERE email = $1`,
      [`${key.json().prefix.toLowerCase()}@api-keys.invalid`],
    );
    expect(left).toBe(0);
  });

  it('keeps keys out of the administration: a key calling these routes is refused', async () => {
    const key = (await createAsAdmin(kmi, { name: 'Curious key', scope: 'write' })).json() as CreatedApiKey;
    const res = await env.app.inject({
      method: 'GET',
      url: keysOf(kmi),
      headers: { authorization: `Bearer ${key.key}` },
    });
    expect(res.statusCode).toBe(403);
  });
});
