import { AuditRecordEntity } from './entities/audit-record.entity';
import { GroupEntity } from './entities/group.entity';
import { GroupServiceEntity } from './entities/group-service.entity';
import { PasswordResetTokenEntity } from './entities/password-reset-token.entity';
import { UserEntity } from './entities/user.entity';
import { UserTotalsEntity } from './entities/user-totals.entity';
import { createTestDatabase, type TestDatabase } from './testing';

/** The PostgreSQL error code of a rejected promise (23505 unique, 23503 foreign key, 23514 check). */
const pgCode = (promise: Promise<unknown>) =>
  promise.then(
    () => 'no error',
    (err: { code?: string }) => err.code,
  );

describe('constraints', () => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await createTestDatabase({ seed: true });
  });
  afterAll(() => db?.drop());

  const users = () => db.dataSource.getRepository(UserEntity);
  const groups = () => db.dataSource.getRepository(GroupEntity);

  it('keeps e-mail addresses unique, whatever their case', async () => {
    await users().insert({ email: '  Zanele.Mthembu@Example.CO.ZA ', passwordHash: 'x' });
    const stored = await users().findOneByOrFail({ email: 'zanele.mthembu@example.co.za' });
    expect(stored).toMatchObject({ email: 'zanele.mthembu@example.co.za', name: 'Anonymous', active: true });

    expect(await pgCode(users().insert({ email: 'ZANELE.MTHEMBU@example.co.za', passwordHash: 'x' }))).toBe(
      '23505',
    );
    // Raw SQL skips the entity's normalisation; the check constraint still refuses upper case.
    expect(
      await pgCode(
        db.dataSource.query(
          `INSERT INTO identity.users (email, password_hash) VALUES ('Zanele@Example.co.za', 'x')`,
        ),
      ),
    ).toBe('23514');
  });

  it('refuses to delete a group that still has users', async () => {
    const kmi = await groups().findOneByOrFail({ code: 'KMI' });
    expect(await pgCode(groups().delete(kmi.id))).toBe('23503');
    expect(await groups().existsBy({ id: kmi.id })).toBe(true);
  });

  it('deletes an empty group with its service links', async () => {
    const hvv = await groups().findOneByOrFail({ code: 'HVV' });
    await groups().delete(hvv.id);
    expect(await db.dataSource.getRepository(GroupServiceEntity).countBy({ groupId: hvv.id })).toBe(0);
  });

  it('clears the group admin and the reset tokens of a deleted user', async () => {
    const user = await users().save(users().create({ email: 'gone@portal.test', passwordHash: 'x' }));
    const ops = await groups().findOneByOrFail({ code: 'OPS' });
    await groups().update(ops.id, { adminUserId: user.id });
    await db.dataSource.getRepository(PasswordResetTokenEntity).insert({
      userId: user.id,
      tokenHash: 'a'.repeat(64),
      purpose: 'reset-link',
      expiresAt: new Date(Date.now() + 3_600_000),
    });

    await users().delete(user.id);
    expect((await groups().findOneByOrFail({ id: ops.id })).adminUserId).toBeNull();
    expect(await db.dataSource.getRepository(PasswordResetTokenEntity).countBy({ userId: user.id })).toBe(0);
  });

  it('numbers audit records and reads their bigint id as a string', async () => {
    const audit = db.dataSource.getRepository(AuditRecordEntity);
    const saved = await audit.save(audit.create({ message: 'Viewed report', details: { reportId: 42 } }));
    expect(typeof saved.id).toBe('string');
    expect(await audit.findOneByOrFail({ id: saved.id })).toMatchObject({
      message: 'Viewed report',
      details: { reportId: 42 },
      actorUserId: null,
    });
  });
});

describe('user totals', () => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await createTestDatabase({ seed: true });
  });
  afterAll(() => db?.drop());

  const flags = ['active', 'is_admin', 'rates_editor', 'savi_operator', 'savi_qc', 'claims_user'];
  const counted = () =>
    db.dataSource.query(
      `SELECT COALESCE(group_id, '${UserTotalsEntity.NO_GROUP}') AS group_id, count(*)::int AS users,
              ${flags.map((f) => `(count(*) FILTER (WHERE ${f}))::int AS ${f}`).join(', ')}
       FROM identity.users GROUP BY 1 ORDER BY 1`,
    );
  // A group that lost all its users keeps a row of zeros.
  const kept = () =>
    db.dataSource.query(
      `SELECT group_id, users, ${flags.join(', ')} FROM identity.user_totals WHERE users > 0 ORDER BY 1`,
    );

  it('stays equal to counting per group through inserts, moves, flag changes and deletes', async () => {
    expect(await kept()).toEqual(await counted());
    await db.dataSource.query(
      `INSERT INTO identity.users (email, password_hash, active, is_admin)
       SELECT 'bulk' || n || '@example.co.za', 'x', n % 3 <> 0, n % 10 = 0 FROM generate_series(1, 50) n`,
    );
    expect(await kept()).toEqual(await counted());
    await db.dataSource.query(
      `UPDATE identity.users SET savi_qc = true, active = NOT active WHERE email LIKE 'bulk1%'`,
    );
    await db.dataSource.query(`UPDATE identity.users SET name = 'Renamed' WHERE email LIKE 'bulk2%'`);
    const kmi = await db.dataSource.getRepository(GroupEntity).findOneByOrFail({ code: 'KMI' });
    await db.dataSource.query(`UPDATE identity.users SET group_id = $1 WHERE email LIKE 'bulk3%'`, [kmi.id]);
    await db.dataSource.query(
      `UPDATE identity.users SET group_id = NULL, is_admin = true WHERE email = 'user@portal.test'`,
    );
    expect(await kept()).toEqual(await counted());
    await db.dataSource.query(`DELETE FROM identity.users WHERE email LIKE 'bulk%' AND is_admin`);
    expect(await kept()).toEqual(await counted());
    await db.dataSource.query('TRUNCATE identity.users CASCADE');
    expect(await kept()).toEqual([]);
  });
});

describe('building life and measurements (ImagerySurveys1764700000000)', () => {
  let db: TestDatabase;
  const q = (sql: string, params: unknown[] = []) => db.dataSource.query(sql, params);

  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(() => db?.drop());

  const square = (size: number) =>
    `ST_MakeEnvelope(18.86, -33.935, 18.86 + ${size}, -33.935 + ${size}, 4326)`;
  let n = 0;
  /** Inserts a building with these life columns (a footprint before its extension when `before`). */
  const building = (life: { built?: string; demolished?: string; extended?: string; before?: boolean }) =>
    q(
      `INSERT INTO geo.buildings (kind, geom, built_on, demolished_on, extended_on, geom_before_extension, source, source_id)
       VALUES ('house', ${square(2e-4)}, $1, $2, $3, ${life.before ? square(1e-4) : 'NULL'}, 'test', $4)`,
      [life.built ?? null, life.demolished ?? null, life.extended ?? null, `b${(n += 1)}`],
    );

  it('keeps a building’s life in order: built, extended, demolished', async () => {
    expect(await pgCode(building({}))).toBe('no error');
    expect(
      await pgCode(
        building({ built: '2015-01-01', extended: '2019-06-01', before: true, demolished: '2024-01-01' }),
      ),
    ).toBe('no error');
    expect(await pgCode(building({ extended: '2019-06-01', before: true }))).toBe('no error');
    expect(await pgCode(building({ built: '2020-01-01', demolished: '2020-01-01' }))).toBe('23514');
    expect(await pgCode(building({ built: '2020-01-01', demolished: '2019-01-01' }))).toBe('23514');
    expect(await pgCode(building({ built: '2020-01-01', extended: '2019-01-01', before: true }))).toBe(
      '23514',
    );
    expect(await pgCode(building({ extended: '2021-01-01', before: true, demolished: '2020-01-01' }))).toBe(
      '23514',
    );
    // An extension has the footprint before it, and only an extension has one.
    expect(await pgCode(building({ extended: '2019-06-01' }))).toBe('23514');
    expect(await pgCode(building({ before: true }))).toBe('23514');
    expect(await q(`SELECT count(*)::int AS n FROM geo.buildings`)).toEqual([{ n: 3 }]);
  });

  it('keeps measurements of a known kind with a figure ≥ 0, and deletes them with their request', async () => {
    const [request] = await q(
      `INSERT INTO requests.requests (request_type, request_sub_type, status, user_id, user_name, user_email)
       VALUES ('SAVI', 'Building Size Calculation', 'New', gen_random_uuid(), 'Thandi', 'thandi@example.co.za')
       RETURNING id`,
    );
    const measure = (requestId: string, kind: string, value: number) =>
      q(
        `INSERT INTO requests.measurements (request_id, kind, survey_id, captured_on, geom, value, created_by, created_by_email)
         VALUES ($1, $2, 7, '2024-05-02', ${square(1e-4)}, $3, gen_random_uuid(), 'qs@portal.test')`,
        [requestId, kind, value],
      );
    expect(await pgCode(measure(request.id, 'area', 212.5))).toBe('no error');
    expect(await pgCode(measure(request.id, 'volume', 1))).toBe('23514');
    expect(await pgCode(measure(request.id, 'height', -1))).toBe('23514');
    expect(await pgCode(measure('00000000-0000-4000-8000-000000000000', 'length', 3))).toBe('23503');
    const [stored] = await q(
      `SELECT label, perimeter_m, oblique, created_at IS NOT NULL AS dated FROM requests.measurements`,
    );
    expect(stored).toEqual({ label: '', perimeter_m: null, oblique: null, dated: true });
    await q(`DELETE FROM requests.requests WHERE id = $1`, [request.id]);
    expect(await q(`SELECT count(*)::int AS n FROM requests.measurements`)).toEqual([{ n: 0 }]);
  });
});
