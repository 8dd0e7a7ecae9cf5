import type { DataSource } from 'typeorm';
import type { Survey } from '@portal/contracts';
import type { Storage } from '@portal/server-kit';
import { tileBoundsDegrees, type TileAddress } from '../tiles/render';
import { renderOrthoTileJpeg } from './render';
import { boxExtentM, loadSceneArea, sceneFingerprint, type DegreeBox, type SceneArea } from './scene';

/** Satellite tiles are drawn from this zoom on; below it a tile would hold a town's every roof. */
export const SATELLITE_MIN_ZOOM = 13;
/** Deepest satellite tile; the map upscales beyond it. */
export const SATELLITE_MAX_ZOOM = 19;
/** Tile edge in pixels (spec 01 §9). */
export const SATELLITE_TILE_SIZE = 512;
/** Rows are read this far (metres) beyond the tile, so shadows and edges of neighbours reach in. */
const SATELLITE_READ_MARGIN_M = 40;

export interface SatelliteTile {
  jpeg: Buffer;
  /** The stored object's ETag (a hash of the bytes). */
  etag: string;
}

/**
 * The portal's own satellite view of one XYZ tile: the rows in the tile's box drawn top-down in the
 * built-in ortho imagery's style (render.ts) — the buildings standing today, or at a survey's capture
 * date — stored under `satellite/<z>/<x>/<y>-<survey id or 'now'>-<fingerprint>.jpg` and rendered only
 * once per scene. Null when the tile holds nothing to draw (sea, no data).
 */
export class SatelliteTiles {
  private readonly rendering = new Map<string, Promise<SatelliteTile>>();

  constructor(
    private readonly ds: DataSource,
    private readonly storage: Storage,
  ) {}

  async tile(address: TileAddress, survey: Survey | null = null): Promise<SatelliteTile | null> {
    const box = tileBoundsDegrees(address) as DegreeBox;
    const [west, south, east, north] = box;
    const centre = { lat: (south + north) / 2, lng: (west + east) / 2 };
    const extent = boxExtentM(box);
    const marginLat = (SATELLITE_READ_MARGIN_M / extent.heightM) * (north - south);
    const marginLng = (SATELLITE_READ_MARGIN_M / extent.widthM) * (east - west);
    const area: SceneArea = {
      box: [west - marginLng, south - marginLat, east + marginLng, north + marginLat],
      centre,
      here: null,
      cutMargin: marginLat,
    };
    // The fingerprint alone finds a stored tile; the scene is read only to draw a new one.
    const { fingerprint, empty } = await sceneFingerprint(this.ds, area, survey);
    if (empty) return null;
    const key = `satellite/${address.z}/${address.x}/${address.y}-${survey ? `s${survey.id}` : 'now'}-${fingerprint}.jpg`;
    const stored = await this.storage.get(key);
    if (stored) return { jpeg: stored.data, etag: stored.info.etag };
    let pending = this.rendering.get(key);
    if (!pending) {
      pending = loadSceneArea(this.ds, area, survey)
        .then((scene) => renderOrthoTileJpeg(scene, SATELLITE_TILE_SIZE, extent))
        .then(async (jpeg) => {
          const info = await this.storage.put(key, jpeg, { contentType: 'image/jpeg' });
          return { jpeg, etag: info.etag };
        })
        .finally(() => this.rendering.delete(key));
      this.rendering.set(key, pending);
    }
    return pending;
  }
}
