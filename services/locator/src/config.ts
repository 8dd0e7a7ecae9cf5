import { loadBaseConfig, type BaseConfig } from '@portal/server-kit';
import { join } from 'node:path';

/** Where imagery comes from: the built-in renderer, or a real imagery service through URL templates. */
export type ImageryProviderConfig =
  | { kind: 'builtin' }
  | {
      kind: 'template';
      /** e.g. https://imagery.example/api/image?lat={lat}&lng={lng}&o={orientation} */
      imageUrlTemplate: string;
      /** The thumbnail template; the image template when unset. */
      smallImageUrlTemplate: string;
      /** Answers { covered, ortho } for {lat} {lng}; coverage polygons in PostGIS decide when unset. */
      coverageUrlTemplate?: string;
      /**
       * Answers { surveys: [{ id, capturedOn, kind, provider?, name? }] } for {lat} {lng}; the surveys in
       * geo.imagery_coverage when unset.
       */
      surveysUrlTemplate?: string;
      /** The service's camera (heights are read off its obliques with it); unset parts are the built-in's. */
      camera?: TemplateCameraConfig;
    };

/** The imagery service's camera, from IMAGERY_CAMERA_*; each unset part is the built-in camera's. */
export interface TemplateCameraConfig {
  /** Ground width a picture shows, metres (IMAGERY_CAMERA_METRES_ACROSS). */
  metresAcross?: number;
  /** How far the obliques look down from the horizontal, degrees (IMAGERY_CAMERA_TILT_DEGREES). */
  tiltDegrees?: number;
  /** The full picture's pixels (IMAGERY_CAMERA_WIDTH_PX × IMAGERY_CAMERA_HEIGHT_PX). */
  fullPx?: { width: number; height: number };
  /** The small picture's pixels (IMAGERY_SMALL_CAMERA_WIDTH_PX × IMAGERY_SMALL_CAMERA_HEIGHT_PX). */
  smallPx?: { width: number; height: number };
}

export interface LocatorConfig extends BaseConfig {
  imagery: ImageryProviderConfig;
  /** Where rendered images are kept (local-disk storage). */
  imageryStorageDir: string;
  /** The oblique viewer /api/pictometry/proxy forwards to; the proxy answers 404 when unset. */
  pictometryProxyTarget?: string;
  /**
   * A read replica (DATABASE_READ_URL, e.g. CloudNativePG's `-ro` service): the read-only look-ups
   * (geocode, autocomplete, search, reverse, tiles, TileJSON extents, OGC items) go to a second pool on
   * it; writes (usage metering) and everything else stay on DATABASE_URL. Unset, all use DATABASE_URL.
   */
  databaseReadUrl?: string;
}

/** The locator service: address service, vector tiles and imagery; port 3002, `PORT` overrides. */
export function loadLocatorConfig(env: Record<string, string | undefined> = process.env): LocatorConfig {
  const base = loadBaseConfig('locator', 3002, env);
  const template = env.IMAGERY_URL_TEMPLATE?.trim();
  return {
    ...base,
    imagery: template
      ? {
          kind: 'template',
          imageUrlTemplate: template,
          smallImageUrlTemplate: env.IMAGERY_SMALL_URL_TEMPLATE?.trim() || template,
          coverageUrlTemplate: env.IMAGERY_COVERAGE_URL_TEMPLATE?.trim() || undefined,
          surveysUrlTemplate: env.IMAGERY_SURVEYS_URL_TEMPLATE?.trim() || undefined,
          camera: templateCamera(env),
        }
      : { kind: 'builtin' },
    imageryStorageDir: env.IMAGERY_STORAGE_DIR?.trim() || join(base.varDir, 'imagery'),
    pictometryProxyTarget: env.PICTOMETRY_PROXY_TARGET?.trim() || undefined,
    databaseReadUrl: env.DATABASE_READ_URL?.trim() || undefined,
  };
}

/** IMAGERY_CAMERA_* read as positive numbers (tilt above 0 and at most 90); a bad value stops the start. */
function templateCamera(env: Record<string, string | undefined>): TemplateCameraConfig {
  const positive = (name: string, max = Infinity): number | undefined => {
    const text = env[name]?.trim();
    if (!text) return undefined;
    const value = Number(text);
    if (!Number.isFinite(value) || value <= 0 || value > max)
      throw new Error(
        `${name} must be a number above 0${max < Infinity ? ` and at most ${max}` : ''}, got '${text}'.`,
      );
    return value;
  };
  const pixels = (prefix: string) => {
    const width = positive(`${prefix}_WIDTH_PX`, 20_000);
    const height = positive(`${prefix}_HEIGHT_PX`, 20_000);
    if ((width === undefined) !== (height === undefined))
      throw new Error(`Set both ${prefix}_WIDTH_PX and ${prefix}_HEIGHT_PX, or neither.`);
    return width && height ? { width: Math.round(width), height: Math.round(height) } : undefined;
  };
  return {
    metresAcross: positive('IMAGERY_CAMERA_METRES_ACROSS', 100_000),
    tiltDegrees: positive('IMAGERY_CAMERA_TILT_DEGREES', 90),
    fullPx: pixels('IMAGERY_CAMERA'),
    smallPx: pixels('IMAGERY_SMALL_CAMERA'),
  };
}
