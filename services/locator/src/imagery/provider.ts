import type { DataSource } from 'typeorm';
import { IMAGERY_API, type Orientation } from '@portal/contracts';
import { HttpError, type Storage } from '@portal/server-kit';
import type { ImageryProviderConfig } from '../config';
import type { GeoPoint } from './location';
import { renderJpeg, type ImageSize } from './render';
import { loadScene } from './scene';

export interface Coverage {
  /** High-resolution (oblique and ortho) imagery exists at the location. */
  covered: boolean;
  /** Ortho imagery exists (inside ortho or high-resolution coverage). */
  ortho: boolean;
}

/** Where imagery comes from (ARCHITECTURE §5): the built-in renderer or a real imagery service. */
export interface ImageryProvider {
  coverage(point: GeoPoint): Promise<Coverage>;
  /**
   * The image of the location seen from `orientation`, or null when there is none: obliques (n, e, s, w)
   * need high-resolution coverage, the ortho (o) ortho coverage.
   */
  imageUrl(point: GeoPoint, orientation: Orientation, size: ImageSize): Promise<string | null>;
}

/** Whether coverage allows an image from `orientation`. */
export const hasImagery = (coverage: Coverage, orientation: Orientation) =>
  orientation === 'o' ? coverage.ortho : coverage.covered;

/** Coverage from the polygons in geo.imagery_coverage (high-resolution implies ortho). */
export async function postgisCoverage(ds: DataSource, point: GeoPoint): Promise<Coverage> {
  const [row] = (await ds.query(
    `SELECT coalesce(bool_or(kind = 'high_resolution'), false) AS covered, count(*) > 0 AS ortho
     FROM geo.imagery_coverage
     WHERE ST_Intersects(geom, ST_SetSRID(ST_MakePoint($1, $2), 4326))`,
    [point.lng, point.lat],
  )) as Coverage[];
  return { covered: row.covered, ortho: row.ortho };
}

/** Images are keyed by the location to 5 decimals (~1 m): nearby clicks share their pictures. */
export const roundedLocation = ({ lat, lng }: GeoPoint): GeoPoint => ({
  lat: Number(lat.toFixed(5)),
  lng: Number(lng.toFixed(5)),
});

/**
 * Renders the views from the parcels, streets and buildings in PostGIS and keeps them in storage under
 * `idan/<lat>_<lng>/<orientation>-<size>-<scene fingerprint>.jpg`: the same location over the same data
 * is rendered once; new data around it makes a new key (old images stay until the store is pruned).
 */
export class BuiltinImageryProvider implements ImageryProvider {
  private readonly rendering = new Map<string, Promise<void>>();

  constructor(
    private readonly ds: DataSource,
    private readonly storage: Storage,
  ) {}

  coverage(point: GeoPoint): Promise<Coverage> {
    return postgisCoverage(this.ds, point);
  }

  async imageUrl(point: GeoPoint, orientation: Orientation, size: ImageSize): Promise<string | null> {
    if (!hasImagery(await this.coverage(point), orientation)) return null;
    const centre = roundedLocation(point);
    const scene = await loadScene(this.ds, centre);
    const key = `idan/${centre.lat.toFixed(5)}_${centre.lng.toFixed(5)}/${orientation}-${size}-${scene.fingerprint}.jpg`;
    if (!(await this.storage.exists(key))) {
      // Two requests for one picture (the full and small URL calls often arrive together for a view)
      // share one rendering.
      let pending = this.rendering.get(key);
      if (!pending) {
        pending = renderJpeg(scene, orientation, size)
          .then((jpeg) => this.storage.put(key, jpeg, { contentType: 'image/jpeg' }))
          .then(() => undefined)
          .finally(() => this.rendering.delete(key));
        this.rendering.set(key, pending);
      }
      await pending;
    }
    return `${IMAGERY_API.images}${key}`;
  }
}

/** How long the template provider waits for the imagery service's coverage answer. */
export const COVERAGE_TIMEOUT_MS = 5000;

/**
 * Points at a real imagery service: URLs are filled from templates ({lat}, {lng}, {orientation}), and
 * coverage comes from the service's coverage template when set, else from the polygons in PostGIS.
 */
export class TemplateImageryProvider implements ImageryProvider {
  constructor(
    private readonly ds: DataSource,
    private readonly config: Extract<ImageryProviderConfig, { kind: 'template' }>,
    private readonly fetchImpl: typeof fetch = fetch,
  ) {}

  async coverage(point: GeoPoint): Promise<Coverage> {
    const template = this.config.coverageUrlTemplate;
    if (!template) return postgisCoverage(this.ds, point);
    let answer: unknown;
    try {
      const response = await this.fetchImpl(fillTemplate(template, point), {
        signal: AbortSignal.timeout(COVERAGE_TIMEOUT_MS),
        headers: { accept: 'application/json' },
      });
      if (!response.ok) throw new Error(`status ${response.status}`);
      answer = await response.json();
    } catch (error) {
      throw new HttpError(502, `The imagery service's coverage call failed: ${(error as Error).message}`);
    }
    const { covered, ortho } = (answer ?? {}) as { covered?: unknown; ortho?: unknown };
    if (typeof covered !== 'boolean' || typeof ortho !== 'boolean')
      throw new HttpError(502, `The imagery service's coverage answer has no covered/ortho flags.`);
    return { covered, ortho: ortho || covered };
  }

  async imageUrl(point: GeoPoint, orientation: Orientation, size: ImageSize): Promise<string | null> {
    if (!hasImagery(await this.coverage(point), orientation)) return null;
    const template = size === 'small' ? this.config.smallImageUrlTemplate : this.config.imageUrlTemplate;
    return fillTemplate(template, point, orientation);
  }
}

/** Replaces {lat}, {lng} and {orientation} in a URL template (values URL-encoded). */
export function fillTemplate(template: string, point: GeoPoint, orientation?: Orientation): string {
  return template
    .replaceAll('{lat}', encodeURIComponent(String(point.lat)))
    .replaceAll('{lng}', encodeURIComponent(String(point.lng)))
    .replaceAll('{orientation}', encodeURIComponent(orientation ?? ''));
}

export function createImageryProvider(
  config: ImageryProviderConfig,
  ds: DataSource,
  storage: Storage,
): ImageryProvider {
  return config.kind === 'template'
    ? new TemplateImageryProvider(ds, config)
    : new BuiltinImageryProvider(ds, storage);
}
