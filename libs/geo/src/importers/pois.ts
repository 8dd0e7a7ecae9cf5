import { type Queryable } from '../load/upsert';
import { type FeatureInput, featureSourceId, type ImportOptions, runFeatureImport } from './common';
import { type FieldMapping, integerField, numberField, textField } from './fields';
import { checkPoint, checkPolygonal, pointGeoJson } from './geometry';
import { linkToParcels } from './link';
import { type ImportSummary } from './run';
import { TableWriter } from './writer';

export type PoiField = 'id' | 'name' | 'category' | 'poiType' | 'suburb' | 'town' | 'importance';

export const POI_FIELDS: Required<FieldMapping<PoiField>> = {
  id: ['poi_id', 'id', 'objectid', 'fid'],
  name: ['name', 'poi_name', 'title'],
  category: ['category', 'amenity', 'class', 'type'],
  poiType: ['poi_type', 'poi_type_id'],
  suburb: ['suburb'],
  town: ['town', 'city'],
  importance: ['importance'],
};

/** The address editor's POI types (spec 03 §3): a named place, an estate, a unit in an estate. */
export const POI_TYPES = [10000, 10500, 11000] as const;

export interface PoiImportOptions extends ImportOptions {
  fields?: FieldMapping<PoiField>;
  /** The category of every POI in the file, when it has no category field (e.g. "fire_station"). */
  category?: string;
  /** The POI type of every POI without a type field (default 10000). */
  poiType?: number;
  /** Importance of every POI without an importance field (0..1, default 0.3). */
  importance?: number;
}

/** POIs from GeoJSON points (or polygons: the POI goes on a point on their surface). */
export async function importPois(
  db: Queryable,
  input: FeatureInput,
  options: PoiImportOptions = {},
): Promise<ImportSummary> {
  const fields = { ...POI_FIELDS, ...options.fields };
  return runFeatureImport(db, 'pois', input, options, (run) => {
    const pois = new TableWriter(db, run, 'geo.pois', POI_COLUMNS, { batchSize: options.batchSize });
    return {
      writers: [pois],
      handle(feature, where) {
        const p = feature.properties;
        const name = textField(p, fields.name);
        if (!name) return run.reject('missing name', where);
        const poiType = integerField(p, fields.poiType) ?? options.poiType ?? 10000;
        if (!(POI_TYPES as readonly number[]).includes(poiType))
          return run.reject('bad POI type (not 10000, 10500 or 11000)', where);
        const importance = numberField(p, fields.importance) ?? options.importance ?? 0.3;
        if (Number.isNaN(importance) || importance < 0 || importance > 1) {
          return run.reject('importance is not a number from 0 to 1', where);
        }
        let point: string;
        const type = (feature.geometry as { type?: unknown } | null)?.type;
        if (type === 'Polygon' || type === 'MultiPolygon') {
          const checked = checkPolygonal(feature.geometry);
          if (!checked.ok) return run.reject(checked.reason, where);
          point = checked.geojson;
        } else {
          const checked = checkPoint(feature.geometry);
          if (!checked.ok) return run.reject(checked.reason, where);
          point = pointGeoJson(checked.lon, checked.lat);
        }
        const category = textField(p, fields.category) ?? options.category ?? '';
        const sourceId = featureSourceId(
          textField(p, fields.id),
          feature,
          () => `${category}|${name}|${point}`,
        )!;
        pois.add(
          sourceId,
          [
            name,
            poiType,
            category,
            textField(p, fields.suburb) ?? '',
            textField(p, fields.town) ?? '',
            importance,
            point,
          ],
          where,
        );
      },
      async finish() {
        if (options.link !== false) await linkToParcels(db, run.summary.source);
      },
    };
  });
}

/** geo.pois columns (shared with the OSM importer); the point is GeoJSON of a point or an area. */
export const POI_COLUMNS = [
  { name: 'name', type: 'text' },
  { name: 'poi_type', type: 'int4' },
  { name: 'category', type: 'text' },
  { name: 'suburb', type: 'text' },
  { name: 'town', type: 'text' },
  { name: 'importance', type: 'float4' },
  {
    name: 'point',
    type: 'text',
    expression: 'ST_PointOnSurface(ST_MakeValid(ST_SetSRID(ST_GeomFromGeoJSON($), 4326)))',
  },
] as const;
