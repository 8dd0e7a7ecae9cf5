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
    };

export interface LocatorConfig extends BaseConfig {
  imagery: ImageryProviderConfig;
  /** Where rendered images are kept (local-disk storage). */
  imageryStorageDir: string;
  /** The oblique viewer /api/pictometry/proxy forwards to; the proxy answers 404 when unset. */
  pictometryProxyTarget?: string;
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
        }
      : { kind: 'builtin' },
    imageryStorageDir: env.IMAGERY_STORAGE_DIR?.trim() || join(base.varDir, 'imagery'),
    pictometryProxyTarget: env.PICTOMETRY_PROXY_TARGET?.trim() || undefined,
  };
}
