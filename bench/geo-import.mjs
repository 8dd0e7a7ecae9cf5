// Import throughput of libs/geo's importers, into a throwaway database: a synthetic OpenStreetMap extract
// (address nodes along street grids around South African towns, plus building footprints) written with the
// importers' own PBF writer, and a GeoJSON FeatureCollection of square parcels. Reports rows per second
// (everything the import does: parsing, checks, ST_IsValid, batched upserts, linking).
// Needs the build of libs/geo and libs/db (`npm start` or `npx nx run @portal/geo:build` leaves it).
// Usage: node bench/geo-import.mjs [--addresses 200000] [--parcels 100000]
import { createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../scripts/lib/system.mjs';
import { round } from './stats.mjs';
import { option } from './lib/cli.mjs';

const require = createRequire(import.meta.url);
const db = require(join(ROOT, 'libs/db/dist/index.js'));
const geo = require(join(ROOT, 'libs/geo/dist/index.js'));

const TOWNS = [
  ['Stellenbosch', 18.86, -33.935],
  ['Pretoria', 28.19, -25.745],
  ['Durban', 31.02, -29.86],
  ['Bloemfontein', 26.21, -29.12],
  ['Polokwane', 29.45, -23.9],
  ['George', 22.46, -33.96],
  ['Gqeberha', 25.6, -33.96],
  ['Kimberley', 24.76, -28.74],
];
const STREETS = [
  'Church',
  'Dorp',
  'Main',
  'Voortrekker',
  'Jan Smuts',
  'Nelson Mandela',
  'Oak',
  'Protea',
  'Long',
  'Station',
];
const TYPES = ['Street', 'Road', 'Avenue', 'Drive', 'Lane'];
const HOUSES_PER_STREET = 60;
/** About 12 m between houses, 150 m between streets. */
const HOUSE_STEP = 0.00012;
const STREET_STEP = 0.0015;

/** The synthetic extract: address nodes, then one building way (4 nodes) for every tenth address. */
async function writeExtract(file, addresses) {
  const writer = new geo.OsmPbfWriter(file);
  const buildings = [];
  let nodeId = 1;
  for (let i = 0; i < addresses; i++) {
    const street = Math.floor(i / HOUSES_PER_STREET);
    const [town, lon0, lat0] = TOWNS[street % TOWNS.length];
    const row = Math.floor(street / TOWNS.length);
    const lon = lon0 + (i % HOUSES_PER_STREET) * HOUSE_STEP;
    const lat = lat0 + (row % 200) * STREET_STEP * 0.1 + Math.floor(row / 200) * STREET_STEP;
    const name = `${STREETS[row % STREETS.length]} ${TYPES[Math.floor(row / STREETS.length) % TYPES.length]}`;
    await writer.node({
      id: nodeId++,
      lon,
      lat,
      tags: {
        'addr:housenumber': String((i % HOUSES_PER_STREET) + 1),
        'addr:street': name,
        'addr:suburb': `${town} Ext ${Math.floor(row / 50) + 1}`,
        'addr:city': town,
        'addr:postcode': '7600',
      },
    });
    if (i % 10 === 0) buildings.push([lon + 0.00002, lat + 0.00002]);
  }
  const ways = [];
  for (const [lon, lat] of buildings) {
    const first = nodeId;
    for (const [dx, dy] of [
      [0, 0],
      [0.00008, 0],
      [0.00008, 0.00006],
      [0, 0.00006],
    ]) {
      await writer.node({ id: nodeId++, lon: lon + dx, lat: lat + dy });
    }
    ways.push([first, first + 1, first + 2, first + 3, first]);
  }
  let wayId = 1;
  for (const refs of ways)
    await writer.way({ id: wayId++, refs, tags: { building: 'house', 'building:levels': '1' } });
  await writer.close();
  return { nodes: nodeId - 1, ways: ways.length };
}

/** A FeatureCollection of square erven, written as a stream. */
async function writeParcels(file, count) {
  const out = createWriteStream(file);
  const write = async (text) => {
    if (!out.write(text)) await once(out, 'drain');
  };
  await write('{"type":"FeatureCollection","features":[\n');
  const size = 0.0002;
  for (let i = 0; i < count; i++) {
    const [town, lon0, lat0] = TOWNS[i % TOWNS.length];
    const k = Math.floor(i / TOWNS.length);
    const lon = lon0 + (k % 400) * size;
    const lat = lat0 - 0.2 - Math.floor(k / 400) * size;
    const ring = [
      [lon, lat],
      [lon + size, lat],
      [lon + size, lat + size],
      [lon, lat + size],
      [lon, lat],
    ].map(([x, y]) => [round(x, 7), round(y, 7)]);
    const feature = {
      type: 'Feature',
      properties: { PRCL_NO: String(k + 1), PORTION: 0, TOWN: town, PARCEL_ID: `P${i}` },
      geometry: { type: 'Polygon', coordinates: [ring] },
    };
    await write(`${i ? ',\n' : ''}${JSON.stringify(feature)}`);
  }
  await write('\n]}\n');
  out.end();
  await once(out, 'finish');
}

const megabytes = (file) => round(statSync(file).size / 1e6, 2);
const sum = (counts) => Object.values(counts).reduce((a, b) => a + b, 0);

export async function measureGeoImport({ addresses = 200_000, parcels = 100_000, progress = 'none' } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'bench-geo-import-'));
  const database = await db.createTestDatabase();
  try {
    const pbf = join(dir, 'synthetic.osm.pbf');
    const extract = await writeExtract(pbf, addresses);
    let started = performance.now();
    const osm = await geo.importOsm(database.dataSource, pbf, { progress });
    const osmSeconds = (performance.now() - started) / 1000;

    const geojson = join(dir, 'parcels.geojson');
    await writeParcels(geojson, parcels);
    started = performance.now();
    const parcelRun = await geo.importParcels(database.dataSource, geojson, { progress });
    const parcelSeconds = (performance.now() - started) / 1000;
    // The same file again: every row meets its earlier self (updates instead of inserts).
    started = performance.now();
    const again = await geo.importParcels(database.dataSource, geojson, { progress, link: false });
    const againSeconds = (performance.now() - started) / 1000;

    return {
      osm: {
        fileMB: megabytes(pbf),
        elements: extract.nodes + extract.ways,
        loaded: osm.loaded,
        rejected: sum(osm.rejected),
        seconds: round(osmSeconds),
        rowsPerSecond: Math.round(sum(osm.loaded) / osmSeconds),
        elementsPerSecond: Math.round((extract.nodes + extract.ways) / osmSeconds),
      },
      parcels: {
        fileMB: megabytes(geojson),
        loaded: parcelRun.loaded.parcels,
        rejected: sum(parcelRun.rejected),
        seconds: round(parcelSeconds),
        rowsPerSecond: Math.round(parcelRun.loaded.parcels / parcelSeconds),
        reimportRowsPerSecond: Math.round(again.loaded.parcels / againSeconds),
      },
      note: 'throwaway database; OSM rows = addresses + streets + buildings; includes checks, ST_IsValid, upserts and linking',
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await database.drop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await measureGeoImport({
    addresses: Number(option('addresses', '200000')),
    parcels: Number(option('parcels', '100000')),
    progress: option('progress', 'auto'),
  });
  console.log(JSON.stringify(result, null, 2));
  writeFileSync(
    new URL('./results/geo-import.json', import.meta.url),
    JSON.stringify(result, null, 2) + '\n',
  );
}
