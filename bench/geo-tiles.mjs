// GET /api/v1.0/tiles/parcels/14/{x}/{y}.mvt over the generated towns: p50/p95 latency of z14 parcel
// tiles through the locator's HTTP service (started in this process on a free port, with a session
// cookie, one request at a time over a kept-alive connection, whole answer read), on the geodata bench
// database (bench/lib/geo-dataset.mjs: ≥ 1 000 000 generated addresses). The tiles are every z14 tile
// holding parcels, ranked by how many parcels they hold and sampled evenly along that ranking (the
// densest always included), so the figure covers city centres, suburbs and small towns alike.
// The locator has no tile cache: every request runs ST_AsMVT. The first pass (each tile once, cold
// database pages) is reported apart from the measured passes.
// Also, for information: roads at z13 and addresses at z16 over the same areas.
// Usage: node bench/geo-tiles.mjs [--scale 1000000] [--tiles 300] [--samples 5]
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { ensureGeoBenchDatabase } from './lib/geo-dataset.mjs';
import { benchSessionCookie, buildProject, startService } from './lib/services.mjs';
import { percentile, round } from './stats.mjs';
import { option } from './lib/cli.mjs';

export const TARGET_P95_MS = 40;
export const TILE_ZOOM = 14;

/**
 * Every z14 tile holding parcels (by parcel centroid) with its parcel count, densest first; `count`
 * tiles picked evenly along that ranking, the 10 densest always among them.
 */
async function pickTiles(ds, count) {
  const tiles = 2 ** TILE_ZOOM;
  const { rows } = await ds.query(
    `WITH c AS (SELECT ST_X(ST_PointOnSurface(geom)) AS lng, ST_Y(ST_PointOnSurface(geom)) AS lat FROM geo.parcels)
     SELECT floor((lng + 180) / 360 * $1)::int AS x,
            floor((1 - ln(tan(radians(lat)) + 1 / cos(radians(lat))) / pi()) / 2 * $1)::int AS y,
            count(*)::int AS parcels
     FROM c GROUP BY 1, 2 ORDER BY parcels DESC, x, y`,
    [tiles],
  );
  if (rows.length <= count) return { all: rows.length, picked: rows };
  const picked = rows.slice(0, 10);
  const stride = (rows.length - 10) / (count - 10);
  for (let i = 0; i < count - 10; i++) picked.push(rows[10 + Math.floor(i * stride)]);
  return { all: rows.length, picked };
}

async function timed(url, cookie) {
  const started = performance.now();
  const res = await fetch(url, { headers: { cookie } });
  const body = Buffer.from(await res.arrayBuffer());
  const ms = performance.now() - started;
  if (res.status !== 200 && res.status !== 204) throw new Error(`${url}: ${res.status} ${body.toString()}`);
  return { ms, bytes: body.length };
}

function shuffled(items, seed = 1) {
  const copy = [...items];
  let state = seed;
  for (let i = copy.length - 1; i > 0; i--) {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    const j = state % (i + 1);
    [copy[i], copy[j]] = [copy[j], copy[i]];
  }
  return copy;
}

const summary = (times) => ({
  p50Ms: round(percentile(times, 50)),
  p95Ms: round(percentile(times, 95)),
  p99Ms: round(percentile(times, 99)),
  maxMs: round(Math.max(...times)),
});

export async function measureGeoTiles({ scale = 1_000_000, tiles: tileCount = 300, samples = 5 } = {}) {
  const databaseUrl = await ensureGeoBenchDatabase({ scale });
  await buildProject('@portal/locator');
  const locator = await startService('locator', 'loadLocatorConfig', databaseUrl);
  const { base } = locator;
  // The bench's own queries (which tiles to ask for) scan every parcel: not on the service's pool, whose
  // statements time out after 10 s.
  const ds = new pg.Client({ connectionString: databaseUrl });
  await ds.connect();
  try {
    const cookie = benchSessionCookie({ sub: randomUUID(), email: 'bench@portal.test', name: 'Bench' });

    const {
      rows: [{ addresses, parcels }],
    } = await ds.query(
      `SELECT (SELECT count(*) FROM geo.addresses)::int AS addresses, (SELECT count(*) FROM geo.parcels)::int AS parcels`,
    );
    const { all, picked } = await pickTiles(ds, tileCount);
    const urlOf = (layer, z, x, y) => `${base}/api/v1.0/tiles/${layer}/${z}/${x}/${y}.mvt`;

    // Pass 1: each tile once, pages coming from disk as much as the OS cache allows.
    const firstPass = [];
    const bytes = [];
    for (const tile of picked) {
      const result = await timed(urlOf('parcels', TILE_ZOOM, tile.x, tile.y), cookie);
      firstPass.push(result.ms);
      bytes.push(result.bytes);
    }
    const measured = [];
    const perTile = new Map(picked.map((tile) => [`${tile.x}/${tile.y}`, []]));
    for (let sample = 0; sample < samples; sample++) {
      for (const tile of shuffled(picked, sample + 1)) {
        const { ms } = await timed(urlOf('parcels', TILE_ZOOM, tile.x, tile.y), cookie);
        measured.push(ms);
        perTile.get(`${tile.x}/${tile.y}`).push(ms);
      }
    }
    const slowest = picked
      .map((tile) => ({
        tile: `${TILE_ZOOM}/${tile.x}/${tile.y}`,
        parcels: tile.parcels,
        p50Ms: round(percentile(perTile.get(`${tile.x}/${tile.y}`), 50)),
      }))
      .sort((a, b) => b.p50Ms - a.p50Ms)
      .slice(0, 5);

    // For information: the street map's other heavy layers over the same areas.
    const other = {};
    for (const [layer, z] of [
      ['roads', 13],
      ['addresses', 16],
    ]) {
      const times = [];
      const shift = z - TILE_ZOOM;
      for (const tile of picked.slice(0, 100)) {
        const x = Math.floor(tile.x * 2 ** shift);
        const y = Math.floor(tile.y * 2 ** shift);
        await timed(urlOf(layer, z, x, y), cookie);
        for (let sample = 0; sample < 3; sample++)
          times.push((await timed(urlOf(layer, z, x, y), cookie)).ms);
      }
      other[`${layer} z${z}`] = summary(times);
    }

    const overall = summary(measured);
    return {
      dataset: { scale, addresses, parcels, z14TilesWithParcels: all },
      tiles: picked.length,
      samplesPerTile: samples,
      parcelsPerTile: {
        median: percentile(
          picked.map((tile) => tile.parcels),
          50,
        ),
        max: picked[0].parcels,
      },
      tileBytes: { median: percentile(bytes, 50), max: Math.max(...bytes) },
      firstPass: summary(firstPass),
      parcelsZ14: overall,
      slowestTiles: slowest,
      otherLayers: other,
      target: `p95 ≤ ${TARGET_P95_MS} ms`,
      pass: overall.p95Ms <= TARGET_P95_MS,
    };
  } finally {
    await ds.end();
    await locator.stop();
  }
}

/** Writes the figures to bench/results/geo-tiles.json and returns them. */
export function writeGeoTilesResults(result) {
  writeFileSync(new URL('./results/geo-tiles.json', import.meta.url), JSON.stringify(result, null, 2) + '\n');
  return result;
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const result = await measureGeoTiles({
    scale: Number(option('scale', '1000000')),
    tiles: Number(option('tiles', '300')),
    samples: Number(option('samples', '5')),
  });
  console.log(JSON.stringify(writeGeoTilesResults(result), null, 2));
}
