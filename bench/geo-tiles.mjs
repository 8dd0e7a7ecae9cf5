// GET /api/v1.0/tiles/parcels/14/{x}/{y}.mvt over the generated towns: p50/p95 latency of z14 parcel
// tiles through the locator's HTTP service (started in this process on a free port, with a session
// cookie, one request at a time over a kept-alive connection, whole answer read), on the geodata bench
// database (bench/lib/geo-dataset.mjs: ≥ 1 000 000 generated addresses). The tiles are every z14 tile
// holding parcels, ranked by how many parcels they hold and sampled evenly along that ranking (the
// densest always included), so the figure covers city centres, suburbs and small towns alike.
// The locator has no tile cache: every request runs ST_AsMVT. The first pass (each tile once, cold
// database pages) is reported apart from the measured passes.
// Also, for information: roads at z13 and addresses at z16 over the same areas.
// Side by side (issue 23): the same tiles from one straight ST_AsMVT query (STRAIGHT_MVT_SQL) run on one
// connection, p50/p95 and bytes, and the ratio baseline ÷ portal; it prints the plan (--no-explain not) of the
// baseline's slowest tile, --skip-baseline leaves it out.
// Usage: node bench/geo-tiles.mjs [--scale 1000000] [--tiles 300] [--samples 5] [--no-explain] [--skip-baseline]
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { ensureGeoBenchDatabase, scaleSuffix } from './lib/geo-dataset.mjs';
import { benchSessionCookie, buildProject, startService } from './lib/services.mjs';
import { percentile, round } from './stats.mjs';
import { flag, option } from './lib/cli.mjs';

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

/** The plain approach (issue 23): one straight ST_AsMVT over geo.parcels, its index read through the tile's box in 4326. */
export const STRAIGHT_MVT_SQL = `SELECT ST_AsMVT(q, 'parcels') AS tile FROM (
    SELECT id, parcel_number, portion, ST_AsMVTGeom(ST_Transform(geom, 3857), ST_TileEnvelope($1, $2, $3)) AS geom
    FROM geo.parcels WHERE geom && ST_Transform(ST_TileEnvelope($1, $2, $3), 4326)) q`;

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

export async function measureGeoTiles({
  scale = 1_000_000,
  tiles: tileCount = 300,
  samples = 5,
  withBaseline = true,
  // The plan of the slowest case, printed by default (issue 23: where a plan changes with scale).
  explain = true,
} = {}) {
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

    // Side by side (issue 23): one straight ST_AsMVT query over the same table, on the same tiles in the
    // same orders, run on one connection from this process (no HTTP: that favours the baseline).
    let baseline = null;
    if (withBaseline) {
      const straight = async (tile) => {
        const started = performance.now();
        const { rows } = await ds.query(STRAIGHT_MVT_SQL, [TILE_ZOOM, tile.x, tile.y]);
        return { ms: performance.now() - started, bytes: rows[0].tile?.length ?? 0 };
      };
      const baseBytes = [];
      for (const tile of picked) baseBytes.push((await straight(tile)).bytes);
      const baseTimes = [];
      const basePerTile = new Map(picked.map((tile) => [`${tile.x}/${tile.y}`, []]));
      for (let sample = 0; sample < samples; sample++) {
        for (const tile of shuffled(picked, sample + 1)) {
          const { ms } = await straight(tile);
          baseTimes.push(ms);
          basePerTile.get(`${tile.x}/${tile.y}`).push(ms);
        }
      }
      const slowestTile = picked
        .map((tile) => ({ tile, p50: percentile(basePerTile.get(`${tile.x}/${tile.y}`), 50) }))
        .sort((a, b) => b.p50 - a.p50)[0].tile;
      baseline = {
        approach:
          "SELECT ST_AsMVT(q, 'parcels') FROM (SELECT id, parcel_number, portion, ST_AsMVTGeom(ST_Transform(geom, 3857), ST_TileEnvelope(z, x, y)) ...) q, straight on one connection",
        parcelsZ14: summary(baseTimes),
        tileBytes: { median: percentile(baseBytes, 50), max: Math.max(...baseBytes) },
        slowestTile: `${TILE_ZOOM}/${slowestTile.x}/${slowestTile.y}`,
      };
      if (explain) {
        const { rows: plan } = await ds.query(`EXPLAIN (ANALYZE, BUFFERS) ${STRAIGHT_MVT_SQL}`, [
          TILE_ZOOM,
          slowestTile.x,
          slowestTile.y,
        ]);
        baseline.plan = plan.map((row) => row['QUERY PLAN']).join('\n');
        console.log(
          `[geo-tiles] baseline, slowest tile ${baseline.slowestTile}: EXPLAIN (ANALYZE, BUFFERS)\n${baseline.plan}`,
        );
      }
    }

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
    const tileBytes = { median: percentile(bytes, 50), max: Math.max(...bytes) };
    const ratio = (plain, portal) => round(plain / portal, 2);
    return {
      sideBySide: baseline && {
        baseline,
        table: [
          ['z14 parcels p50 ms', overall.p50Ms, baseline.parcelsZ14.p50Ms],
          ['z14 parcels p95 ms', overall.p95Ms, baseline.parcelsZ14.p95Ms],
          ['tile bytes, median', tileBytes.median, baseline.tileBytes.median],
          ['tile bytes, max', tileBytes.max, baseline.tileBytes.max],
        ].map(([what, portal, plain]) => ({ what, portal, baseline: plain, ratio: ratio(plain, portal) })),
        ratioIs: 'baseline ÷ portal',
      },
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
      tileBytes,
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
  writeFileSync(
    new URL(`./results/geo-tiles${scaleSuffix(result.dataset?.scale)}.json`, import.meta.url),
    JSON.stringify(result, null, 2) + '\n',
  );
  return result;
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const result = await measureGeoTiles({
    scale: Number(option('scale', '1000000')),
    tiles: Number(option('tiles', '300')),
    samples: Number(option('samples', '5')),
    withBaseline: !flag('skip-baseline'),
    explain: !flag('no-explain'),
  });
  console.log(JSON.stringify(writeGeoTilesResults(result), null, 2));
  if (result.sideBySide) console.table(result.sideBySide.table);
}
