import type { TileJson, TileLayer } from '@portal/contracts';
import { TILES_API } from '@portal/contracts';
import type { ExtentCache, SpatialTable } from '../ogc/extent';
import { TILE_LAYER_DEFINITIONS } from './layers';
import { MAX_TILE_ZOOM } from './render';

/**
 * What a GIS tool needs to know of a vector tile layer before asking for its tiles (TileJSON 3.0.0):
 * the URL template, the zooms the tile route serves, where the data is, and the attributes each feature
 * carries. `fields` must say what layers.ts really writes into the tiles (tiles.test.ts decodes a tile of
 * each layer and compares): MVT knows String, Number and Boolean.
 */
export const TILE_LAYER_DESCRIPTIONS: Record<
  TileLayer,
  { table: SpatialTable; name: string; description: string; fields: Record<string, string> }
> = {
  places: {
    table: 'places',
    name: 'Places',
    description:
      'Country, provinces, towns and suburbs as labelled points; the most important first per tile.',
    fields: { name: 'String', kind: 'String', population: 'Number', importance: 'Number' },
  },
  roads: {
    table: 'streets',
    name: 'Roads',
    description: 'Named streets as lines.',
    fields: { name: 'String', importance: 'Number' },
  },
  parcels: {
    table: 'parcels',
    name: 'Parcels',
    description: 'Cadastral parcels (erven and farm portions) as polygons; the feature id is the parcel id.',
    fields: { parcel_number: 'String', portion: 'Number' },
  },
  addresses: {
    table: 'addresses',
    name: 'Addresses',
    description: 'Street addresses as points; the feature id is the address id.',
    fields: { house_number: 'String', street_name: 'String' },
  },
};

export const TILE_ATTRIBUTION = 'Property portal';

/** The layer's TileJSON document; `publicUrl` makes the tile template absolute. */
export async function tileJson(layer: TileLayer, publicUrl: string, extents: ExtentCache): Promise<TileJson> {
  const described = TILE_LAYER_DESCRIPTIONS[layer];
  const minzoom = TILE_LAYER_DEFINITIONS[layer].minZoom;
  const bounds = await extents.bbox(described.table);
  const centre = [
    Math.round(((bounds[0] + bounds[2]) / 2) * 1e6) / 1e6,
    Math.round(((bounds[1] + bounds[3]) / 2) * 1e6) / 1e6,
    Math.max(minzoom, 14),
  ];
  return {
    tilejson: '3.0.0',
    name: described.name,
    description: described.description,
    attribution: TILE_ATTRIBUTION,
    scheme: 'xyz',
    tiles: [`${publicUrl}${TILES_API.template(layer)}`],
    minzoom,
    maxzoom: MAX_TILE_ZOOM,
    bounds,
    center: centre,
    vector_layers: [
      {
        id: layer,
        description: described.description,
        minzoom,
        maxzoom: MAX_TILE_ZOOM,
        fields: described.fields,
      },
    ],
  };
}
