/**
 * The rows of a few suburbs (and their towns' farms and imagery surveys), held until they are written.
 * Rows are arrays in their table's column order; a column that refers to another row of the same batch
 * holds that row's index until the batch is written, when it becomes the row's id (upsertRows answers ids
 * in input order). A batch is written table by table, parents first.
 */
import { type Queryable, upsertRows, type UpsertColumn } from '../load/upsert';

export const GENERATOR_SOURCE = 'generator';
/** The provider of the surveys the generator makes: the portal's own renderer draws them (services/locator). */
export const GENERATOR_PROVIDER = 'Portal imagery';

const geometry = (name: string): UpsertColumn => ({ name, type: 'text', expression: '$::geometry' });
const text = (name: string): UpsertColumn => ({ name, type: 'text' });
const int = (name: string): UpsertColumn => ({ name, type: 'int4' });
const bigint = (name: string): UpsertColumn => ({ name, type: 'int8' });
const real = (name: string): UpsertColumn => ({ name, type: 'float4' });
const date = (name: string): UpsertColumn => ({ name, type: 'date' });
const SOURCE = [text('source'), text('source_id')];

export const COLUMNS = {
  places: [
    text('kind'),
    text('name'),
    text('code'),
    bigint('parent_id'),
    int('population'),
    real('importance'),
    geometry('point'),
    geometry('geom'),
    ...SOURCE,
  ],
  postalCodes: [
    text('street_code'),
    text('box_code'),
    text('suburb'),
    text('town'),
    text('province'),
    bigint('place_id'),
    geometry('point'),
    ...SOURCE,
  ],
  streets: [
    text('name'),
    bigint('suburb_id'),
    bigint('town_id'),
    text('suburb'),
    text('town'),
    real('importance'),
    text('search_text'),
    geometry('geom'),
    ...SOURCE,
  ],
  parcels: [
    text('parcel_number'),
    int('portion'),
    int('parcel_type_id'),
    int('data_quality_id'),
    text('sg_key'),
    bigint('town_id'),
    bigint('suburb_id'),
    text('town'),
    text('suburb'),
    geometry('geom'),
    ...SOURCE,
  ],
  addresses: [
    text('house_number'),
    int('number_value'),
    bigint('street_id'),
    text('street_name'),
    text('unit'),
    text('estate'),
    text('suburb'),
    text('town'),
    text('postal_code'),
    geometry('point'),
    bigint('parcel_id'),
    int('quality'),
    { name: 'official', type: 'bool' },
    ...SOURCE,
  ],
  pois: [
    text('name'),
    int('poi_type'),
    text('category'),
    bigint('address_id'),
    bigint('parcel_id'),
    bigint('parent_id'),
    text('suburb'),
    text('town'),
    real('importance'),
    geometry('point'),
    ...SOURCE,
  ],
  buildings: [
    bigint('parcel_id'),
    text('kind'),
    int('levels'),
    real('height_m'),
    text('roof'),
    geometry('geom'),
    date('built_on'),
    date('demolished_on'),
    date('extended_on'),
    geometry('geom_before_extension'),
    ...SOURCE,
  ],
  farms: [
    text('name'),
    int('farm_number'),
    int('portion'),
    text('division'),
    bigint('parcel_id'),
    text('town'),
    text('province'),
    geometry('geom'),
    ...SOURCE,
  ],
  coverage: [text('kind'), text('name'), date('captured_on'), geometry('geom'), ...SOURCE, text('provider')],
} satisfies Record<string, UpsertColumn[]>;

/** A building row's life columns (built_on, demolished_on, extended_on, geom_before_extension) when it has none. */
export const NO_LIFE = [null, null, null, null] as const;

/** Positions of the columns that refer to rows of the same batch. */
export const REF = {
  postalPlace: 5,
  streetSuburb: 1,
  parcelSuburb: 6,
  addressStreet: 2,
  addressParcel: 10,
  poiAddress: 3,
  poiParcel: 4,
  poiParent: 5,
  buildingParcel: 0,
  farmParcel: 4,
} as const;

export type Row = unknown[];

/** What a run wrote, by table. */
export interface GeneratedCounts {
  suburbs: number;
  postalCodes: number;
  streets: number;
  parcels: number;
  addresses: number;
  pois: number;
  buildings: number;
  farms: number;
  imageryCoverage: number;
}

export const emptyCounts = (): GeneratedCounts => ({
  suburbs: 0,
  postalCodes: 0,
  streets: 0,
  parcels: 0,
  addresses: 0,
  pois: 0,
  buildings: 0,
  farms: 0,
  imageryCoverage: 0,
});

export class Batch {
  suburbs: Row[] = [];
  postalCodes: Row[] = [];
  streets: Row[] = [];
  parcels: Row[] = [];
  addresses: Row[] = [];
  /** Address POIs and estates (10000, 10500). */
  pois: Row[] = [];
  /** Units in estates (11000): their parent is an estate in `pois`. */
  unitPois: Row[] = [];
  buildings: Row[] = [];
  farms: Row[] = [];
  coverage: Row[] = [];

  /** Rows held, for deciding when to write. */
  get size(): number {
    return this.parcels.length + this.addresses.length + this.buildings.length;
  }

  /** Writes the batch, parents first, and adds what it wrote to `counts`. */
  async write(db: Queryable, counts: GeneratedCounts): Promise<void> {
    const suburbIds = await upsertRows(db, 'geo.places', COLUMNS.places, this.suburbs);
    resolve(this.postalCodes, REF.postalPlace, suburbIds);
    resolve(this.streets, REF.streetSuburb, suburbIds);
    resolve(this.parcels, REF.parcelSuburb, suburbIds);
    await upsertRows(db, 'geo.postal_codes', COLUMNS.postalCodes, this.postalCodes);
    const streetIds = await upsertRows(db, 'geo.streets', COLUMNS.streets, this.streets);
    const parcelIds = await upsertRows(db, 'geo.parcels', COLUMNS.parcels, this.parcels);
    resolve(this.addresses, REF.addressStreet, streetIds);
    resolve(this.addresses, REF.addressParcel, parcelIds);
    resolve(this.buildings, REF.buildingParcel, parcelIds);
    resolve(this.farms, REF.farmParcel, parcelIds);
    const addressIds = await upsertRows(db, 'geo.addresses', COLUMNS.addresses, this.addresses);
    for (const rows of [this.pois, this.unitPois]) {
      resolve(rows, REF.poiAddress, addressIds);
      resolve(rows, REF.poiParcel, parcelIds);
    }
    const poiIds = await upsertRows(db, 'geo.pois', COLUMNS.pois, this.pois);
    resolve(this.unitPois, REF.poiParent, poiIds);
    await upsertRows(db, 'geo.pois', COLUMNS.pois, this.unitPois);
    await upsertRows(db, 'geo.buildings', COLUMNS.buildings, this.buildings);
    await upsertRows(db, 'geo.farms', COLUMNS.farms, this.farms);
    await upsertRows(db, 'geo.imagery_coverage', COLUMNS.coverage, this.coverage);

    counts.suburbs += this.suburbs.length;
    counts.postalCodes += this.postalCodes.length;
    counts.streets += this.streets.length;
    counts.parcels += this.parcels.length;
    counts.addresses += this.addresses.length;
    counts.pois += this.pois.length + this.unitPois.length;
    counts.buildings += this.buildings.length;
    counts.farms += this.farms.length;
    counts.imageryCoverage += this.coverage.length;
  }
}

/** Replaces batch-local row indices in one column by the written rows' ids. */
function resolve(rows: Row[], column: number, ids: readonly string[]): void {
  for (const row of rows) {
    const ref = row[column];
    if (typeof ref === 'number') row[column] = ids[ref];
  }
}
