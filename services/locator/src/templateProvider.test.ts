import type { DataSource } from 'typeorm';
import { HttpError } from '@portal/server-kit';
import { loadLocatorConfig } from './config';
import { TemplateImageryProvider, fillTemplate, parseServiceSurveys } from './imagery/provider';

/**
 * The URL-template provider against an imagery service that answers coverage and surveys itself (no
 * database needed: the service decides both). The provider over PostGIS surveys is in imagery.test.ts.
 */

const POINT = { lat: -33.9321, lng: 18.8602 };
const SERVICE_SURVEYS = {
  surveys: [
    { id: 11, capturedOn: '2018-07-02', kind: 'ortho', provider: 'Aerial Co' },
    { id: 12, capturedOn: '2023-01-30', kind: 'high_resolution', name: 'Winelands flight' },
    { id: 10, capturedOn: '2015-09-09', kind: 'high_resolution', provider: 'Aerial Co' },
  ],
};

/** A fetch that answers the service's calls by path, remembering what it was asked. */
function serviceFetch(answers: Record<string, unknown>) {
  const asked: string[] = [];
  const fetchImpl = (async (url: string) => {
    asked.push(url);
    const path = new URL(url).pathname;
    if (!(path in answers)) return new Response('down', { status: 503 });
    return Response.json(answers[path]);
  }) as unknown as typeof fetch;
  return { fetchImpl, asked };
}

function provider(answers: Record<string, unknown>, env: Record<string, string> = {}) {
  const config = loadLocatorConfig({
    NODE_ENV: 'test',
    IMAGERY_URL_TEMPLATE: 'https://img.example/{survey}/{orientation}?at={lat},{lng}&on={capturedOn}',
    IMAGERY_COVERAGE_URL_TEMPLATE: 'https://img.example/coverage?at={lat},{lng}',
    IMAGERY_SURVEYS_URL_TEMPLATE: 'https://img.example/surveys?at={lat},{lng}',
    ...env,
  });
  if (config.imagery.kind !== 'template') throw new Error('expected the template provider');
  const service = serviceFetch(answers);
  return {
    imagery: new TemplateImageryProvider({} as DataSource, config.imagery, service.fetchImpl),
    asked: service.asked,
  };
}

const covered = { '/coverage': { covered: true, ortho: true }, '/surveys': SERVICE_SURVEYS };

describe('the URL-template provider', () => {
  it('lists the service’s surveys newest first, naming the provider where the service does not', async () => {
    const { imagery, asked } = provider(covered);
    expect(await imagery.surveys(POINT)).toEqual([
      {
        id: 12,
        capturedOn: '2023-01-30',
        kind: 'high_resolution',
        provider: 'Imagery service',
        name: 'Winelands flight',
      },
      { id: 11, capturedOn: '2018-07-02', kind: 'ortho', provider: 'Aerial Co' },
      { id: 10, capturedOn: '2015-09-09', kind: 'high_resolution', provider: 'Aerial Co' },
    ]);
    expect(asked).toEqual([`https://img.example/surveys?at=${POINT.lat},${POINT.lng}`]);
    expect(await imagery.coverage(POINT)).toEqual({ covered: true, ortho: true, capturedOn: '2023-01-30' });
  });

  it('fills {survey} and {capturedOn}: the newest survey with the view, or the one asked for', async () => {
    const { imagery } = provider(covered);
    expect(await imagery.imageUrl(POINT, 'n', 'full')).toMatchObject({
      url: `https://img.example/12/n?at=${POINT.lat},${POINT.lng}&on=2023-01-30`,
      survey: { id: 12 },
    });
    expect((await imagery.imageUrl(POINT, 'o', 'full', 10))?.url).toBe(
      `https://img.example/10/o?at=${POINT.lat},${POINT.lng}&on=2015-09-09`,
    );
    // An ortho-only survey has no obliques; a survey the service does not list here is a 404.
    expect(await imagery.imageUrl(POINT, 'e', 'full', 11)).toBeNull();
    await expect(imagery.imageUrl(POINT, 'o', 'full', 99)).rejects.toMatchObject({
      statusCode: 404,
      message: expect.stringMatching(/Survey 99 does not cover .*surveys here: 12 \(2023-01-30\)/),
    });
  });

  it('hands out the configured camera, the built-in one where unset', async () => {
    const builtin = provider(covered).imagery;
    expect((await builtin.imageUrl(POINT, 's', 'small'))?.camera).toEqual({
      orientation: 's',
      width: 320,
      height: 240,
      metresAcross: 110,
      tiltDegrees: 45,
      bearingDegrees: 180,
    });
    const configured = provider(covered, {
      IMAGERY_CAMERA_METRES_ACROSS: '250',
      IMAGERY_CAMERA_TILT_DEGREES: '40',
      IMAGERY_CAMERA_WIDTH_PX: '4000',
      IMAGERY_CAMERA_HEIGHT_PX: '3000',
    }).imagery;
    expect((await configured.imageUrl(POINT, 'e', 'full'))?.camera).toEqual({
      orientation: 'e',
      width: 4000,
      height: 3000,
      metresAcross: 250,
      tiltDegrees: 40,
      bearingDegrees: 90,
    });
    // The small picture keeps the built-in size unless its own pixels are set; the ortho looks straight down.
    expect((await configured.imageUrl(POINT, 'o', 'small'))?.camera).toMatchObject({
      width: 320,
      metresAcross: 250,
      tiltDegrees: 90,
    });
  });

  it('refuses a camera setting that is no number, and half a picture size', () => {
    const env = { NODE_ENV: 'test', IMAGERY_URL_TEMPLATE: 'https://img.example/{lat}' };
    expect(() => loadLocatorConfig({ ...env, IMAGERY_CAMERA_TILT_DEGREES: '95' })).toThrow(
      /IMAGERY_CAMERA_TILT_DEGREES must be a number above 0 and at most 90, got '95'/,
    );
    expect(() => loadLocatorConfig({ ...env, IMAGERY_CAMERA_METRES_ACROSS: 'wide' })).toThrow(
      /METRES_ACROSS/,
    );
    expect(() => loadLocatorConfig({ ...env, IMAGERY_CAMERA_WIDTH_PX: '4000' })).toThrow(
      /Set both IMAGERY_CAMERA_WIDTH_PX and IMAGERY_CAMERA_HEIGHT_PX/,
    );
  });

  it('answers 502 when the service’s surveys call fails or its answer is malformed', async () => {
    await expect(
      provider({ '/coverage': { covered: true, ortho: true } }).imagery.surveys(POINT),
    ).rejects.toMatchObject({
      statusCode: 502,
      message: expect.stringMatching(/surveys call failed: status 503/),
    });
    for (const answer of [
      {},
      { surveys: [{ id: 'x', capturedOn: '2020-01-01', kind: 'ortho' }] },
      { surveys: [{ id: 1, capturedOn: '1 Jan 2020', kind: 'ortho' }] },
      { surveys: [{ id: 1, capturedOn: '2020-01-01', kind: 'satellite' }] },
    ])
      expect(() => parseServiceSurveys(answer)).toThrow(HttpError);
  });

  it('URL-encodes what it fills in and leaves {survey} empty when no survey is known', () => {
    expect(fillTemplate('/{lat}/{lng}/{orientation}/{survey}/{capturedOn}', POINT, 'o', null)).toBe(
      `/${POINT.lat}/${POINT.lng}/o//`,
    );
  });
});
