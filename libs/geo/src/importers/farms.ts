import { GEOMETRY, type Queryable } from '../load/upsert';
import { type FeatureInput, featureSourceId, type ImportOptions, runFeatureImport } from './common';
import { type FieldMapping, integerField, textField } from './fields';
import { checkPolygonal } from './geometry';
import { linkFarmsToParcels } from './link';
import { type ImportSummary } from './run';
import { TableWriter } from './writer';

export type FarmField = 'id' | 'name' | 'farmNumber' | 'portion' | 'division' | 'town' | 'province';

export const FARM_FIELDS: Required<FieldMapping<FarmField>> = {
  id: ['farm_id', 'id', 'objectid', 'fid', 'gid'],
  name: ['farm_name', 'farmname', 'name'],
  farmNumber: ['farm_number', 'farm_no', 'farmno', 'number', 'parcel_no', 'prcl_no'],
  portion: ['portion', 'portion_no', 'ptn'],
  division: ['division', 'registration_division', 'reg_div', 'regdiv', 'rd', 'major_region'],
  town: ['town', 'nearest_town', 'city'],
  province: ['province', 'prov'],
};

export interface FarmImportOptions extends ImportOptions {
  fields?: FieldMapping<FarmField>;
}

/**
 * "Rietfontein 189 JR" is a farm's name, number and registration division written together: split it when
 * the number has no field of its own.
 */
export function splitFarmName(text: string): { name: string; farmNumber?: number; division?: string } {
  const match = /^(.*?[^\d\s])\s+(\d{1,5})(?:\s+([A-Z]{2}))?$/.exec(text.trim());
  if (!match) return { name: text.trim() };
  return { name: match[1], farmNumber: Number(match[2]), division: match[3] };
}

/** Farms from GeoJSON polygons: name (required), farm number, portion, registration division, town, province. */
export async function importFarms(
  db: Queryable,
  input: FeatureInput,
  options: FarmImportOptions = {},
): Promise<ImportSummary> {
  const fields = { ...FARM_FIELDS, ...options.fields };
  return runFeatureImport(db, 'farms', input, options, (run) => {
    const farms = new TableWriter(db, run, 'geo.farms', FARM_COLUMNS, {
      batchSize: options.batchSize,
      polygonColumn: { index: 6, shape: 'multipolygon' },
    });
    return {
      writers: [farms],
      handle(feature, where) {
        const p = feature.properties;
        const written = textField(p, fields.name);
        if (!written) return run.reject('missing farm name', where);
        let farmNumber = integerField(p, fields.farmNumber);
        if (Number.isNaN(farmNumber) || (farmNumber !== undefined && farmNumber < 0)) {
          return run.reject('farm number is not a whole number', where);
        }
        let name = written;
        let division = textField(p, fields.division);
        if (farmNumber === undefined) {
          const split = splitFarmName(written);
          name = split.name;
          farmNumber = split.farmNumber;
          division ??= split.division;
        }
        const portion = integerField(p, fields.portion) ?? 0;
        if (Number.isNaN(portion) || portion < 0)
          return run.reject('portion is not a whole number ≥ 0', where);
        const geometry = checkPolygonal(feature.geometry);
        if (!geometry.ok) return run.reject(geometry.reason, where);
        const sourceId = featureSourceId(
          textField(p, fields.id),
          feature,
          () => `${division ?? ''}|${farmNumber ?? name}|${portion}`,
        )!;
        farms.add(
          sourceId,
          [
            name,
            farmNumber ?? null,
            portion,
            division ?? '',
            textField(p, fields.town) ?? '',
            textField(p, fields.province) ?? '',
            geometry.geojson,
          ],
          where,
        );
      },
      async finish() {
        if (options.link !== false) await linkFarmsToParcels(db, run.summary.source);
      },
    };
  });
}

/** geo.farms columns in the order FarmRow values are written (shared with the OSM importer). */
export const FARM_COLUMNS = [
  { name: 'name', type: 'text' },
  { name: 'farm_number', type: 'int4' },
  { name: 'portion', type: 'int4' },
  { name: 'division', type: 'text' },
  { name: 'town', type: 'text' },
  { name: 'province', type: 'text' },
  { name: 'geom', type: 'text', expression: GEOMETRY.multiPolygon },
] as const;
