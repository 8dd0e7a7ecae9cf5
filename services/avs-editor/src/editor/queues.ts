import type { DataSource } from 'typeorm';
import { QUEUE_COUNT_LIMIT, type DequeueParcelAnswer } from '@portal/contracts';
import type { Caller } from '@portal/server-kit';
import { changedRows } from './rows';

/**
 * The parcel queues (spec 03 §7 multi_parcel, no_address_parcel, dequeue_validate_parcel). A dequeue is
 * one transaction: the caller's earlier parcel holds are given back (an operator works one parcel at a
 * time), the first parcel of the queue nobody holds is locked with FOR NO KEY UPDATE SKIP LOCKED — a
 * concurrent dequeue skips it, and one that reaches it after this commit re-reads the row, now held, and
 * passes on (PostgreSQL re-checks a locked row's conditions on its newest version) — and the hold is
 * written on it. An abandoned hold expires after holdSeconds: the parcel is back in its queue.
 */

export type ParcelQueue = 'multi' | 'empty' | 'validate';

/** The same conditions as the queue indexes of migration AvsEditor1764600000000 (so the planner uses them). */
const WORKABLE = 'parcel_type_id NOT IN (90, 100) AND data_quality_id NOT IN (-10, -90)';
export const QUEUE_CONDITION: Record<ParcelQueue, string> = {
  multi: `address_count > 1 AND reviewed_at IS NULL AND ${WORKABLE}`,
  empty: `address_count = 0 AND ${WORKABLE}`,
  validate: '(parcel_type_id = 90 OR data_quality_id = -10)',
};

const FREE = '(held_until IS NULL OR held_until <= now())';

export async function dequeueParcel(
  ds: DataSource,
  caller: Caller,
  queue: ParcelQueue,
  holdSeconds: number,
  skip?: string,
): Promise<DequeueParcelAnswer> {
  const parcel = await ds.transaction(async (em) => {
    await em.query(
      `UPDATE geo.parcels SET held_by = NULL, held_by_email = NULL, held_until = NULL WHERE held_by = $1`,
      [caller.id],
    );
    const [next]: { id: string }[] = await em.query(
      `SELECT p.id::text AS id FROM geo.parcels p
       WHERE ${QUEUE_CONDITION[queue]} AND ${FREE} AND p.id <> $1::bigint
       ORDER BY p.id
       LIMIT 1
       FOR NO KEY UPDATE SKIP LOCKED`,
      [skip ?? '0'],
    );
    if (!next) return null;
    const [held] = await changedRows<{
      parcel_id: string;
      version: number;
      lat: number;
      lng: number;
      held_until: Date;
    }>(
      em,
      `UPDATE geo.parcels SET held_by = $2, held_by_email = $3, held_until = now() + make_interval(secs => $4)
         WHERE id = $1
         RETURNING id::text AS parcel_id, version, held_until,
           ST_Y(CASE WHEN ST_Contains(geom, ST_Centroid(geom)) THEN ST_Centroid(geom) ELSE ST_PointOnSurface(geom) END) AS lat,
           ST_X(CASE WHEN ST_Contains(geom, ST_Centroid(geom)) THEN ST_Centroid(geom) ELSE ST_PointOnSurface(geom) END) AS lng`,
      [next.id, caller.id, caller.email, holdSeconds],
    );
    return held;
  });
  const [{ remaining }]: { remaining: number }[] = await ds.query(
    `SELECT count(*)::int AS remaining FROM (
       SELECT 1 FROM geo.parcels WHERE ${QUEUE_CONDITION[queue]} AND ${FREE} LIMIT ${QUEUE_COUNT_LIMIT}
     ) queued`,
  );
  return {
    success: true,
    parcel: parcel
      ? {
          parcelId: parcel.parcel_id,
          version: parcel.version,
          lat: Number(parcel.lat),
          lng: Number(parcel.lng),
          heldUntil: new Date(parcel.held_until).toISOString(),
        }
      : null,
    remaining,
  };
}

/** Gives back the caller's hold on a parcel (nobody else's): it is at once in its queue again. */
export async function releaseParcel(ds: DataSource, caller: Caller, parcelId: string): Promise<boolean> {
  const rows = await changedRows(
    ds,
    `UPDATE geo.parcels SET held_by = NULL, held_by_email = NULL, held_until = NULL
     WHERE id = $1 AND held_by = $2 RETURNING id`,
    [parcelId, caller.id],
  );
  return rows.length > 0;
}
