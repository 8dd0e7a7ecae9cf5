import type { DataSource, EntityManager } from 'typeorm';
import type {
  AddAddressBody,
  AddPoiBody,
  AddressQualityCode,
  EditorAddress,
  EditorParcel,
  EditorPoi,
} from '@portal/contracts';
import { POI_TYPES } from '@portal/contracts';
import {
  ADDRESS_EDITOR_TEXT,
  ADDRESS_QUALITY,
  DATA_QUALITY_UNADDRESSABLE,
  DATA_QUALITY_UNDER_INVESTIGATION,
  PARCEL_TYPE_UNADDRESSABLE,
  PARCEL_TYPE_UNDER_INVESTIGATION,
  VALIDATED_PARCEL_TYPES,
  acceptDisabled,
  detachDisabled,
  formatSaTime,
  houseNumberProblem,
  investigateDisabled,
  isUnaddressable,
  normaliseHouseNumber,
  numberValue,
  officialDisabled,
  unAddressableDisabled,
  unitProblem,
  validatedDataQuality,
} from '@portal/domain';
import { badRequest, notFound, type Caller } from '@portal/server-kit';
import { EditorConflict, recordEdit } from './audit';
import { ROAD_SEARCH_METRES, requireInSouthAfrica } from './read';
import {
  ADDRESS_COLUMNS,
  PARCEL_COLUMNS,
  POI_COLUMNS,
  erfName,
  toEditorAddress,
  toEditorParcel,
  toEditorPoi,
  type AddressRow,
  type ParcelRow,
  type PoiRow,
} from './rows';

/**
 * The editor's edits (the popup's calls; docs/decisions.md "Address editor"). Each is one transaction:
 * the parcel is locked first (then what is on it, always in that order, so two edits never deadlock), the
 * version the operator saw is checked, the rule is checked on the row as it is now, the change is written
 * with its version bumped and its audit row, or nothing is. Someone else's hold on the parcel refuses the
 * edit (409); the holder's own edits keep their hold alive.
 */

/** Where the editor's own rows come from (geo rows carry their source; libs/geo leaves these alone). */
export const EDITOR_SOURCE = 'avs-editor';

export const EDIT_TEXT = {
  stale: (what: string, version: number) =>
    `This ${what} was changed by someone else meanwhile (it is at version ${version}); the latest is shown.`,
  held: (erf: string, email: string, until: Date) =>
    `${erf} is being worked on by ${email} until ${formatSaTime(until)}; it cannot be edited meanwhile.`,
  noAddress: 'No such address.',
  noPoi: 'No such POI.',
  noParcel: 'No such parcel.',
  acceptDisabled: 'Accept is disabled: the address’s quality is already 25 or more.',
  investigateDisabled:
    'Investigate is disabled: the parcel is already under investigation (type 90 or quality -10).',
  unAddressableDisabled:
    'Un-Addressable is disabled: the parcel is already un-addressable (type 100 or quality -90).',
  alreadyOfficial: 'This address is already official (OFA).',
  notAttached: 'This POI is not attached to an address or an estate.',
  unaddressable: (erf: string) => `${erf} is un-addressable: it takes no address or POI.`,
  outsideParcel: (erf: string) => `The point is not inside ${erf}: place it on its parcel.`,
  noRoad: 'No such road.',
  roadFar: (road: string, metres: number) =>
    `${road} is ${Math.round(metres)} m from the point: pick one of the roads near it (within ${ROAD_SEARCH_METRES} m).`,
  duplicate: (number: string, unit: string | null, road: string, suburb: string) =>
    `${unit ? `Unit ${unit}, ` : ''}${number} is already on ${road}${suburb ? ` (${suburb})` : ''}.`,
  parcelType: (id: number) =>
    `Parcel type ${id} cannot be set by validation: use one of ${VALIDATED_PARCEL_TYPES.map((t) => t.id).join(', ')}.`,
  addressNotOnParcel: 'That address is not on this parcel.',
  estateMissing: 'A unit in an estate (POI type 11000) needs an estate POI (10500) on the parcel.',
  alreadyReviewed: 'This parcel is already marked done.',
} as const;

export interface EditContext {
  caller: Caller;
  holdSeconds: number;
}

// ------------------------------------------------------------------ locks, holds, versions

async function lockParcel(em: EntityManager, parcelId: string, ctx: EditContext): Promise<ParcelRow> {
  const [row]: ParcelRow[] = await em.query(
    `SELECT ${PARCEL_COLUMNS} FROM geo.parcels p WHERE p.id = $1 FOR NO KEY UPDATE`,
    [parcelId],
  );
  if (!row) throw notFound(EDIT_TEXT.noParcel);
  if (row.held_by_id && row.held_by_id !== ctx.caller.id && row.held_until)
    throw new EditorConflict(
      EDIT_TEXT.held(erfName(row), row.held_by ?? 'another operator', new Date(row.held_until)),
      toEditorParcel(row),
    );
  return row;
}

/** The holder's edit keeps the hold alive; an edit of a parcel nobody holds takes no hold. */
async function touchParcel(
  em: EntityManager,
  parcel: ParcelRow,
  ctx: EditContext,
  bumpVersion: boolean,
): Promise<void> {
  await em.query(
    `UPDATE geo.parcels SET
       edited_by = $2, edited_at = now(),
       version = version + $3,
       held_until = CASE WHEN held_by = $4 AND held_until > now() THEN now() + make_interval(secs => $5) ELSE held_until END
     WHERE id = $1`,
    [parcel.parcel_id, ctx.caller.email, bumpVersion ? 1 : 0, ctx.caller.id, ctx.holdSeconds],
  );
}

const readParcel = async (em: EntityManager, parcelId: string): Promise<EditorParcel> => {
  const [row]: ParcelRow[] = await em.query(`SELECT ${PARCEL_COLUMNS} FROM geo.parcels p WHERE p.id = $1`, [
    parcelId,
  ]);
  return toEditorParcel(row);
};
const readAddress = async (em: EntityManager, addressId: string): Promise<EditorAddress> => {
  const [row]: AddressRow[] = await em.query(
    `SELECT ${ADDRESS_COLUMNS} FROM geo.addresses a WHERE a.id = $1`,
    [addressId],
  );
  return toEditorAddress(row);
};
const readPoi = async (em: EntityManager, poiId: string): Promise<EditorPoi> => {
  const [row]: PoiRow[] = await em.query(`SELECT ${POI_COLUMNS} FROM geo.pois o WHERE o.id = $1`, [poiId]);
  return toEditorPoi(row);
};

/**
 * A child of a parcel (address or POI) locked after its parcel: which parcel it is on is read first, that
 * parcel locked (hold checked), then the row locked and read again — if it moved meanwhile, the version
 * check below refuses the edit anyway.
 */
async function lockChild<Row extends { parcel_id: string | null; version: number }>(
  em: EntityManager,
  ctx: EditContext,
  table: 'addresses' | 'pois',
  id: string,
): Promise<{ row: Row; parcel: ParcelRow | null }> {
  const alias = table === 'addresses' ? 'a' : 'o';
  const columns = table === 'addresses' ? ADDRESS_COLUMNS : POI_COLUMNS;
  const [first]: { parcel_id: string | null }[] = await em.query(
    `SELECT parcel_id::text AS parcel_id FROM geo.${table} WHERE id = $1`,
    [id],
  );
  if (!first) throw notFound(table === 'addresses' ? EDIT_TEXT.noAddress : EDIT_TEXT.noPoi);
  const parcel = first.parcel_id ? await lockParcel(em, first.parcel_id, ctx) : null;
  const [row]: Row[] = await em.query(
    `SELECT ${columns} FROM geo.${table} ${alias} WHERE ${alias}.id = $1 FOR NO KEY UPDATE`,
    [id],
  );
  if (!row) throw notFound(table === 'addresses' ? EDIT_TEXT.noAddress : EDIT_TEXT.noPoi);
  return { row, parcel };
}

// ------------------------------------------------------------------ addresses

type AddressChange =
  | { kind: 'official' }
  | { kind: 'accept'; quality: AddressQualityCode }
  | { kind: 'reject'; quality: AddressQualityCode };

/** Mark OFA, Accept and Reject with a quality (spec 03 §2, §5). */
export async function changeAddress(
  ds: DataSource,
  ctx: EditContext,
  addressId: string,
  version: number,
  change: AddressChange,
): Promise<EditorAddress> {
  return ds.transaction(async (em) => {
    const { row, parcel } = await lockChild<AddressRow>(em, ctx, 'addresses', addressId);
    const before = toEditorAddress(row);
    if (row.version !== version) throw new EditorConflict(EDIT_TEXT.stale('address', row.version), before);
    let set: string;
    let params: unknown[];
    if (change.kind === 'official') {
      if (officialDisabled(before)) throw new EditorConflict(EDIT_TEXT.alreadyOfficial, before);
      set = 'official = true';
      params = [];
    } else {
      if (change.kind === 'accept' && acceptDisabled(row.quality))
        throw new EditorConflict(EDIT_TEXT.acceptDisabled, before);
      set = `quality = $3, review = $4`;
      params = [ADDRESS_QUALITY[change.quality], change.kind === 'accept' ? 'accepted' : 'rejected'];
    }
    await em.query(
      `UPDATE geo.addresses SET ${set}, version = version + 1, edited_by = $2, edited_at = now() WHERE id = $1`,
      [addressId, ctx.caller.email, ...params],
    );
    if (parcel) await touchParcel(em, parcel, ctx, false);
    const after = await readAddress(em, addressId);
    await recordEdit(em, ctx.caller, {
      action: change.kind === 'official' ? 'mark-official' : change.kind,
      entity: 'address',
      entityId: addressId,
      parcelId: row.parcel_id,
      before,
      after,
    });
    return after;
  });
}

/** A street's numbers are checked and written one add at a time (two operators adding '12' at once). */
const lockStreet = (em: EntityManager, streetId: string) =>
  em.query(`SELECT pg_advisory_xact_lock(hashtextextended('avs-editor:street:' || $1, 0))`, [streetId]);

interface StreetRow {
  id: string;
  name: string;
  suburb: string;
  town: string;
  distance: number;
  postal_code: string | null;
}

/**
 * Add address (spec 03 §2): a street number on a road near the point (closestRoads), the point on its
 * parcel in South Africa, the number not already on that road, the parcel's version as the operator saw it.
 */
export async function addAddress(
  ds: DataSource,
  ctx: EditContext,
  body: AddAddressBody,
): Promise<EditorAddress> {
  const problems = [houseNumberProblem(body.houseNumber), unitProblem(body.unit)].filter(
    (problem): problem is string => problem !== null,
  );
  if (problems.length > 0) throw badRequest(problems.join(' '), problems);
  const houseNumber = normaliseHouseNumber(body.houseNumber);
  const unit = body.unit?.trim() ? body.unit.trim() : null;
  await requireInSouthAfrica(ds, body.lat, body.lng);
  return ds.transaction(async (em) => {
    const parcel = await lockParcel(em, body.parcelId, ctx);
    if (parcel.version !== body.parcelVersion)
      throw new EditorConflict(EDIT_TEXT.stale('parcel', parcel.version), toEditorParcel(parcel));
    if (isUnaddressable({ parcelTypeId: parcel.parcel_type_id, dataQualityId: parcel.data_quality_id }))
      throw new EditorConflict(EDIT_TEXT.unaddressable(erfName(parcel)), toEditorParcel(parcel));
    await requireOnParcel(em, parcel, body.lat, body.lng);
    const [street]: StreetRow[] = await em.query(
      `SELECT s.id::text AS id, s.name, s.suburb, s.town,
              ST_Distance(s.geom::geography, ST_SetSRID(ST_MakePoint($2, $3), 4326)::geography) AS distance,
              (SELECT a.postal_code FROM geo.addresses a WHERE a.street_id = s.id AND a.postal_code IS NOT NULL
               GROUP BY a.postal_code ORDER BY count(*) DESC, a.postal_code LIMIT 1) AS postal_code
       FROM geo.streets s WHERE s.id = $1`,
      [body.roadId, body.lng, body.lat],
    );
    if (!street) throw badRequest(EDIT_TEXT.noRoad);
    if (!(Number(street.distance) <= ROAD_SEARCH_METRES))
      throw badRequest(EDIT_TEXT.roadFar(street.name, Number(street.distance)));
    await lockStreet(em, street.id);
    const [taken]: { id: string }[] = await em.query(
      `SELECT id::text AS id FROM geo.addresses
       WHERE street_id = $1 AND lower(house_number) = lower($2) AND lower(coalesce(unit, '')) = lower($3)
       LIMIT 1`,
      [street.id, houseNumber, unit ?? ''],
    );
    if (taken) throw badRequest(EDIT_TEXT.duplicate(houseNumber, unit, street.name, street.suburb));
    // A unit belongs to the parcel's estate when it has one (its other units name it).
    const [estate]: { estate: string }[] = unit
      ? await em.query(
          `SELECT estate FROM geo.addresses WHERE parcel_id = $1 AND estate IS NOT NULL
           GROUP BY estate ORDER BY count(*) DESC, estate LIMIT 1`,
          [parcel.parcel_id],
        )
      : [];
    const [inserted]: { id: string }[] = await em.query(
      `INSERT INTO geo.addresses (house_number, number_value, street_id, street_name, unit, estate, suburb, town,
         postal_code, point, parcel_id, quality, official, source, source_id, edited_by, edited_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, ST_SetSRID(ST_MakePoint($10, $11), 4326), $12, $13, false,
         '${EDITOR_SOURCE}', gen_random_uuid()::text, $14, now())
       RETURNING id::text AS id`,
      [
        houseNumber,
        numberValue(houseNumber),
        street.id,
        street.name,
        unit,
        estate?.estate ?? null,
        street.suburb || parcel.suburb,
        street.town || parcel.town,
        street.postal_code,
        body.lng,
        body.lat,
        parcel.parcel_id,
        ADDRESS_QUALITY[body.quality ?? 'CNF'],
        ctx.caller.email,
      ],
    );
    await touchParcel(em, parcel, ctx, true);
    const after = await readAddress(em, inserted.id);
    await recordEdit(em, ctx.caller, {
      action: 'add-address',
      entity: 'address',
      entityId: inserted.id,
      parcelId: parcel.parcel_id,
      before: null,
      after,
    });
    return after;
  });
}

async function requireOnParcel(em: EntityManager, parcel: ParcelRow, lat: number, lng: number) {
  const [{ inside }]: { inside: boolean }[] = await em.query(
    `SELECT ST_Covers(geom, ST_SetSRID(ST_MakePoint($2, $3), 4326)) AS inside FROM geo.parcels WHERE id = $1`,
    [parcel.parcel_id, lng, lat],
  );
  if (!inside) throw badRequest(EDIT_TEXT.outsideParcel(erfName(parcel)));
}

// ------------------------------------------------------------------ POIs

/** Add POI (spec 03 §2, §3 POI types): on the parcel, optionally attached to one of its addresses. */
export async function addPoi(ds: DataSource, ctx: EditContext, body: AddPoiBody): Promise<EditorPoi> {
  const name = body.name.trim();
  if (name === '') throw badRequest(ADDRESS_EDITOR_TEXT.poiName);
  await requireInSouthAfrica(ds, body.lat, body.lng);
  return ds.transaction(async (em) => {
    const parcel = await lockParcel(em, body.parcelId, ctx);
    if (parcel.version !== body.parcelVersion)
      throw new EditorConflict(EDIT_TEXT.stale('parcel', parcel.version), toEditorParcel(parcel));
    if (isUnaddressable({ parcelTypeId: parcel.parcel_type_id, dataQualityId: parcel.data_quality_id }))
      throw new EditorConflict(EDIT_TEXT.unaddressable(erfName(parcel)), toEditorParcel(parcel));
    await requireOnParcel(em, parcel, body.lat, body.lng);
    if (body.addressId) {
      const [address]: { parcel_id: string | null }[] = await em.query(
        'SELECT parcel_id::text AS parcel_id FROM geo.addresses WHERE id = $1',
        [body.addressId],
      );
      if (!address || address.parcel_id !== parcel.parcel_id) throw badRequest(EDIT_TEXT.addressNotOnParcel);
    }
    let parentId: string | null = null;
    if (body.poiType === POI_TYPES.unit) {
      const [estate]: { id: string }[] = await em.query(
        `SELECT id::text AS id FROM geo.pois WHERE parcel_id = $1 AND poi_type = $2 ORDER BY id LIMIT 1`,
        [parcel.parcel_id, POI_TYPES.estate],
      );
      if (!estate) throw badRequest(EDIT_TEXT.estateMissing);
      parentId = estate.id;
    }
    const [inserted]: { id: string }[] = await em.query(
      `INSERT INTO geo.pois (name, poi_type, category, address_id, parcel_id, parent_id, suburb, town, point,
         source, source_id, edited_by, edited_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, ST_SetSRID(ST_MakePoint($9, $10), 4326),
         '${EDITOR_SOURCE}', gen_random_uuid()::text, $11, now())
       RETURNING id::text AS id`,
      [
        name,
        body.poiType,
        body.category?.trim() ?? '',
        body.addressId ?? null,
        parcel.parcel_id,
        parentId,
        parcel.suburb,
        parcel.town,
        body.lng,
        body.lat,
        ctx.caller.email,
      ],
    );
    await touchParcel(em, parcel, ctx, true);
    const after = await readPoi(em, inserted.id);
    await recordEdit(em, ctx.caller, {
      action: 'add-poi',
      entity: 'poi',
      entityId: inserted.id,
      parcelId: parcel.parcel_id,
      before: null,
      after,
    });
    return after;
  });
}

/** Detach a POI (spec 03 §2): it no longer belongs to its address or estate; it stays where it is. */
export async function detachPoi(
  ds: DataSource,
  ctx: EditContext,
  poiId: string,
  version: number,
): Promise<EditorPoi> {
  return ds.transaction(async (em) => {
    const { row, parcel } = await lockChild<PoiRow>(em, ctx, 'pois', poiId);
    const before = toEditorPoi(row);
    if (row.version !== version) throw new EditorConflict(EDIT_TEXT.stale('POI', row.version), before);
    if (detachDisabled(before)) throw new EditorConflict(EDIT_TEXT.notAttached, before);
    await em.query(
      `UPDATE geo.pois SET address_id = NULL, parent_id = NULL, version = version + 1, edited_by = $2,
         edited_at = now()
       WHERE id = $1`,
      [poiId, ctx.caller.email],
    );
    if (parcel) await touchParcel(em, parcel, ctx, false);
    const after = await readPoi(em, poiId);
    await recordEdit(em, ctx.caller, {
      action: 'detach-poi',
      entity: 'poi',
      entityId: poiId,
      parcelId: row.parcel_id,
      before,
      after,
    });
    return after;
  });
}

// ------------------------------------------------------------------ parcels

type ParcelChange =
  | { kind: 'investigate' }
  | { kind: 'unaddressable' }
  | { kind: 'validate'; parcelTypeId: number }
  | { kind: 'reviewed' };

/**
 * Investigate, Un-Addressable (spec 03 §5), Validate Parcel (validators; the route checks who) and the
 * operator's 'Parcel done'. Validating and marking done end the caller's hold: the parcel's turn is over.
 */
export async function changeParcel(
  ds: DataSource,
  ctx: EditContext,
  parcelId: string,
  version: number,
  change: ParcelChange,
): Promise<EditorParcel> {
  if (change.kind === 'validate' && !VALIDATED_PARCEL_TYPES.some((type) => type.id === change.parcelTypeId))
    throw badRequest(EDIT_TEXT.parcelType(change.parcelTypeId));
  return ds.transaction(async (em) => {
    const parcel = await lockParcel(em, parcelId, ctx);
    const before = toEditorParcel(parcel);
    if (parcel.version !== version)
      throw new EditorConflict(EDIT_TEXT.stale('parcel', parcel.version), before);
    const codes = { parcelTypeId: parcel.parcel_type_id, dataQualityId: parcel.data_quality_id };
    let set: string;
    let params: unknown[] = [];
    switch (change.kind) {
      case 'investigate':
        if (investigateDisabled(codes)) throw new EditorConflict(EDIT_TEXT.investigateDisabled, before);
        set = 'parcel_type_id = $3, data_quality_id = $4';
        params = [PARCEL_TYPE_UNDER_INVESTIGATION, DATA_QUALITY_UNDER_INVESTIGATION];
        break;
      case 'unaddressable':
        if (unAddressableDisabled(codes)) throw new EditorConflict(EDIT_TEXT.unAddressableDisabled, before);
        set = 'parcel_type_id = $3, data_quality_id = $4';
        params = [PARCEL_TYPE_UNADDRESSABLE, DATA_QUALITY_UNADDRESSABLE];
        break;
      case 'validate':
        set =
          'parcel_type_id = $3, data_quality_id = $4, held_by = NULL, held_by_email = NULL, held_until = NULL';
        params = [change.parcelTypeId, validatedDataQuality(change.parcelTypeId)];
        break;
      case 'reviewed':
        if (parcel.reviewed) throw new EditorConflict(EDIT_TEXT.alreadyReviewed, before);
        set =
          'reviewed_at = now(), reviewed_by = $2, held_by = NULL, held_by_email = NULL, held_until = NULL';
        break;
    }
    await em.query(
      `UPDATE geo.parcels SET ${set}, version = version + 1, edited_by = $2, edited_at = now() WHERE id = $1`,
      [parcelId, ctx.caller.email, ...params],
    );
    const after = await readParcel(em, parcelId);
    await recordEdit(em, ctx.caller, {
      action: change.kind === 'reviewed' ? 'parcel-done' : change.kind,
      entity: 'parcel',
      entityId: parcelId,
      parcelId,
      before,
      after,
    });
    return after;
  });
}
