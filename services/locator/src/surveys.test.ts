import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { DataSource } from 'typeorm';
import {
  IMAGERY_API,
  SESSION_COOKIE,
  SURVEY_API,
  TILES_API,
  type BuildingChange,
  type ChangesAnswer,
  type ImageUrlAnswer,
  type Survey,
  type SurveyBuilding,
} from '@portal/contracts';
import { builtinCamera, heightFromPicks } from '@portal/domain';
import { createTestDatabase, type TestDatabase } from '@portal/db';
import { createRedis, ensureKeyPair } from '@portal/server-kit';
import { signTestSession, trailingSlashProblems } from '@portal/server-kit/testing';
import { buildApp } from './app';
import { loadLocatorConfig } from './config';
import { openDatabase } from './database';
import { IMAGE_SIZES, projector, sceneToSvg } from './imagery/render';
import { loadScene } from './imagery/scene';
import {
  BUILDINGS,
  CENTRE,
  FAR,
  NOT_COVERED,
  insertSurveyTown,
  offset,
  type SurveyTown,
} from './testing/surveyTown';

jest.setTimeout(60_000);

const varDir = mkdtempSync(join(tmpdir(), 'locator-surveys-test-'));
const privateKeyFile = join(varDir, 'keys/jwt-private.pem');
const publicKeyFile = join(varDir, 'keys/jwt-public.pem');
const redis = createRedis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', 'locator-surveys-test');
let db: TestDatabase;
let appDatabase: DataSource;
let app: FastifyInstance;

let surveys: SurveyTown['surveys'];
let ids: SurveyTown['ids'];

beforeAll(async () => {
  ensureKeyPair(privateKeyFile, publicKeyFile);
  db = await createTestDatabase();
  ({ surveys, ids } = await insertSurveyTown(db.dataSource));
  const config = {
    ...loadLocatorConfig({ VAR_DIR: varDir, NODE_ENV: 'test' }),
    logLevel: 'silent' as const,
    imageryStorageDir: join(varDir, 'imagery'),
  };
  appDatabase = await openDatabase(db.url);
  app = await buildApp(config, { ds: appDatabase, redis });
  await app.ready();
});

afterAll(async () => {
  await app?.close();
  await appDatabase?.destroy();
  await db?.drop();
  await redis.quit();
});

const query = (params: Record<string, string | number | boolean>) =>
  new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)])).toString();
const get = (url: string) =>
  app.inject({
    method: 'GET',
    url,
    cookies: {
      [SESSION_COOKIE]: signTestSession(privateKeyFile, { sub: randomUUID(), email: 'qs@portal.test' }),
    },
  });

const surveysAt = (point: { lat: number; lng: number }) => get(`${SURVEY_API.surveys}?${query(point)}`);
const changes = (from: Survey, to: Survey, point = CENTRE) =>
  get(`${SURVEY_API.changes}?${query({ ...point, from: from.id, to: to.id })}`);
const imageUrl = (params: Record<string, string | number>) =>
  get(`${IMAGERY_API.imageUrl}?${query({ ...CENTRE, ...params })}`);
const namesOf = (list: { buildingId: string }[]) =>
  list.map((item) => Object.keys(ids).find((name) => ids[name] === item.buildingId)).sort();

/** PostGIS's own geodesic area of a building's footprint before or after its extension. */
async function postgisArea(name: string, column: 'geom' | 'geom_before_extension'): Promise<number> {
  const [row] = (await db.dataSource.query(
    `SELECT ST_Area(${column}::geography) AS area FROM geo.buildings WHERE id = $1`,
    [ids[name]],
  )) as { area: number }[];
  return row.area;
}

describe('GET /api/imagery/surveys', () => {
  it('lists the surveys covering the point, newest first', async () => {
    const res = await surveysAt(CENTRE);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, surveys: [surveys.y2024, surveys.y2019, surveys.y2014] });
    expect((await surveysAt(FAR)).json().surveys).toEqual([surveys.far]);
  });

  it('answers an empty list outside coverage', async () => {
    expect((await surveysAt(NOT_COVERED)).json()).toEqual({ success: true, surveys: [] });
  });

  it.each([
    ['a latitude that is not a number', { lat: 'north', lng: 18.86 }, /lat must be number/],
    ['a longitude out of range', { lat: -33.9, lng: 181 }, /lng must be <= 180/],
    ['a place outside South Africa', { lat: 51.5, lng: -0.12 }, /outside South Africa/],
  ])('refuses %s with a 400', async (_case, point, message) => {
    const res = await get(`${SURVEY_API.surveys}?${query(point)}`);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(message);
  });

  it('needs a session, like every survey call', async () => {
    for (const path of [SURVEY_API.surveys, SURVEY_API.changes, SURVEY_API.buildings])
      expect((await app.inject({ method: 'GET', url: `${path}?${query(CENTRE)}` })).statusCode).toBe(401);
  });

  it('gives the newest capture date with the coverage', async () => {
    expect((await get(`${IMAGERY_API.coverage}?${query(CENTRE)}`)).json()).toEqual({
      success: true,
      covered: true,
      ortho: true,
      capturedOn: '2024-11-20',
    });
  });
});

describe('pictures of a survey', () => {
  it('answers from the newest survey with the view, with its date and camera', async () => {
    const ortho = (await imageUrl({ orientation: 'o' })).json() as ImageUrlAnswer;
    expect(ortho).toMatchObject({ success: true, capturedOn: '2024-11-20', surveyId: surveys.y2024.id });
    expect(ortho.camera).toEqual(builtinCamera('o', 1024, 768));
    expect(ortho.url).toMatch(new RegExp(`/o-full-s${surveys.y2024.id}-`));
    const small = (
      await get(`${IMAGERY_API.smallImageUrl}?${query({ ...CENTRE, orientation: 'w' })}`)
    ).json();
    expect(small).toMatchObject({
      success: true,
      capturedOn: '2024-11-20',
      camera: builtinCamera('w', 320, 240),
    });
  });

  it('draws what stood at the capture date: the older picture lacks the later buildings', async () => {
    const older = (await imageUrl({ orientation: 'o', survey: surveys.y2014.id })).json() as ImageUrlAnswer;
    const newer = (await imageUrl({ orientation: 'o', survey: surveys.y2024.id })).json() as ImageUrlAnswer;
    expect(older).toMatchObject({ success: true, capturedOn: '2014-08-01', surveyId: surveys.y2014.id });
    expect(older.url).not.toBe(newer.url);
    const [olderImage, newerImage] = [await get(older.url!), await get(newer.url!)];
    expect(olderImage.statusCode).toBe(200);
    expect(olderImage.rawPayload.equals(newerImage.rawPayload)).toBe(false);

    const drawn = async (survey: Survey) =>
      (await loadScene(appDatabase, CENTRE, survey)).buildings.map((building) => building.id);
    const in2014 = await drawn(surveys.y2014);
    expect(in2014).toContain(ids.shed);
    expect(in2014).not.toContain(ids.cottage);
    expect(in2014).not.toContain(ids.pool);
    const in2024 = await drawn(surveys.y2024);
    expect(in2024).toEqual(expect.arrayContaining([ids.cottage, ids.pool, ids.neighbour]));
    expect(in2024).not.toContain(ids.shed);
    expect(in2024).not.toContain(ids.studio);
  });

  it('draws the footprint before an extension at a date before it', async () => {
    const footprintOf = async (survey: Survey) =>
      (await loadScene(appDatabase, CENTRE, survey)).buildings.find((building) => building.id === ids.plus11)!
        .footprint;
    const width = (ring: [number, number][]) =>
      Math.max(...ring.map(([east]) => east)) - Math.min(...ring.map(([east]) => east));
    expect(width(await footprintOf(surveys.y2019))).toBeCloseTo(10, 1);
    expect(width(await footprintOf(surveys.y2024))).toBeCloseTo(11.1, 1);
  });

  it('prints the capture date on the picture', async () => {
    const scene = await loadScene(appDatabase, CENTRE, surveys.y2019);
    const svg = sceneToSvg(scene, 'o', 1024, 768);
    expect(svg).toContain('>Captured 14 March 2019 · Portal imagery</text>');
  });

  it('answers no oblique from an ortho-only survey', async () => {
    expect((await imageUrl({ orientation: 'n', survey: surveys.y2019.id })).json()).toEqual({
      success: false,
      url: null,
      capturedOn: null,
      surveyId: null,
      camera: null,
    });
    expect((await imageUrl({ orientation: 'o', survey: surveys.y2019.id })).json()).toMatchObject({
      success: true,
      capturedOn: '2019-03-14',
    });
  });

  it('answers 404 for a survey that does not cover the point or does not exist, 400 for a bad id', async () => {
    const elsewhere = await imageUrl({ orientation: 'o', survey: surveys.far.id });
    expect(elsewhere.statusCode).toBe(404);
    expect(elsewhere.json().message).toMatch(
      new RegExp(
        `Survey ${surveys.far.id} does not cover -33.9321, 18.8602 \\(surveys here: ${surveys.y2024.id} \\(2024-11-20\\)`,
      ),
    );
    const unknown = await imageUrl({ orientation: 'o', survey: 999_999 });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toMatch(/There is no imagery survey 999999/);
    expect((await imageUrl({ orientation: 'o', survey: 'latest' })).statusCode).toBe(400);
  });

  it('reads a building’s stored height back off the oblique it is drawn on', async () => {
    const scene = await loadScene(appDatabase, CENTRE, surveys.y2024);
    const main = scene.buildings.find((building) => building.id === ids.main)!;
    const { width, height } = IMAGE_SIZES.full;
    for (const orientation of ['n', 'e', 's', 'w'] as const) {
      const camera = builtinCamera(orientation, width, height);
      const view = projector(camera);
      for (const corner of main.footprint) {
        const picks = { camera, base: view.project(corner, 0), top: view.project(corner, main.heightM) };
        expect(heightFromPicks(picks)).toBeCloseTo(7.2, 2);
      }
    }
  });

  it('draws satellite tiles of a survey’s date with ?survey, today’s without', async () => {
    // The z19 tile holding the centre.
    const z = 19;
    const x = Math.floor(((CENTRE.lng + 180) / 360) * 2 ** z);
    const latRad = (CENTRE.lat * Math.PI) / 180;
    const y = Math.floor(((1 - Math.log(Math.tan(latRad) + 1 / Math.cos(latRad)) / Math.PI) / 2) * 2 ** z);
    const tile = (survey?: number) =>
      get(`${TILES_API.prefix}satellite/${z}/${x}/${y}.jpg${survey ? `?survey=${survey}` : ''}`);
    const [today, in2014, in2024] = [
      await tile(),
      await tile(surveys.y2014.id),
      await tile(surveys.y2024.id),
    ];
    for (const answer of [today, in2014, in2024]) expect(answer.statusCode).toBe(200);
    expect(in2014.headers.etag).not.toBe(in2024.headers.etag);
    // Nothing changed between 2024-11-20 and today.
    expect(in2024.rawPayload.equals(today.rawPayload)).toBe(true);
    const unknown = await tile(999_999);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toMatch(/no imagery survey 999999/);
  });
});

describe('GET /api/imagery/changes', () => {
  it('lists the buildings added, removed and changed by more than 10 % on the parcel', async () => {
    const first = (await changes(surveys.y2014, surveys.y2019)).json() as ChangesAnswer;
    expect(first.from).toEqual(surveys.y2014);
    expect(first.to).toEqual(surveys.y2019);
    // The studio came and went between the two: in neither picture. The neighbour is on another parcel.
    expect(namesOf(first.added)).toEqual(['cottage', 'outbuilding']);
    expect(first.removed).toEqual([]);
    expect(first.changed).toEqual([]);

    const second = (await changes(surveys.y2019, surveys.y2024)).json() as ChangesAnswer;
    expect(namesOf(second.added)).toEqual(['pool']);
    expect(namesOf(second.removed)).toEqual(['shed']);
    // +11 % and −11 % are changes; +9 % is not.
    expect(namesOf(second.changed)).toEqual(['minus11', 'plus11']);
  });

  it('reads the other way round when the dates are swapped, and nothing between a survey and itself', async () => {
    const back = (await changes(surveys.y2024, surveys.y2019)).json() as ChangesAnswer;
    expect(namesOf(back.added)).toEqual(['shed']);
    expect(namesOf(back.removed)).toEqual(['pool']);
    expect(namesOf(back.changed)).toEqual(['minus11', 'plus11']);
    const same = (await changes(surveys.y2024, surveys.y2024)).json() as ChangesAnswer;
    expect([same.added, same.removed, same.changed]).toEqual([[], [], []]);
  });

  it('gives each footprint and its geodesic area at both dates, as PostGIS measures them', async () => {
    const answer = (await changes(surveys.y2019, surveys.y2024)).json() as ChangesAnswer;
    const byName = (list: BuildingChange[], name: string) =>
      list.find((item) => item.buildingId === ids[name])!;
    const plus11 = byName(answer.changed, 'plus11');
    expect(
      Math.abs(plus11.areaFromM2! - (await postgisArea('plus11', 'geom_before_extension'))),
    ).toBeLessThanOrEqual(0.01);
    expect(Math.abs(plus11.areaToM2! - (await postgisArea('plus11', 'geom')))).toBeLessThanOrEqual(0.01);
    expect(plus11.areaToM2! / plus11.areaFromM2!).toBeCloseTo(1.11, 2);
    expect(plus11.footprintFrom?.type).toBe('Polygon');
    expect(plus11.footprintTo?.coordinates[0]).toHaveLength(5);

    const pool = byName(answer.added, 'pool');
    expect(pool).toMatchObject({ kind: 'pool', footprintFrom: null, areaFromM2: null });
    expect(Math.abs(pool.areaToM2! - (await postgisArea('pool', 'geom')))).toBeLessThanOrEqual(0.01);
    const shed = byName(answer.removed, 'shed');
    expect(shed).toMatchObject({ footprintTo: null, areaToM2: null });
    expect(Math.abs(shed.areaFromM2! - (await postgisArea('shed', 'geom')))).toBeLessThanOrEqual(0.01);
  });

  it('answers empty lists for a point on no parcel', async () => {
    const answer = (await changes(surveys.y2014, surveys.y2024, offset(200, 200))).json() as ChangesAnswer;
    expect(answer).toMatchObject({ success: true, parcelId: null, added: [], removed: [], changed: [] });
  });

  it('answers 404 for a survey that does not cover the point and 400 for bad input', async () => {
    const elsewhere = await changes(surveys.y2014, surveys.far);
    expect(elsewhere.statusCode).toBe(404);
    expect(elsewhere.json().message).toMatch(new RegExp(`Survey ${surveys.far.id} does not cover`));
    expect(
      (await get(`${SURVEY_API.changes}?${query({ ...CENTRE, from: surveys.y2014.id })}`)).statusCode,
    ).toBe(400);
    const bad = await get(`${SURVEY_API.changes}?${query({ ...CENTRE, from: 0, to: 'x' })}`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().messages.length).toBeGreaterThanOrEqual(2);
  });
});

describe('GET /api/imagery/buildings', () => {
  const buildings = async (params: Record<string, string | number | boolean>) => {
    const res = await get(`${SURVEY_API.buildings}?${query({ ...CENTRE, ...params })}`);
    expect(res.statusCode).toBe(200);
    return res.json() as { survey: Survey; buildings: SurveyBuilding[] };
  };

  it('answers the footprints standing at the survey’s date around the point, or on its parcel', async () => {
    const around = await buildings({ survey: surveys.y2014.id });
    expect(around.survey).toEqual(surveys.y2014);
    expect(namesOf(around.buildings)).toEqual(['main', 'minus11', 'plus11', 'plus9', 'shed']);
    const latest = await buildings({});
    expect(latest.survey).toEqual(surveys.y2024);
    expect(namesOf(latest.buildings)).toContain('neighbour');
    const parcel = await buildings({ parcel: true });
    expect(namesOf(parcel.buildings)).toEqual([
      'cottage',
      'main',
      'minus11',
      'outbuilding',
      'plus11',
      'plus9',
      'pool',
    ]);
  });

  it('gives geodesic areas equal to PostGIS ST_Area(geography) to 0.01 m²', async () => {
    const { buildings: standing } = await buildings({ parcel: true, survey: surveys.y2019.id });
    for (const building of standing) {
      const name = Object.keys(ids).find((key) => ids[key] === building.buildingId)!;
      const column = BUILDINGS.find((fixture) => fixture.name === name)?.extended
        ? 'geom_before_extension'
        : 'geom';
      expect(Math.abs(building.areaM2 - (await postgisArea(name, column)))).toBeLessThanOrEqual(0.01);
    }
    const main = standing.find((building) => building.buildingId === ids.main)!;
    expect(main).toMatchObject({ kind: 'house', levels: 1, heightM: 7.2, footprint: { type: 'Polygon' } });
    expect(main.areaM2).toBeCloseTo(240, -1);
  });

  it('answers 404 outside coverage or for a survey elsewhere', async () => {
    const outside = await get(`${SURVEY_API.buildings}?${query(NOT_COVERED)}`);
    expect(outside.statusCode).toBe(404);
    expect(outside.json().message).toMatch(/No imagery survey covers/);
    expect(
      (await get(`${SURVEY_API.buildings}?${query({ ...CENTRE, survey: surveys.far.id })}`)).statusCode,
    ).toBe(404);
  });
});

describe('routes', () => {
  it('answers the survey calls with and without a trailing slash', async () => {
    expect(await trailingSlashProblems(app, { service: 'locator' })).toEqual([]);
    for (const path of [SURVEY_API.surveys, SURVEY_API.buildings])
      expect((await get(`${path}/?${query(CENTRE)}`)).statusCode).toBe(200);
    expect(
      (
        await get(
          `${SURVEY_API.changes}/?${query({ ...CENTRE, from: surveys.y2014.id, to: surveys.y2024.id })}`,
        )
      ).statusCode,
    ).toBe(200);
  });
});
