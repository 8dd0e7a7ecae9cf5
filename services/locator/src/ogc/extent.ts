import type { DataSource } from 'typeorm';

/** [west, south, east, north] in degrees. */
export type Bbox = [number, number, number, number];

/** South Africa's box: the extent of a table with no rows yet, and the tiles' fallback. */
export const COUNTRY_BBOX: Bbox = [16.3, -35.0, 33.0, -22.1];

/** The spatial tables the GIS documents describe, with their geometry column. */
export const SPATIAL_TABLES = {
  places: { table: 'geo.places', column: 'point' },
  streets: { table: 'geo.streets', column: 'geom' },
  parcels: { table: 'geo.parcels', column: 'geom' },
  addresses: { table: 'geo.addresses', column: 'point' },
  buildings: { table: 'geo.buildings', column: 'geom' },
  surveys: { table: 'geo.imagery_coverage', column: 'geom' },
  requests: { table: 'requests.requests', column: 'point' },
} as const;
export type SpatialTable = keyof typeof SPATIAL_TABLES;

/**
 * Each table's data extent, read once per process and kept: ST_EstimatedExtent reads the planner's
 * statistics (no scan of a 10 M-row table); before the table was ever analysed it answers NULL and the
 * exact ST_Extent is read instead (a fresh or small table). An empty table has the country's box.
 */
export class ExtentCache {
  private readonly boxes = new Map<SpatialTable, Promise<Bbox>>();

  constructor(private readonly ds: DataSource) {}

  bbox(name: SpatialTable): Promise<Bbox> {
    let box = this.boxes.get(name);
    if (!box) {
      box = this.read(name);
      // A failed read is asked again next time rather than kept.
      box.catch(() => this.boxes.delete(name));
      this.boxes.set(name, box);
    }
    return box;
  }

  private async read(name: SpatialTable): Promise<Bbox> {
    const { table, column } = SPATIAL_TABLES[name];
    const [schema, relation] = table.split('.');
    const box = (extent: string) => `SELECT ST_XMin(e) AS w, ST_YMin(e) AS s, ST_XMax(e) AS e, ST_YMax(e) AS n
       FROM (SELECT ${extent} AS e) AS x WHERE e IS NOT NULL`;
    const read = async (sql: string, params: unknown[] = []) =>
      ((await this.ds.query(sql, params)) as { w: number; s: number; e: number; n: number }[])[0];
    // ST_EstimatedExtent raises (not NULL) on some PostGIS versions when there are no statistics.
    const estimated = await read(box('ST_EstimatedExtent($1, $2, $3)::geometry'), [
      schema,
      relation,
      column,
    ]).catch(() => undefined);
    const row = estimated ?? (await read(box(`(SELECT ST_Extent(${column})::geometry FROM ${table})`)));
    if (!row) return COUNTRY_BBOX;
    const round = (value: number) => Math.round(value * 1e6) / 1e6;
    return [round(row.w), round(row.s), round(row.e), round(row.n)];
  }
}
