import { createReadStream } from 'node:fs';
import { basename } from 'node:path';
import { pipeline } from 'node:stream';
import { OSMTransform } from 'osm-pbf-parser-node';
import { answeringRows } from '../generator/connection';
import { canCopy } from '../generator/copy';
import { multiPolygonHex, pointHex, polygonHex } from '../generator/ewkb';
import { GEOMETRY, type Queryable, type UpsertColumn } from '../load/upsert';
import { foldText, streetSearchText } from '../text';
import { assertGeoSchema, ImportInputError, type ImportOptions, inputSize } from '../importers/common';
import { FARM_COLUMNS, splitFarmName } from '../importers/farms';
import { checkLonLat, checkPolygonal, pointGeoJson, type Position } from '../importers/geometry';
import {
  linkPlaceParentsByPosition,
  linkPoisToAddresses,
  linkStreetsToPlaces,
  linkToParcels,
} from '../importers/link';
import { placeImportance } from '../importers/places';
import { POI_COLUMNS } from '../importers/pois';
import { createProgress, resolveProgressMode } from '../importers/progress';
import { ImportRun, type ImportSummary } from '../importers/run';
import { restoreUnfinishedBulkImports, stagedColumns, writeStaged } from '../importers/staged-write';
import { StagedTableWriter } from '../importers/staged-writer';
import { TableWriter } from '../importers/writer';
import { NodeCoordinates } from './node-coordinates';
import {
  hasAddress,
  isFarm,
  type OsmAddress,
  placeKindOf,
  readAddress,
  readBuilding,
  readPoi,
  readPopulation,
  type Tags,
  WANTED_TAGS,
} from './tags';

export interface OsmImportOptions extends ImportOptions {
  /**
   * Bulk load (the CLI's --bulk; a national extract): rows are copied into temporary tables while the file
   * is read and written into geo.* by one statement per table at the end; when no row of this source is
   * there yet and the import outnumbers what the tables hold, their indexes are set aside and built once
   * afterwards (importers/staged-write.ts). The rows and the summary are the upsert path's. `db` must be a
   * node-postgres Client (COPY), not a pool or a TypeORM DataSource.
   */
  bulk?: boolean;
}

/** How geometries travel: GeoJSON text through the upsert's expressions, or hex EWKB into staged columns. */
interface GeometryForm {
  point(lon: number, lat: number): string;
  polygon(checked: CheckedPolygon): string;
  multiPolygon(checked: CheckedPolygon): string;
}
type CheckedPolygon = { polygons: Position[][][]; geojson: string };
const GEOJSON_FORM: GeometryForm = {
  point: pointGeoJson,
  polygon: (checked) => checked.geojson,
  multiPolygon: (checked) => checked.geojson,
};
/** Rings as flat [lon, lat, …] corners, the closing corner left out (the EWKB writer closes rings). */
const flatRings = (rings: Position[][]) => rings.map((ring) => ring.slice(0, -1).flat());
const EWKB_FORM: GeometryForm = {
  point: pointHex,
  polygon: ({ polygons }) => polygonHex(flatRings(polygons[0])),
  multiPolygon: ({ polygons }) => multiPolygonHex(polygons.map(flatRings)),
};

interface OsmElement {
  type: 'node' | 'way' | 'relation';
  id: number;
  lat?: number;
  lon?: number;
  refs?: number[];
  tags?: Tags;
}

interface PendingAddress {
  sourceId: string;
  streetKey: string;
  address: OsmAddress;
  point: string;
  where: string;
}

/**
 * Loads an OpenStreetMap extract (.osm.pbf), streamed: addresses (addr:* on nodes, and on closed ways —
 * buildings — at their centroid), the streets they name (grouped by addr:street within addr:suburb and
 * addr:city), named POIs (amenity, shop, tourism, leisure, office, healthcare; nodes and closed ways),
 * places (place=city/town/village → town, suburb/neighbourhood → suburb), farms (named place=farm or
 * landuse=farmland/farmyard areas) and buildings (closed building=* ways, with levels, height and their
 * dates: start_date → built_on, end_date → demolished_on; a demolished:/removed:/was:building way with an
 * end_date is a building that stood until then).
 * Rows are kept under the element's id ("node/123", "way/456"): loading a newer extract of the same area
 * under the same source updates them. Relations (multipolygons) are not read.
 */
export async function importOsm(
  db: Queryable,
  file: string,
  options: OsmImportOptions = {},
): Promise<ImportSummary> {
  const size = await inputSize(file);
  if (size === 0) throw new ImportInputError(`${file} is empty: not an OSM PBF file.`);
  const bulk = options.bulk === true;
  if (bulk && !canCopy(db))
    throw new ImportInputError('A bulk OSM import needs a node-postgres Client of its own (it uses COPY).');
  const client = bulk && canCopy(db) ? db : undefined;
  const rowsOf = bulk ? answeringRows(db) : db;
  await assertGeoSchema(rowsOf);
  const showSteps = resolveProgressMode(options.progress ?? 'none') !== 'none';
  const step = (text: string) => {
    if (showSteps) process.stderr.write(`osm ${basename(file)}: ${text}\n`);
  };
  if (client) {
    // Temporary tables live in the session's own buffers: room for the staged batches.
    await rowsOf.query(`SET temp_buffers = '256MB'`);
    await restoreUnfinishedBulkImports(client, rowsOf, step);
  }
  const run = await ImportRun.start(rowsOf, 'osm', options.source ?? 'osm', file);
  const batchSize = options.batchSize ?? 5000;
  const form = bulk ? EWKB_FORM : GEOJSON_FORM;
  const writer = (
    table: string,
    columns: readonly UpsertColumn[],
    polygon?: number,
    shape?: 'polygon' | 'multipolygon',
  ) => {
    const polygonColumn =
      polygon === undefined ? undefined : { index: polygon, shape: shape ?? ('multipolygon' as const) };
    if (!client)
      return new TableWriter(db, run, table, columns, { batchSize, rejectRepeatedIds: false, polygonColumn });
    const staged = stagedColumns(columns);
    // An address names its street by the street's source id; the final statement finds the street's id.
    if (table === 'geo.addresses')
      staged.forEach((column, i) => {
        if (column.name === 'street_id') staged[i] = { ...column, type: 'text', refersTo: 'geo.streets' };
      });
    return new StagedTableWriter(client, rowsOf, run, table, staged, { polygonColumn });
  };
  const streets = writer('geo.streets', [
    { name: 'name', type: 'text' },
    { name: 'suburb', type: 'text' },
    { name: 'town', type: 'text' },
    { name: 'search_text', type: 'text' },
  ]);
  const addresses = writer('geo.addresses', [
    { name: 'house_number', type: 'text' },
    { name: 'number_value', type: 'int4' },
    { name: 'street_id', type: 'int8' },
    { name: 'street_name', type: 'text' },
    { name: 'unit', type: 'text' },
    { name: 'suburb', type: 'text' },
    { name: 'town', type: 'text' },
    { name: 'postal_code', type: 'text' },
    { name: 'point', type: 'text', expression: GEOMETRY.point },
  ]);
  const pois = writer('geo.pois', [...POI_COLUMNS]);
  const places = writer('geo.places', [
    { name: 'kind', type: 'text' },
    { name: 'name', type: 'text' },
    { name: 'population', type: 'int4' },
    { name: 'importance', type: 'float4' },
    { name: 'point', type: 'text', expression: GEOMETRY.point },
  ]);
  const farms = writer('geo.farms', [...FARM_COLUMNS], 6);
  const buildings = writer(
    'geo.buildings',
    [
      { name: 'kind', type: 'text' },
      { name: 'levels', type: 'int4' },
      { name: 'height_m', type: 'float4' },
      { name: 'roof', type: 'text' },
      { name: 'built_on', type: 'date' },
      { name: 'demolished_on', type: 'date' },
      { name: 'geom', type: 'text', expression: GEOMETRY.polygon },
    ],
    6,
    'polygon',
  );
  const coordinates = new NodeCoordinates();
  /** Street ids by grouping key, for the streets already written. */
  const streetIds = new Map<string, string>();
  let pendingAddresses: PendingAddress[] = [];
  let relations = 0;

  const progress = createProgress({ mode: options.progress, label: `osm ${basename(file)}`, total: size });
  const counts = () => ({ read: run.summary.read, loaded: run.loadedCount, rejected: run.rejectedCount });

  /** Writes the pending addresses, their new streets first (addresses refer to them). */
  async function flushAddresses(): Promise<void> {
    const batch = pendingAddresses;
    pendingAddresses = [];
    if (!batch.length) return;
    const queued = new Set<string>();
    for (const { streetKey, address } of batch) {
      if (streetIds.has(streetKey) || queued.has(streetKey)) continue;
      queued.add(streetKey);
      streets.add(
        streetKey,
        [
          address.street,
          address.suburb,
          address.town,
          streetSearchText(address.street, address.suburb, address.town),
        ],
        streetKey,
      );
    }
    if (streets instanceof TableWriter) for (const [key, id] of await streets.flush()) streetIds.set(key, id);
    else {
      // Staged: an address names its street by the street's key, and the final statement finds its id.
      for (const key of queued) streetIds.set(key, key);
      if (streets.full) await streets.flush();
    }
    for (const { sourceId, streetKey, address, point, where } of batch) {
      addresses.add(
        sourceId,
        [
          address.houseNumber,
          address.numberValue,
          streetIds.get(streetKey) ?? null,
          address.street,
          address.unit,
          address.suburb,
          address.town,
          address.postalCode,
          point,
        ],
        where,
      );
    }
    if (addresses instanceof TableWriter || addresses.full) await addresses.flush();
  }

  function addAddress(sourceId: string, tags: Tags, lon: number, lat: number, where: string): void {
    const address = readAddress(tags);
    if (typeof address === 'string') return run.reject(address, where);
    if (address.badPostcode) run.warn('addr:postcode is not a South African postal code, left empty');
    const streetKey = `street/${foldText(address.street)}|${foldText(address.suburb)}|${foldText(address.town)}`;
    pendingAddresses.push({ sourceId, streetKey, address, point: form.point(lon, lat), where });
  }

  function addPoi(sourceId: string, tags: Tags, point: string): void {
    const poi = readPoi(tags);
    if (!poi) return;
    pois.add(
      sourceId,
      [
        poi.name,
        10000,
        poi.category,
        (tags['addr:suburb'] ?? '').trim(),
        (tags['addr:city'] ?? tags['addr:town'] ?? '').trim(),
        poi.importance,
        point,
      ],
      sourceId,
    );
  }

  function node(element: OsmElement): void {
    const tags = element.tags!;
    const sourceId = `node/${element.id}`;
    const checked = checkLonLat(element.lon, element.lat);
    const interesting = hasAddress(tags) || readPoi(tags) || placeKindOf(tags) || tags.place === 'farm';
    if (!interesting) return;
    if (!checked.ok) return run.reject(checked.reason, sourceId);
    const point = form.point(checked.lon, checked.lat);
    if (hasAddress(tags)) addAddress(sourceId, tags, checked.lon, checked.lat, sourceId);
    addPoi(sourceId, tags, point);
    const kind = placeKindOf(tags);
    if (kind) {
      const name = tags.name?.trim();
      if (!name) run.reject('place without a name', sourceId);
      else {
        const population = readPopulation(tags);
        places.add(sourceId, [kind, name, population, placeImportance(kind, population), point], sourceId);
      }
    }
    if (tags.place === 'farm' && tags.name)
      run.reject('farm mapped as a point (geo.farms needs its area)', sourceId);
  }

  function way(element: OsmElement): void {
    const tags = element.tags!;
    const building = readBuilding(tags);
    const farm = isFarm(tags) && Boolean(tags.name?.trim());
    const poi = readPoi(tags);
    const address = hasAddress(tags);
    if (!building && !farm && !poi && !address) return;
    const sourceId = `way/${element.id}`;
    const refs = element.refs ?? [];
    const ring: [number, number][] = [];
    for (const ref of refs) {
      const position = coordinates.get(ref);
      if (!position)
        return run.reject('no coordinates (the way refers to nodes missing from the extract)', sourceId);
      ring.push(position);
    }
    if (refs.length < 4 || refs[0] !== refs[refs.length - 1]) return run.reject('unclosed way', sourceId);
    const polygon = checkPolygonal({ type: 'Polygon', coordinates: [ring] });
    if (!polygon.ok) return run.reject(polygon.reason, sourceId);
    const [lon, lat] = centroid(ring);
    if (address) addAddress(sourceId, tags, lon, lat, sourceId);
    if (poi) addPoi(sourceId, tags, form.polygon(polygon));
    if (building) {
      if (building.dateWarning) run.warn(building.dateWarning);
      buildings.add(
        sourceId,
        [
          building.kind,
          building.levels,
          building.heightM,
          building.roof,
          building.builtOn,
          building.demolishedOn,
          form.polygon(polygon),
        ],
        sourceId,
      );
    }
    if (farm) {
      const split = splitFarmName(tags.name!);
      const ref = /^\d{1,5}$/.test(tags.ref ?? '') ? Number(tags.ref) : undefined;
      farms.add(
        sourceId,
        [
          ref ? tags.name!.trim() : split.name,
          ref ?? split.farmNumber ?? null,
          0,
          split.division ?? '',
          '',
          '',
          form.multiPolygon(polygon),
        ],
        sourceId,
      );
    }
  }

  const input = createReadStream(file);
  const parser = new OSMTransform({ withTags: { node: WANTED_TAGS, way: WANTED_TAGS, relation: false } });
  pipeline(input, parser, () => undefined);
  try {
    for await (const batch of parser as AsyncIterable<object[]>) {
      for (const item of batch as OsmElement[]) {
        if (item.type === 'node') {
          run.countRead();
          coordinates.add(item.id, item.lat!, item.lon!);
          if (item.tags) node(item);
        } else if (item.type === 'way') {
          run.countRead();
          if (item.tags) way(item);
        } else if (item.type === 'relation') {
          run.countRead();
          relations++;
        }
      }
      if (pendingAddresses.length >= batchSize) await flushAddresses();
      for (const table of [pois, places, farms, buildings]) if (table.full) await table.flush();
      progress.update(input.bytesRead, counts());
    }
    await flushAddresses();
    for (const table of [pois, places, farms, buildings]) await table.flush();
    if (relations) run.warn('relations not imported (multipolygon buildings, farms, boundaries)', relations);
    const staged = [streets, addresses, pois, places, farms, buildings].filter(
      (table) => table instanceof StagedTableWriter,
    );
    if (client) {
      await writeStaged(client, rowsOf, run, staged, step);
      // Statistics before linking: the planner knows nothing yet of the millions of rows just written.
      step('analyzing the tables written');
      for (const table of staged) await rowsOf.query(`ANALYZE ${table.table}`);
    }
    if (options.link !== false) {
      const source = run.summary.source;
      step('linking places, streets, POIs and parcels');
      await linkPlaceParentsByPosition(rowsOf, source);
      await linkStreetsToPlaces(rowsOf, source);
      await linkPoisToAddresses(rowsOf, source);
      await linkToParcels(rowsOf, source);
    }
  } catch (err) {
    input.destroy();
    // osm-pbf-parser-node's own errors for a file that is not a PBF ("input format error", "sequence
    // error", "not implemented" for unsupported blob compressions) become one message naming the file.
    const message = /format error|sequence error|not implemented/.test((err as Error).message)
      ? `${file} is not a readable OSM PBF file (${(err as Error).message})`
      : (err as Error).message;
    run.warn(`import stopped: ${message}`);
    await run.finish().catch(() => undefined);
    if (client) await dropStages(rowsOf);
    progress.stop(counts());
    throw new Error(message, { cause: err });
  }
  progress.stop(counts());
  return run.finish();
}

/** The area centroid of a closed ring (its vertex average when the ring has no area). */
export function centroid(ring: readonly [number, number][]): [number, number] {
  let area = 0;
  let x = 0;
  let y = 0;
  const [ox, oy] = ring[0];
  for (let i = 0; i < ring.length - 1; i++) {
    const x0 = ring[i][0] - ox;
    const y0 = ring[i][1] - oy;
    const x1 = ring[i + 1][0] - ox;
    const y1 = ring[i + 1][1] - oy;
    const cross = x0 * y1 - x1 * y0;
    area += cross;
    x += (x0 + x1) * cross;
    y += (y0 + y1) * cross;
  }
  if (Math.abs(area) < 1e-18) {
    const n = ring.length - 1;
    return [
      ring.slice(0, n).reduce((s, p) => s + p[0], 0) / n,
      ring.slice(0, n).reduce((s, p) => s + p[1], 0) / n,
    ];
  }
  return [ox + x / (3 * area), oy + y / (3 * area)];
}

/** The session's staging tables of a bulk import that stopped (the client may be used again). */
async function dropStages(db: Queryable): Promise<void> {
  await db.query('ROLLBACK').catch(() => undefined);
  const stages: { name: string }[] = await db
    .query(
      `SELECT c.relname AS name FROM pg_class c
        WHERE c.relnamespace = pg_my_temp_schema() AND c.relname LIKE 'import_stage_%' AND c.relkind = 'r'`,
    )
    .catch(() => []);
  for (const { name } of stages) await db.query(`DROP TABLE pg_temp.${name}`).catch(() => undefined);
}
