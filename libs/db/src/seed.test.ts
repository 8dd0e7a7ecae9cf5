import { GroupEntity } from './entities/group.entity';
import { GroupServiceEntity } from './entities/group-service.entity';
import { RateEntity } from './entities/rate.entity';
import { ServiceEntity } from './entities/service.entity';
import { UserEntity } from './entities/user.entity';
import { hashPassword, passwordNeedsRehash, verifyPassword } from './passwords';
import { DEMO_ACCOUNTS, DEMO_PASSWORD, seed } from './seed';
import { createTestDatabase, type TestDatabase } from './testing';

describe('seed', () => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(() => db?.drop());

  const counts = async () => ({
    services: await db.dataSource.getRepository(ServiceEntity).count(),
    groups: await db.dataSource.getRepository(GroupEntity).count(),
    users: await db.dataSource.getRepository(UserEntity).count(),
    groupServices: await db.dataSource.getRepository(GroupServiceEntity).count(),
    rates: await db.dataSource.getRepository(RateEntity).count(),
  });

  it('creates the services, groups and demo users', async () => {
    expect(await seed(db.dataSource)).toEqual({
      services: { created: 4, updated: 0, unchanged: 0 },
      groups: { created: 3, updated: 0, unchanged: 0 },
      users: { created: 7, updated: 0, unchanged: 0 },
      rateTables: { created: 1, updated: 0, unchanged: 0 },
    });
    expect(await counts()).toEqual({ services: 4, groups: 3, users: 7, groupServices: 10, rates: 19 });
    expect(DEMO_ACCOUNTS.map((account) => account.email)).toHaveLength(7);
  });

  it('is idempotent', async () => {
    const hashesBefore = await db.dataSource.getRepository(UserEntity).find({ order: { email: 'ASC' } });
    expect(await seed(db.dataSource)).toEqual({
      services: { created: 0, updated: 0, unchanged: 4 },
      groups: { created: 0, updated: 0, unchanged: 3 },
      users: { created: 0, updated: 0, unchanged: 7 },
      rateTables: { created: 0, updated: 0, unchanged: 1 },
    });
    expect(await counts()).toEqual({ services: 4, groups: 3, users: 7, groupServices: 10, rates: 19 });
    const hashesAfter = await db.dataSource.getRepository(UserEntity).find({ order: { email: 'ASC' } });
    expect(hashesAfter.map((user) => user.passwordHash)).toEqual(
      hashesBefore.map((user) => user.passwordHash),
    );
  });

  it('stores the demo data as the other projects read it', async () => {
    const kmi = await db.dataSource.getRepository(GroupEntity).findOneByOrFail({ code: 'KMI' });
    expect(kmi).toMatchObject({
      name: 'Karoo Mutual Insurance',
      professionalFeePercentage: 12.5,
      doubleVolumePercent: 15,
      includeVAT: true,
      includeProfessionalFee: true,
      extraField: 'Betterments',
    });
    expect(kmi.references[0]).toEqual([
      'Policy Number',
      'POLICY_NUMBER',
      0,
      true,
      '^[A-Z]{2}[0-9]{6}$',
      'Policy number must be two letters followed by six digits, e.g. KM123456',
    ]);
    expect(kmi.references.some((entry) => entry.length === 7 && entry[6] === true)).toBe(true);

    const admin = await db.dataSource
      .getRepository(UserEntity)
      .findOneOrFail({ where: { email: 'ADMIN@portal.test' }, relations: { group: true } });
    expect(admin).toMatchObject({ isAdmin: true, includeIds: true, active: true, group: { code: 'OPS' } });
    // KMI's admin is its claims user (a group's admin who is not a portal admin); the others', the admin.
    const claims = await db.dataSource
      .getRepository(UserEntity)
      .findOneByOrFail({ email: 'claims@portal.test' });
    expect(kmi.adminUserId).toBe(claims.id);
    const hvv = await db.dataSource.getRepository(GroupEntity).findOneByOrFail({ code: 'HVV' });
    expect(hvv.adminUserId).toBe(admin.id);

    const inactive = await db.dataSource
      .getRepository(UserEntity)
      .findOneByOrFail({ email: 'inactive@portal.test' });
    expect(inactive.active).toBe(false);

    const savi = await db.dataSource.getRepository(ServiceEntity).findOneByOrFail({ identifier: 'savi' });
    expect(savi).toMatchObject({
      name: 'SAVi',
      url: '/savi',
      image: '/assets/services/savi.svg',
      config: { country: 'ZA', centre: { lat: -28.96642, lng: 24.181142 }, zoom: 6 },
    });
  });

  it('hashes the demo password with argon2id', async () => {
    const user = await db.dataSource.getRepository(UserEntity).findOneByOrFail({ email: 'user@portal.test' });
    expect(user.passwordHash).toMatch(/^\$argon2id\$v=19\$/);
    expect(user.passwordHash).toContain('m=19456');
    expect(user.passwordHash).toMatch(/[$,]t=2[$,]/);
    expect(user.passwordHash).toMatch(/[$,]p=1[$,]/);
    expect(await verifyPassword(user.passwordHash, DEMO_PASSWORD)).toBe(true);
    expect(await verifyPassword(user.passwordHash, 'Portal-demo-2025')).toBe(false);
    expect(passwordNeedsRehash(user.passwordHash)).toBe(false);
  });

  it('restores seeded fields but never a changed password', async () => {
    const users = db.dataSource.getRepository(UserEntity);
    const admin = await users.findOneByOrFail({ email: 'admin@portal.test' });
    await users.update(admin.id, { name: 'Renamed', passwordHash: await hashPassword('Another-secret-1') });

    const summary = await seed(db.dataSource);
    expect(summary.users).toEqual({ created: 0, updated: 1, unchanged: 6 });

    const after = await users.findOneByOrFail({ id: admin.id });
    expect(after.name).toBe('Thandiwe Nkosi');
    expect(await verifyPassword(after.passwordHash, 'Another-secret-1')).toBe(true);
  });
});

describe('seeded rates', () => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await createTestDatabase({ seed: true });
  });
  afterAll(() => db?.drop());

  it('gives KMI a rate table in order, amounts read as numbers, and leaves an edited table alone', async () => {
    const kmi = await db.dataSource.getRepository(GroupEntity).findOneByOrFail({ code: 'KMI' });
    const rates = db.dataSource.getRepository(RateEntity);
    const table = await rates.find({ where: { groupId: kmi.id }, order: { position: 'ASC' } });
    expect(table[0]).toMatchObject({
      position: 0,
      report: 'savi',
      category: 'Buildings',
      type: 'Dwelling',
      quantity: 'm²',
      increase: 6.5,
      standard: 9500,
      inbetween: 13500,
      expensive: 19000,
    });

    await rates.delete({ groupId: kmi.id, position: 0 });
    expect((await seed(db.dataSource)).rateTables).toEqual({ created: 0, updated: 0, unchanged: 1 });
    expect(await rates.countBy({ groupId: kmi.id })).toBe(table.length - 1);
  });

  it('refuses a negative rate', async () => {
    const kmi = await db.dataSource.getRepository(GroupEntity).findOneByOrFail({ code: 'KMI' });
    await expect(
      db.dataSource.getRepository(RateEntity).insert({ groupId: kmi.id, position: 999, standard: -1 }),
    ).rejects.toMatchObject({ code: '23514' });
  });
});

describe('passwords', () => {
  it('rejects a hash that is not argon2 instead of throwing', async () => {
    expect(await verifyPassword('not-a-hash', 'whatever')).toBe(false);
    expect(passwordNeedsRehash('not-a-hash')).toBe(true);
  });
});
