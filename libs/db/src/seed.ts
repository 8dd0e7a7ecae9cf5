import { isDeepStrictEqual } from 'node:util';
import {
  type DataSource,
  type DeepPartial,
  type EntityManager,
  type EntityTarget,
  type FindOptionsWhere,
  type ObjectLiteral,
} from 'typeorm';
import type { ServiceIdentifier } from '@portal/contracts';
import { GroupEntity } from './entities/group.entity';
import { GroupServiceEntity } from './entities/group-service.entity';
import { RateEntity } from './entities/rate.entity';
import { ServiceEntity } from './entities/service.entity';
import { UserEntity } from './entities/user.entity';
import { hashPassword } from './passwords';
import {
  DEMO_ADMIN_EMAIL,
  DEMO_PASSWORD,
  SEED_GROUPS,
  SEED_RATE_GROUP_CODE,
  SEED_RATES,
  SEED_SERVICES,
  SEED_USERS,
} from './seed-data';

export { DEMO_ACCOUNTS, DEMO_PASSWORD } from './seed-data';

/** What one kind of seeded row went through. `updated` means at least one seeded field was different. */
export interface SeedCounts {
  created: number;
  updated: number;
  unchanged: number;
}

export interface SeedSummary {
  services: SeedCounts;
  groups: SeedCounts;
  users: SeedCounts;
  /** Whole rate tables: a group's table is seeded only while it is empty. */
  rateTables: SeedCounts;
}

type Outcome = keyof SeedCounts;

const tally = (outcomes: Iterable<Outcome>): SeedCounts => {
  const counts: SeedCounts = { created: 0, updated: 0, unchanged: 0 };
  for (const outcome of outcomes) counts[outcome] += 1;
  return counts;
};

/**
 * Inserts the row found by `where`, or brings the seeded fields of the existing row back to `values`.
 * `valuesOnCreate` are only used for a new row (a demo user's password must never be overwritten).
 */
async function upsert<T extends ObjectLiteral>(
  manager: EntityManager,
  target: EntityTarget<T>,
  where: FindOptionsWhere<T>,
  values: Partial<T>,
  valuesOnCreate?: () => Promise<Partial<T>>,
): Promise<{ row: T; outcome: Outcome }> {
  const repository = manager.getRepository(target);
  const existing = await repository.findOneBy(where);
  if (!existing) {
    const extra = valuesOnCreate ? await valuesOnCreate() : {};
    const row = await repository.save(repository.create({ ...values, ...extra } as DeepPartial<T>));
    return { row, outcome: 'created' };
  }
  const changed = Object.entries(values).some(([key, value]) => !isDeepStrictEqual(existing[key], value));
  if (!changed) return { row: existing, outcome: 'unchanged' };
  return { row: await repository.save(Object.assign(existing, values)), outcome: 'updated' };
}

/** Grants services to a group; returns how many links were new. */
async function grantGroupServices(
  manager: EntityManager,
  groupId: string,
  serviceIds: string[],
): Promise<number> {
  const result = await manager
    .createQueryBuilder()
    .insert()
    .into(GroupServiceEntity)
    .values(serviceIds.map((serviceId) => ({ groupId, serviceId })))
    .orIgnore()
    .returning('service_id')
    .execute();
  return (result.raw as unknown[]).length;
}

/**
 * Seeds the services, the demo groups, one demo user per role and KMI's rate table (see seed-data.ts), in
 * one transaction. Idempotent: rows are matched by service identifier, group code and user e-mail; seeded
 * fields are brought back to their seeded values, extra service links added by an admin stay, and existing
 * passwords are never touched. A rate table is only filled while empty: once it has rows they are the
 * rates editor's.
 */
export async function seed(dataSource: DataSource): Promise<SeedSummary> {
  return dataSource.transaction(async (manager) => {
    // Two seeds at once (e.g. two start scripts) would race on the inserts; the second one waits here.
    await manager.query('SELECT pg_advisory_xact_lock(hashtext($1))', ['@portal/db seed']);

    const serviceIds = new Map<ServiceIdentifier, string>();
    const serviceOutcomes: Outcome[] = [];
    for (const values of SEED_SERVICES) {
      const { row, outcome } = await upsert(
        manager,
        ServiceEntity,
        { identifier: values.identifier },
        values,
      );
      serviceIds.set(row.identifier, row.id);
      serviceOutcomes.push(outcome);
    }

    const groups = new Map<string, { row: GroupEntity; outcome: Outcome; adminEmail: string }>();
    for (const { services, adminEmail = DEMO_ADMIN_EMAIL, ...values } of SEED_GROUPS) {
      const result = await upsert(manager, GroupEntity, { code: values.code }, values);
      const granted = await grantGroupServices(
        manager,
        result.row.id,
        services.map((identifier) => serviceIds.get(identifier)!),
      );
      if (granted > 0 && result.outcome === 'unchanged') result.outcome = 'updated';
      groups.set(values.code, { ...result, adminEmail });
    }

    const userOutcomes: Outcome[] = [];
    const userIds = new Map<string, string>();
    for (const { groupCode, role: _role, ...values } of SEED_USERS) {
      const { row, outcome } = await upsert(
        manager,
        UserEntity,
        { email: values.email },
        { ...values, groupId: groups.get(groupCode)!.row.id },
        async () => ({ passwordHash: await hashPassword(DEMO_PASSWORD) }),
      );
      userIds.set(row.email, row.id);
      userOutcomes.push(outcome);
    }

    // Groups and users point at each other, so the groups' admin can only be set now.
    for (const group of groups.values()) {
      const adminUserId = userIds.get(group.adminEmail);
      if (group.row.adminUserId === adminUserId) continue;
      await manager.update(GroupEntity, group.row.id, { adminUserId });
      if (group.outcome === 'unchanged') group.outcome = 'updated';
    }

    const rateGroupId = groups.get(SEED_RATE_GROUP_CODE)!.row.id;
    let rateTable: Outcome = 'unchanged';
    if (!(await manager.existsBy(RateEntity, { groupId: rateGroupId }))) {
      await manager.insert(
        RateEntity,
        SEED_RATES.map((row, position) => ({ ...row, groupId: rateGroupId, position })),
      );
      rateTable = 'created';
    }

    return {
      services: tally(serviceOutcomes),
      groups: tally([...groups.values()].map((group) => group.outcome)),
      users: tally(userOutcomes),
      rateTables: tally([rateTable]),
    };
  });
}
