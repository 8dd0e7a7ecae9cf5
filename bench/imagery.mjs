// Dated imagery (issue 21) through the locator's HTTP service (services/locator/dist, started in this
// process on a free port, with a session, one request at a time on a kept-alive connection, whole answer
// read), over a throwaway database holding a generated suburb: 900 erven of 20 m × 30 m in blocks between
// streets, a house on each (1–2 storeys), extensions, outbuildings, pools, demolitions and rebuilds dated
// between three surveys (2016 high-resolution, 2020 ortho, 2024 high-resolution). A picture holds about
// 55 erven and 90 buildings.
//  - a survey picture rendered cold: GET /api/idanImageUrl?…&survey=<id> at a place never drawn (its
//    scene read, drawn, rasterised to a 1024 × 768 JPEG and stored), ortho and north oblique, the surveys
//    taken in turn; target p95 ≤ 150 ms;
//  - the same calls again (cached: the scene read and its fingerprint found in storage); target ≤ 20 ms;
//  - changes between two surveys: GET /api/imagery/changes at erven (2016 → 2024 and 2020 → 2024);
//    target p95 ≤ 50 ms.
// Usage: node bench/imagery.mjs [--pictures 30] [--rounds 3] [--changes 60]
// Needs PostgreSQL with PostGIS, Redis and the session keys (var/keys), as `npm start` leaves them.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT } from '../scripts/lib/system.mjs';
import { benchSessionCookie, buildProject, startService } from './lib/services.mjs';
import { benchLog, numberOption } from './lib/cli.mjs';
import { timingSummary } from './stats.mjs';

const require = createRequire(import.meta.url);
const log = benchLog('imagery');

export const IMAGERY_TARGETS = { coldP95Ms: 150, cachedP95Ms: 20, changesP95Ms: 50 };

/** The suburb's middle (Stellenbosch) and its grid: 30 × 30 erven, a street after every second row. */
const CENTRE = { lat: -33.9321, lng: 18.8602 };
const GRID = 30;
const ERF = { width: 20, depth: 30 };
const STREET = 12;
const SURVEYS = [
  ['bench-2016', 'high_resolution', '2016-04-10'],
  ['bench-2020', 'ortho', '2020-02-20'],
  ['bench-2024', 'high_resolution', '2024-09-15'],
];

/** Metres east and north of the centre, as SQL degrees. */
const lngSql = (east) => `(${CENTRE.lng} + (${east}) / (111320 * cos(radians(${CENTRE.lat}))))`;
const latSql = (north) => `(${CENTRE.lat} + (${north}) / 110574.0)`;
const boxSql = (west, south, east, north) =>
  `ST_MakeEnvelope(${lngSql(west)}, ${latSql(south)}, ${lngSql(east)}, ${latSql(north)}, 4326)`;
/** An erf's south-west corner, metres: row j, column i. */
const erfWest = (i) => `(-300 + ${i} * ${ERF.width})`;
const erfSouth = (j) => `(-500 + ${j} * ${ERF.depth} + (${j} / 2) * ${STREET})`;
const erfCentre = (i, j) => ({
  east: -300 + i * ERF.width + ERF.width / 2,
  north: -500 + j * ERF.depth + Math.floor(j / 2) * STREET + ERF.depth / 2,
});
const toPoint = ({ east, north }) => ({
  lat: Number((CENTRE.lat + north / 110574).toFixed(6)),
  lng: Number((CENTRE.lng + east / (111320 * Math.cos((CENTRE.lat * Math.PI) / 180))).toFixed(6)),
});

/** The suburb, in a few statements: parcels, streets, dated buildings, surveys. */
export async function generateSuburb(ds) {
  const grid = `generate_series(0, ${GRID - 1}) i, generate_series(0, ${GRID - 1}) j`;
  const erf = (w, s, e, n) =>
    boxSql(
      `${erfWest('i')} + ${w}`,
      `${erfSouth('j')} + ${s}`,
      `${erfWest('i')} + ${e}`,
      `${erfSouth('j')} + ${n}`,
    );
  await ds.query(
    `INSERT INTO geo.parcels (parcel_number, town, suburb, geom, source, source_id)
     SELECT (1000 + i * ${GRID} + j)::text, 'Stellenbosch', 'Bench Park', ST_Multi(${erf(0, 0, ERF.width, ERF.depth)}),
            'bench', 'erf-' || i || '-' || j
     FROM ${grid}`,
  );
  // East–west streets between every second row, north–south ones every tenth column.
  await ds.query(
    `INSERT INTO geo.streets (name, search_text, geom, source, source_id)
     SELECT 'Bench Street ' || k, 'bench street ' || k,
            ST_Multi(ST_MakeLine(ST_MakePoint(${lngSql(-300)}, ${latSql(`-500 + k * ${2 * ERF.depth + STREET} - ${STREET / 2}`)}),
                                 ST_MakePoint(${lngSql(300)}, ${latSql(`-500 + k * ${2 * ERF.depth + STREET} - ${STREET / 2}`)}))),
            'bench', 'street-' || k
     FROM generate_series(1, ${GRID / 2 - 1}) k
     UNION ALL
     SELECT 'Bench Avenue ' || k, 'bench avenue ' || k,
            ST_Multi(ST_MakeLine(ST_MakePoint(${lngSql(`-300 + k * ${10 * ERF.width}`)}, ${latSql(-500)}),
                                 ST_MakePoint(${lngSql(`-300 + k * ${10 * ERF.width}`)}, ${latSql(600)}))),
            'bench', 'avenue-' || k
     FROM generate_series(1, 2) k`,
  );
  // A house on every erf; three in ten extended in 2020 (+33 %), one in ten demolished in 2019 and
  // rebuilt in 2021, an outbuilding on one in seven (2017), a pool on one in five (2021).
  const parcelOf = `(SELECT id FROM geo.parcels WHERE source = 'bench' AND source_id = 'erf-' || i || '-' || j)`;
  const house = erf(4, 8, 16, 20);
  await ds.query(
    `INSERT INTO geo.buildings (parcel_id, kind, levels, height_m, roof, geom, geom_before_extension,
                                extended_on, demolished_on, source, source_id)
     SELECT ${parcelOf}, 'house', 1 + (i + j) % 2, 3.5 + 3 * ((i + j) % 2), CASE WHEN (i * j) % 6 = 0 THEN 'flat' ELSE 'pitched' END,
            CASE WHEN (i * 7 + j * 3) % 10 < 3 THEN ${erf(4, 8, 16, 24)} ELSE ${house} END,
            CASE WHEN (i * 7 + j * 3) % 10 < 3 THEN ${house} END,
            CASE WHEN (i * 7 + j * 3) % 10 < 3 THEN date '2020-06-01' END,
            CASE WHEN (i * 7 + j * 3) % 10 = 9 THEN date '2019-01-15' END,
            'bench', 'house-' || i || '-' || j
     FROM ${grid}`,
  );
  await ds.query(
    `INSERT INTO geo.buildings (parcel_id, kind, levels, height_m, roof, geom, built_on, source, source_id)
     SELECT ${parcelOf}, 'house', 2, 6.5, 'pitched', ${erf(3, 7, 17, 23)}, date '2021-05-01', 'bench', 'rebuilt-' || i || '-' || j
     FROM ${grid} WHERE (i * 7 + j * 3) % 10 = 9
     UNION ALL
     SELECT ${parcelOf}, 'garage', 1, 3, 'flat', ${erf(1, 1, 7, 6)}, date '2017-03-01', 'bench', 'outbuilding-' || i || '-' || j
     FROM ${grid} WHERE (i * j + i) % 7 = 0
     UNION ALL
     SELECT ${parcelOf}, 'pool', 1, 1, 'flat', ${erf(6, 23, 14, 27)}, date '2021-02-01', 'bench', 'pool-' || i || '-' || j
     FROM ${grid} WHERE (i + 2 * j) % 5 = 0`,
  );
  const surveys = {};
  for (const [name, kind, capturedOn] of SURVEYS) {
    const [row] = await ds.query(
      `INSERT INTO geo.imagery_coverage (kind, name, captured_on, geom, source, source_id)
       VALUES ($1, $2, $3, ST_Multi(${boxSql(-400, -600, 400, 700)}), 'bench', $2) RETURNING id::int AS id`,
      [kind, name, capturedOn],
    );
    surveys[name] = row.id;
  }
  await ds.query('ANALYZE');
  const [counts] = await ds.query(
    `SELECT (SELECT count(*) FROM geo.parcels)::int AS parcels, (SELECT count(*) FROM geo.buildings)::int AS buildings,
            (SELECT count(*) FROM geo.streets)::int AS streets`,
  );
  return { surveys, counts };
}

/** `count` erven spread over the grid's inner part (a picture's ground stays inside the suburb). */
export function erven(count, seed) {
  const picked = [];
  let state = seed;
  const seen = new Set();
  while (picked.length < count) {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    const i = 5 + (state % (GRID - 10));
    const j = 5 + (Math.floor(state / GRID) % (GRID - 10));
    if (seen.has(`${i}/${j}`)) continue;
    seen.add(`${i}/${j}`);
    picked.push(toPoint(erfCentre(i, j)));
  }
  return picked;
}

async function timedJson(url, cookie) {
  const started = performance.now();
  const response = await fetch(url, { headers: { cookie } });
  const body = await response.json();
  const ms = performance.now() - started;
  if (!response.ok) throw new Error(`${url}: ${response.status} ${JSON.stringify(body)}`);
  return { ms, body };
}

export async function measureImagery({ pictures = 30, rounds = 3, changes: changeCount = 60 } = {}) {
  await buildProject('@portal/locator');
  const db = require(join(ROOT, 'libs/db/dist/index.js'));
  const database = await db.createTestDatabase();
  const storageDir = mkdtempSync(join(tmpdir(), 'bench-imagery-'));
  process.env.IMAGERY_STORAGE_DIR = storageDir;
  let locator;
  try {
    const started = performance.now();
    const { surveys, counts } = await generateSuburb(database.dataSource);
    log(`suburb generated in ${Math.round(performance.now() - started)} ms: ${JSON.stringify(counts)}`);
    // Signed first: it makes the session keys when `npm start` never has.
    const cookie = benchSessionCookie({ sub: randomUUID(), email: 'bench@portal.test', name: 'Bench' });
    locator = await startService('locator', 'loadLocatorConfig', database.url);
    const q = (params) => new URLSearchParams(params).toString();
    const pictureUrl = (point, orientation, survey) =>
      `${locator.base}/api/idanImageUrl?${q({ ...point, orientation, survey })}`;
    const highResolution = [surveys['bench-2016'], surveys['bench-2024']];
    const anySurvey = Object.values(surveys);

    // Warm-up: the first pictures pay for sharp's and the pool's start.
    for (const point of erven(3, 99)) await timedJson(pictureUrl(point, 'o', surveys['bench-2024']), cookie);

    const result = {
      dataset: { ...counts, surveys: SURVEYS.map(([name, kind, on]) => `${name} ${kind} ${on}`) },
    };
    for (const [view, orientation, choices, seed] of [
      ['ortho', 'o', anySurvey, 1],
      ['oblique', 'n', highResolution, 2],
    ]) {
      const asked = erven(pictures, seed).map((point, i) =>
        pictureUrl(point, orientation, choices[i % choices.length]),
      );
      const cold = [];
      for (const url of asked) cold.push((await timedJson(url, cookie)).ms);
      const cached = [];
      for (let round = 0; round < rounds; round++)
        for (const url of asked) cached.push((await timedJson(url, cookie)).ms);
      result[view] = { cold: timingSummary(cold), cached: timingSummary(cached) };
      log(
        `${view}: cold ${JSON.stringify(result[view].cold)}, cached ${JSON.stringify(result[view].cached)}`,
      );
    }

    const pairs = [
      [surveys['bench-2016'], surveys['bench-2024']],
      [surveys['bench-2020'], surveys['bench-2024']],
    ];
    const changeUrls = erven(changeCount, 3).map((point, i) => {
      const [from, to] = pairs[i % pairs.length];
      return `${locator.base}/api/imagery/changes?${q({ ...point, from, to })}`;
    });
    for (const url of changeUrls.slice(0, 5)) await timedJson(url, cookie);
    const changeTimes = [];
    let listed = 0;
    for (let round = 0; round < rounds; round++)
      for (const url of changeUrls) {
        const { ms, body } = await timedJson(url, cookie);
        changeTimes.push(ms);
        if (round === 0) listed += body.added.length + body.removed.length + body.changed.length;
      }
    result.changes = {
      ...timingSummary(changeTimes),
      buildingsListedPerCall: Math.round((listed / changeUrls.length) * 10) / 10,
    };
    log(`changes: ${JSON.stringify(result.changes)}`);

    result.targets = {
      cold: `p95 ≤ ${IMAGERY_TARGETS.coldP95Ms} ms`,
      cached: `p95 ≤ ${IMAGERY_TARGETS.cachedP95Ms} ms`,
      changes: `p95 ≤ ${IMAGERY_TARGETS.changesP95Ms} ms`,
    };
    result.pass =
      Math.max(result.ortho.cold.p95Ms, result.oblique.cold.p95Ms) <= IMAGERY_TARGETS.coldP95Ms &&
      Math.max(result.ortho.cached.p95Ms, result.oblique.cached.p95Ms) <= IMAGERY_TARGETS.cachedP95Ms &&
      result.changes.p95Ms <= IMAGERY_TARGETS.changesP95Ms;
    return result;
  } finally {
    await locator?.stop();
    await database.drop();
    rmSync(storageDir, { recursive: true, force: true });
  }
}

/** Writes the figures to bench/results/imagery.json and returns them. */
export function writeImageryResults(result) {
  writeFileSync(new URL('./results/imagery.json', import.meta.url), JSON.stringify(result, null, 2) + '\n');
  return result;
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const result = await measureImagery({
    pictures: numberOption('pictures', 30),
    rounds: numberOption('rounds', 3),
    changes: numberOption('changes', 60),
  });
  console.log(JSON.stringify(writeImageryResults(result), null, 2));
}
