import { AVS_API, IMAGERY_API, TILES_API } from './geo';
import { SURVEY_API } from './imagery';
import { OGC_API } from './ogc';
import { VALIDATION_API } from './validation';

/**
 * The locator's routes as services/locator registers them (Fastify's `:param` spelling). These are the keys
 * libs/domain/src/routeAccess.ts looks a route up by, so a path here changes only with its entry there; the
 * screens build their URLs with AVS_API, IMAGERY_API, TILES_API and VALIDATION_API.
 */
export const LOCATOR_ROUTES = {
  geocode: AVS_API.geocode,
  search: AVS_API.search,
  searchPostal: AVS_API.searchPostal,
  reverse: AVS_API.reverse,
  geojson: AVS_API.geojson,
  satelliteTile: `${TILES_API.prefix}satellite/:z/:x/:y.jpg`,
  vectorTile: `${TILES_API.prefix}:layer/:z/:x/:y.mvt`,
  /** A vector layer's TileJSON 3.0.0 document (issue 23). */
  tileJson: `${TILES_API.prefix}:layer.json`,
  coverage: IMAGERY_API.coverage,
  imageUrl: IMAGERY_API.imageUrl,
  smallImageUrl: IMAGERY_API.smallImageUrl,
  /** The built-in provider's rendered images (a wildcard under IMAGERY_API.images). */
  images: `${IMAGERY_API.images}*`,
  surveys: SURVEY_API.surveys,
  changes: SURVEY_API.changes,
  buildings: SURVEY_API.buildings,
  /** The oblique viewer's proxy: a prefix, every path under it is proxied. */
  pictometryProxy: IMAGERY_API.pictometryProxy,
  validate: VALIDATION_API.validate,
  validateBatch: VALIDATION_API.batch,
  /** OGC API – Features (issue 23). */
  ogcLanding: OGC_API.landing,
  ogcConformance: OGC_API.conformance,
  ogcCollections: OGC_API.collections,
  ogcCollection: OGC_API.collection(':collectionId'),
  ogcItems: OGC_API.items(':collectionId'),
  ogcItem: OGC_API.item(':collectionId', ':featureId'),
} as const;
