import type { DataSource, EntityManager } from 'typeorm';
import type { Redis } from 'ioredis';
import { recordNotifications, recordRequestEvents } from '@portal/db';
import {
  QUEUE_COUNT_LIMIT,
  REQUEST_SUBTYPE,
  requestUpdatedChannel,
  type CantLocateItem,
  type DequeueRequestAnswer,
  type RequestSelected,
  type RequestUpdatedEvent,
  type ResolveCantLocateAnswer,
  type ResolveCantLocateBody,
} from '@portal/contracts';
import {
  CANT_LOCATE_OPEN_STATUSES,
  CANT_LOCATE_RESOLVED_STATUS,
  cantLocateResolvable,
  padCode,
} from '@portal/domain';
import { badRequest, notFound, type Caller } from '@portal/server-kit';
import type { FastifyBaseLogger } from 'fastify';
import { EditorConflict, recordEdit } from './audit';
import { requireInSouthAfrica, parcelAtPoint } from './read';
import { erfName, formattedAddressOf } from './rows';

/**
 * Can't-locate requests (spec 03 "Can't-locate address screen": AVS, subtype Can't Locate) as the editor
 * works them. The request is services/requests' row (`requests.requests`); the editor writes the columns
 * that say where the property is and moves the status on, with history rows, in one transaction under the
 * request's row lock — the same split the iris worker has for a finished report (docs/architecture.md
 * "Data ownership"). The grids hear of it on Redis after the commit, as they hear of requests' own changes.
 *
 * Holds live in avs_editor.request_holds (not on the request's row, which services/requests owns): a
 * dequeue locks the request row with SKIP LOCKED and then reads its hold again in a new statement, which
 * sees any hold committed before the lock was granted — so two operators never get the same request.
 */

export const CANT_LOCATE_TEXT = {
  notFound: 'No such request.',
  notCantLocate: "This is not a can't-locate request (AVS, subtype Can't Locate).",
  resolved: (status: string) => `This request is already '${status}': there is nothing to resolve.`,
  stale: (version: number) =>
    `This request was changed by someone else meanwhile (it is at version ${version}); the latest is shown.`,
  held: (email: string) => `This request is being worked on by ${email}.`,
  where: 'Say where the property is: an address (addressId) or a point (lat and lng).',
  noAddress: 'No such address.',
} as const;

const ITEM_COLUMNS = `r.id::text AS id, r.grip_reference, r.status, r.version, r.query, r.searched_for, r.additional,
  r.address, r.lat, r.lng, r.user_name, r.user_email, r.group_name, r.created_at, r.request_type,
  r.request_sub_type, r.user_id::text AS user_id`;

interface ItemRow {
  id: string;
  grip_reference: string;
  status: string;
  version: number;
  query: string | null;
  searched_for: string | null;
  additional: string;
  address: string;
  lat: number | null;
  lng: number | null;
  user_name: string;
  user_email: string;
  group_name: string | null;
  created_at: Date;
  request_type: string;
  request_sub_type: string | null;
  user_id: string;
}

const toItem = (row: ItemRow, heldUntil: Date | null): CantLocateItem => ({
  requestId: row.id,
  gripReference: row.grip_reference,
  status: row.status,
  version: row.version,
  query: row.query,
  searchedFor: row.searched_for,
  comments: row.additional ?? '',
  address: row.address,
  lat: row.lat === null ? null : Number(row.lat),
  lng: row.lng === null ? null : Number(row.lng),
  requestedBy: `${row.user_name} <${row.user_email}>`,
  group: row.group_name,
  created: new Date(row.created_at).toISOString(),
  heldUntil: heldUntil ? new Date(heldUntil).toISOString() : '',
});

const QUEUE = `r.request_type = 'AVS' AND r.request_sub_type = $1 AND r.status = ANY($2::text[])`;
const FREE = `NOT EXISTS (SELECT 1 FROM avs_editor.request_holds h WHERE h.request_id = r.id AND h.held_until > now())`;
/** Dequeue attempts before answering "nothing free" (each lost race skips one request). */
const ATTEMPTS = 25;

export async function dequeueCantLocate(
  ds: DataSource,
  caller: Caller,
  holdSeconds: number,
  skip?: string,
): Promise<DequeueRequestAnswer> {
  const item = await ds.transaction(async (em) => {
    // One request at a time per operator; expired holds of anyone are cleared on the way.
    await em.query(`DELETE FROM avs_editor.request_holds WHERE held_by = $1 OR held_until < now()`, [
      caller.id,
    ]);
    const passed: string[] = skip ? [skip] : [];
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const [row]: ItemRow[] = await em.query(
        `SELECT ${ITEM_COLUMNS} FROM requests.requests r
         WHERE ${QUEUE} AND ${FREE} AND r.id <> ALL($3::uuid[])
         ORDER BY r.priority DESC, r.created_at, r.id
         LIMIT 1
         FOR NO KEY UPDATE OF r SKIP LOCKED`,
        [REQUEST_SUBTYPE.cantLocate, CANT_LOCATE_OPEN_STATUSES, passed],
      );
      if (!row) return null;
      const [taken]: unknown[] = await em.query(
        `SELECT 1 FROM avs_editor.request_holds WHERE request_id = $1 AND held_until > now() AND held_by <> $2`,
        [row.id, caller.id],
      );
      if (taken) {
        passed.push(row.id);
        continue;
      }
      const [hold]: { held_until: Date }[] = await em.query(
        `INSERT INTO avs_editor.request_holds (request_id, held_by, held_by_email, held_until)
         VALUES ($1, $2, $3, now() + make_interval(secs => $4))
         ON CONFLICT (request_id) DO UPDATE
           SET held_by = EXCLUDED.held_by, held_by_email = EXCLUDED.held_by_email, held_until = EXCLUDED.held_until
         RETURNING held_until`,
        [row.id, caller.id, caller.email, holdSeconds],
      );
      return toItem(row, hold.held_until);
    }
    return null;
  });
  const [{ remaining }]: { remaining: number }[] = await ds.query(
    `SELECT count(*)::int AS remaining FROM (
       SELECT 1 FROM requests.requests r WHERE ${QUEUE} AND ${FREE} LIMIT ${QUEUE_COUNT_LIMIT}
     ) queued`,
    [REQUEST_SUBTYPE.cantLocate, CANT_LOCATE_OPEN_STATUSES],
  );
  return { success: true, request: item, remaining };
}

export async function releaseRequest(ds: DataSource, caller: Caller, requestId: string): Promise<boolean> {
  const [rows] = (await ds.query(
    `DELETE FROM avs_editor.request_holds WHERE request_id = $1 AND held_by = $2 RETURNING request_id`,
    [requestId, caller.id],
  )) as [unknown[], number];
  return rows.length > 0;
}

interface Place {
  lat: number;
  lng: number;
  formatted: string;
  selected: RequestSelected;
  parcel: { id: string; formatted_address: string; geometry: unknown } | null;
  parcelGeometry: string | null;
}

/** Where the request's property is: an address of the geodata, or a point the operator placed. */
async function placeOf(em: EntityManager, body: ResolveCantLocateBody): Promise<Place> {
  if (body.addressId) {
    const [row]:
      | {
          lat: number;
          lng: number;
          house_number: string;
          street_name: string;
          unit: string | null;
          estate: string | null;
          suburb: string;
          town: string;
          postal_code: string | null;
          parcel_id: string | null;
          parcel_number: string | null;
          portion: number | null;
          parcel_geometry: string | null;
          box_code: string | null;
        }[]
      | [] = await em.query(
      `SELECT ST_Y(a.point) AS lat, ST_X(a.point) AS lng, a.house_number, a.street_name, a.unit, a.estate,
              a.suburb, a.town, a.postal_code, a.parcel_id::text AS parcel_id, p.parcel_number, p.portion,
              ST_AsGeoJSON(p.geom, 7) AS parcel_geometry,
              (SELECT pc.box_code FROM geo.postal_codes pc
               WHERE pc.place_id = p.suburb_id AND pc.box_code IS NOT NULL ORDER BY pc.id LIMIT 1) AS box_code
       FROM geo.addresses a LEFT JOIN geo.parcels p ON p.id = a.parcel_id
       WHERE a.id = $1`,
      [body.addressId],
    );
    if (!row) throw badRequest(CANT_LOCATE_TEXT.noAddress);
    const formatted = formattedAddressOf(row);
    return {
      lat: Number(row.lat),
      lng: Number(row.lng),
      formatted,
      selected: {
        formatted_address: formatted,
        suburb: row.suburb,
        town: row.town,
        no: row.house_number,
        name: row.street_name,
        streetcode: padCode(row.postal_code),
        boxcode: padCode(row.box_code),
      },
      parcel:
        row.parcel_id && row.parcel_geometry
          ? {
              id: row.parcel_id,
              formatted_address: formatted,
              geometry: JSON.parse(row.parcel_geometry),
            }
          : null,
      parcelGeometry: row.parcel_geometry,
    };
  }
  if (body.lat === undefined || body.lng === undefined) throw badRequest(CANT_LOCATE_TEXT.where);
  await requireInSouthAfrica(em, body.lat, body.lng);
  const parcel = await parcelAtPoint(em, body.lat, body.lng);
  const [geometry]: { geometry: string }[] = parcel
    ? await em.query('SELECT ST_AsGeoJSON(geom, 7) AS geometry FROM geo.parcels WHERE id = $1', [
        parcel.parcel_id,
      ])
    : [];
  const formatted = [
    parcel ? erfName(parcel) : `${body.lat.toFixed(6)}, ${body.lng.toFixed(6)}`,
    parcel?.suburb,
    parcel?.town,
  ]
    .filter(Boolean)
    .join(', ');
  return {
    lat: body.lat,
    lng: body.lng,
    formatted,
    selected: { formatted_address: formatted, suburb: parcel?.suburb ?? '', town: parcel?.town ?? '' },
    parcel: parcel
      ? { id: parcel.parcel_id, formatted_address: formatted, geometry: JSON.parse(geometry.geometry) }
      : null,
    parcelGeometry: geometry?.geometry ?? null,
  };
}

/**
 * Resolve a can't-locate request: its location and address set from the place found, its status moved
 * to Finalised (the requester's list shows it so), history rows for both, the audit row, the hold given
 * back — one transaction under the request's row lock, the version the operator saw checked.
 */
export async function resolveCantLocate(
  ds: DataSource,
  bus: { redis: Redis; redisPrefix: string },
  log: FastifyBaseLogger,
  caller: Caller,
  requestId: string,
  body: ResolveCantLocateBody,
): Promise<ResolveCantLocateAnswer> {
  const outcome = await ds.transaction(async (em) => {
    const [row]: ItemRow[] = await em.query(
      `SELECT ${ITEM_COLUMNS} FROM requests.requests r WHERE r.id = $1 FOR UPDATE`,
      [requestId],
    );
    if (!row) throw notFound(CANT_LOCATE_TEXT.notFound);
    const [hold]: { held_by: string; held_by_email: string; held_until: Date }[] = await em.query(
      `SELECT held_by::text AS held_by, held_by_email, held_until FROM avs_editor.request_holds
       WHERE request_id = $1 AND held_until > now()`,
      [requestId],
    );
    const current = toItem(row, hold?.held_until ?? null);
    if (row.request_type !== 'AVS' || row.request_sub_type !== REQUEST_SUBTYPE.cantLocate)
      throw new EditorConflict(CANT_LOCATE_TEXT.notCantLocate, current);
    if (row.version !== body.version) throw new EditorConflict(CANT_LOCATE_TEXT.stale(row.version), current);
    if (!cantLocateResolvable(row.status))
      throw new EditorConflict(CANT_LOCATE_TEXT.resolved(row.status), current);
    if (hold && hold.held_by !== caller.id)
      throw new EditorConflict(CANT_LOCATE_TEXT.held(hold.held_by_email), current);
    const place = await placeOf(em, body);
    await em.query(
      `UPDATE requests.requests SET
         lat = $2::float8, lng = $3::float8, point = ST_SetSRID(ST_MakePoint($3::float8, $2::float8), 4326),
         address = $4, selected = $5::jsonb, parcel_id = $6, parcel = $7::jsonb,
         parcel_geom = CASE WHEN $8::text IS NULL THEN NULL ELSE ST_Multi(ST_SetSRID(ST_GeomFromGeoJSON($8::text), 4326)) END,
         status = $9, status_changed_at = now(), date_finalised = coalesce(date_finalised, now()),
         version = version + 1, updated_at = now()
       WHERE id = $1`,
      [
        requestId,
        place.lat,
        place.lng,
        place.formatted,
        JSON.stringify(place.selected),
        place.parcel?.id ?? null,
        place.parcel ? JSON.stringify(place.parcel) : null,
        place.parcelGeometry,
        CANT_LOCATE_RESOLVED_STATUS,
      ],
    );
    const comment = body.comment?.trim() || `Located in the address editor by ${caller.name}.`;
    await em.query(
      `INSERT INTO requests.request_history (request_id, user_id, user_name, field, from_value, to_value, comment)
       VALUES ($1, $2, $3, 'address', $4, $5, $6), ($1, $2, $3, 'status', $7, $8, $6)`,
      [
        requestId,
        caller.id,
        caller.name,
        row.address || null,
        place.formatted,
        comment,
        row.status,
        CANT_LOCATE_RESOLVED_STATUS,
      ],
    );
    await em.query('DELETE FROM avs_editor.request_holds WHERE request_id = $1', [requestId]);
    // The status moved: its webhook event with the change (the outbox, libs/db).
    await recordRequestEvents(em, 'request.status_changed', [requestId]);
    // The requester is told their can't-locate request was located (issue 24, with the change).
    await recordNotifications(em, {
      kind: 'request.located',
      requestIds: [requestId],
      to: 'requester',
      actorId: caller.id,
    });
    const after = {
      ...current,
      status: CANT_LOCATE_RESOLVED_STATUS,
      version: row.version + 1,
      address: place.formatted,
      lat: place.lat,
      lng: place.lng,
      heldUntil: '',
    };
    await recordEdit(em, caller, {
      action: 'resolve-cant-locate',
      entity: 'request',
      entityId: requestId,
      parcelId: place.parcel?.id ?? null,
      before: current,
      after,
    });
    return { row, after };
  });
  // After the commit: the request grids (the requester's list, the console) refetch it.
  const event: RequestUpdatedEvent = { ids: [requestId], userIds: [outcome.row.user_id] };
  await bus.redis
    .publish(requestUpdatedChannel(bus.redisPrefix), JSON.stringify(event))
    .catch((err: unknown) => {
      log.error({ err, requestId }, 'request-updated event not published');
    });
  return {
    success: true,
    requestId,
    gripReference: outcome.row.grip_reference,
    status: outcome.after.status,
    version: outcome.after.version,
    address: outcome.after.address,
    lat: outcome.after.lat,
    lng: outcome.after.lng,
  };
}
