/**
 * The generator's world as an OpenStreetMap extract (.osm.pbf), so importers can be compared on the same
 * data (bench/geo-import.mjs: the portal's importer against osm2pgsql). What is written, per suburb as the
 * generator lays it out (generated-world.ts), streamed through OsmPbfWriter with flat memory:
 *
 * - a place node per town (place=city from 100 000 people, else town; name, population) and per suburb
 *   (place=suburb, name) at the generator's point;
 * - an address node per address row: addr:housenumber, addr:street, addr:suburb, addr:city, addr:postcode,
 *   addr:unit where there is one;
 * - a way per street line (highway=residential, name) over untagged nodes; a street row of the generator
 *   (one per name per suburb) is a MultiLineString of several lines;
 * - a closed way per standing building (building=<the generator's kind>, building:levels, height,
 *   roof:shape, start_date when it was built during the surveys) over untagged corner nodes; pools are
 *   leisure=swimming_pool ways, as OSM maps them; demolished buildings are left out (a current extract
 *   has none).
 *
 * Parcels, farms, POIs and imagery surveys have no counterpart here. Ids ascend per type from 1 (nodes,
 * then ways after all nodes, as osm2pgsql wants them).
 */
import { statSync } from 'node:fs';
import { COLUMNS } from '../generator/batch';
import { type Ewkb } from '../generator/ewkb';
import { readEwkb } from './ewkb-read';
import { type GeneratedWorldOptions, generatedTowns, generatedWorld } from './generated-world';
import { OsmPbfWriter } from './pbf-writer';

export interface OsmExportCounts {
  /** Place nodes: towns and suburbs. */
  towns: number;
  suburbs: number;
  addresses: number;
  /** Street rows of the generator, and the ways (lines) they became. */
  streets: number;
  streetWays: number;
  buildings: number;
  pools: number;
  /** Buildings of the generator left out because they are demolished. */
  demolished: number;
  /** All nodes and ways of the file, and its PrimitiveBlocks. */
  nodes: number;
  ways: number;
  blocks: number;
}

export interface OsmExportProgress {
  addresses: number;
  target: number;
  towns: number;
  townCount: number;
  nodes: number;
  ways: number;
}

export interface OsmExportOptions extends GeneratedWorldOptions {
  /** The .osm.pbf to write (replaced). */
  file: string;
  /** Elements per PrimitiveBlock (default 8 000). */
  blockSize?: number;
  /** Called after every suburb. */
  onProgress?: (progress: OsmExportProgress) => void;
}

export interface OsmExportResult {
  file: string;
  bytes: number;
  elapsedMs: number;
  towns: string[];
  counts: OsmExportCounts;
}

/** Column positions by name in the generator's rows, so a new column there does not shift ours. */
function columnsOf<T extends readonly { name: string }[]>(columns: T): Record<string, number> {
  return Object.fromEntries(columns.map((column, i) => [column.name, i]));
}
const PLACE = columnsOf(COLUMNS.places);
const STREET = columnsOf(COLUMNS.streets);
const ADDRESS = columnsOf(COLUMNS.addresses);
const BUILDING = columnsOf(COLUMNS.buildings);

/** A town of at least this many people is place=city (OSM's usual threshold), a smaller one place=town. */
const CITY_POPULATION = 100_000;

const text = (value: unknown): string | undefined =>
  value === null || value === undefined || value === '' ? undefined : String(value);

/** Tags without the empty ones. */
function tagsOf(entries: [string, unknown][]): Record<string, string> {
  const tags: Record<string, string> = {};
  for (const [key, value] of entries) {
    const t = text(value);
    if (t !== undefined) tags[key] = t;
  }
  return tags;
}

export async function exportGeneratedOsm(options: OsmExportOptions): Promise<OsmExportResult> {
  const started = performance.now();
  const plans = generatedTowns(options);
  const writer = new OsmPbfWriter(options.file, {
    blockSize: options.blockSize,
    sorted: true,
    program: 'portal-geo osm-export',
  });
  const counts: OsmExportCounts = {
    towns: 0,
    suburbs: 0,
    addresses: 0,
    streets: 0,
    streetWays: 0,
    buildings: 0,
    pools: 0,
    demolished: 0,
    nodes: 0,
    ways: 0,
    blocks: 0,
  };
  let nodeId = 0;
  let wayId = 0;
  let townIndex = -1;

  const node = (lon: number, lat: number, tags?: Record<string, string>) =>
    writer.node({ id: ++nodeId, lon, lat, tags });

  /** Untagged nodes along a line or ring (a closed ring's last corner is its first node again). */
  async function lineNodes(flat: Float64Array, closed: boolean): Promise<number[]> {
    const pairs = flat.length / 2 - (closed ? 1 : 0);
    const refs: number[] = [];
    for (let i = 0; i < pairs; i++) {
      await node(flat[2 * i], flat[2 * i + 1]);
      refs.push(nodeId);
    }
    if (closed) refs.push(refs[0]);
    return refs;
  }

  try {
    for (const { plan, townIndex: index, batch } of generatedWorld(options)) {
      if (index !== townIndex) {
        townIndex = index;
        const { town } = plan;
        await node(town.lon, town.lat, {
          place: town.population >= CITY_POPULATION ? 'city' : 'town',
          name: town.name,
          population: String(town.population),
        });
        counts.towns++;
      }
      for (const row of batch.suburbs) {
        const [point] = readEwkb((row[PLACE.point] as Ewkb).bytes).parts;
        await node(point[0], point[1], { place: 'suburb', name: row[PLACE.name] as string });
        counts.suburbs++;
      }
      for (const row of batch.streets) {
        const lines = readEwkb((row[STREET.geom] as Ewkb).bytes).parts;
        for (const line of lines) {
          const refs = await lineNodes(line, false);
          await writer.way({
            id: ++wayId,
            refs,
            tags: { highway: 'residential', name: row[STREET.name] as string },
          });
          counts.streetWays++;
        }
        counts.streets++;
      }
      for (const row of batch.addresses) {
        const [point] = readEwkb((row[ADDRESS.point] as Ewkb).bytes).parts;
        await node(
          point[0],
          point[1],
          tagsOf([
            ['addr:housenumber', row[ADDRESS.house_number]],
            ['addr:street', row[ADDRESS.street_name]],
            ['addr:unit', row[ADDRESS.unit]],
            ['addr:suburb', row[ADDRESS.suburb]],
            ['addr:city', row[ADDRESS.town]],
            ['addr:postcode', row[ADDRESS.postal_code]],
          ]),
        );
        counts.addresses++;
      }
      for (const row of batch.buildings) {
        if (row[BUILDING.demolished_on]) {
          counts.demolished++;
          continue;
        }
        const [outer] = readEwkb((row[BUILDING.geom] as Ewkb).bytes).parts;
        const refs = await lineNodes(outer, true);
        const kind = row[BUILDING.kind] as string;
        const tags =
          kind === 'pool'
            ? { leisure: 'swimming_pool' }
            : tagsOf([
                ['building', kind],
                ['building:levels', row[BUILDING.levels]],
                ['height', row[BUILDING.height_m]],
                ['roof:shape', row[BUILDING.roof]],
                ['start_date', row[BUILDING.built_on]],
              ]);
        await writer.way({ id: ++wayId, refs, tags });
        if (kind === 'pool') counts.pools++;
        else counts.buildings++;
      }
      options.onProgress?.({
        addresses: counts.addresses,
        target: Math.floor(options.scale),
        towns: townIndex + 1,
        townCount: plans.length,
        nodes: nodeId,
        ways: wayId,
      });
    }
    const written = await writer.close();
    counts.nodes = written.nodes;
    counts.ways = written.ways;
    counts.blocks = written.blocks;
  } catch (err) {
    writer.abort();
    throw err;
  }
  return {
    file: options.file,
    bytes: statSync(options.file).size,
    elapsedMs: performance.now() - started,
    towns: plans.map((plan) => plan.town.name),
    counts,
  };
}
