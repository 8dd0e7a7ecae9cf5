import type { ServiceDeps, Storage } from '@portal/server-kit';
import type { DataSource } from 'typeorm';
import type { LocatorConfig } from './config';
import type { ImageryProvider } from './imagery/provider';
import type { ExtentCache } from './ogc/extent';

/** What the routes need, built once in app.ts. */
export interface LocatorContext extends ServiceDeps {
  config: LocatorConfig;
  /**
   * Where the read-only look-ups go (geocode, search, reverse, tiles, OGC items, extents): the read
   * replica's pool when DATABASE_READ_URL is set, else `ds` itself. Never written to.
   */
  readDs: DataSource;
  /** Where rendered pictures and satellite tiles are kept (IMAGERY_STORAGE_DIR). */
  imageryStorage: Storage;
  /** The configured imagery provider (built-in renderer or URL templates), shared by the imagery routes. */
  imagery: ImageryProvider;
  /** The spatial tables' extents, read once (TileJSON bounds, OGC collection extents). */
  extents: ExtentCache;
}
