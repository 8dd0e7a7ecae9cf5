import { GEOMETRY, type Queryable } from '../load/upsert';
import { type FeatureInput, featureSourceId, type ImportOptions, runFeatureImport } from './common';
import { type FieldMapping, integerField, textField } from './fields';
import { checkPolygonal } from './geometry';
import { linkParcelsToContents } from './link';
import { type ImportSummary } from './run';
import { TableWriter } from './writer';

export type ParcelField =
  'id' | 'parcelNumber' | 'portion' | 'sgKey' | 'parcelType' | 'dataQuality' | 'town' | 'suburb';

/** Where parcel fields usually are (matched without regard to case); override per field. */
export const PARCEL_FIELDS: Required<FieldMapping<ParcelField>> = {
  id: ['parcel_id', 'id', 'objectid', 'fid', 'gid'],
  parcelNumber: [
    'parcel_number',
    'parcel_no',
    'parcelno',
    'prcl_no',
    'erf_no',
    'erf_number',
    'erf',
    'parcel',
  ],
  portion: ['portion', 'portion_no', 'ptn', 'prtn'],
  sgKey: ['sg_key', 'sg21', 'sg_code', 'sgcode', 'id21', 'sg21_code', 'tag_value'],
  parcelType: ['parcel_type_id', 'parcel_type', 'type_id'],
  dataQuality: ['data_quality_id', 'data_quality', 'quality'],
  town: ['town', 'town_name', 'township', 'city'],
  suburb: ['suburb', 'suburb_name', 'extension'],
};

export interface ParcelImportOptions extends ImportOptions {
  fields?: FieldMapping<ParcelField>;
}

/** The Surveyor-General's 21-character key: an office letter, then 20 letters or digits. */
const SG_KEY = /^[A-Z][A-Z0-9]{20}$/;

/**
 * Cadastral parcels from GeoJSON (Polygon or MultiPolygon features): parcel number (required), portion
 * (default 0), SG key, parcel type and data quality codes, town and suburb. A feature's rows are kept under
 * its id field, else the feature id, else its SG key, else town/parcel number/portion.
 */
export async function importParcels(
  db: Queryable,
  input: FeatureInput,
  options: ParcelImportOptions = {},
): Promise<ImportSummary> {
  const fields = { ...PARCEL_FIELDS, ...options.fields };
  return runFeatureImport(db, 'parcels', input, options, (run) => {
    const parcels = new TableWriter(
      db,
      run,
      'geo.parcels',
      [
        { name: 'parcel_number', type: 'text' },
        { name: 'portion', type: 'int4' },
        { name: 'parcel_type_id', type: 'int4' },
        { name: 'data_quality_id', type: 'int4' },
        { name: 'sg_key', type: 'text' },
        { name: 'town', type: 'text' },
        { name: 'suburb', type: 'text' },
        { name: 'geom', type: 'text', expression: GEOMETRY.multiPolygon },
      ],
      { batchSize: options.batchSize, polygonColumn: { index: 7, shape: 'multipolygon' } },
    );
    return {
      writers: [parcels],
      handle(feature, where) {
        const p = feature.properties;
        const parcelNumber = textField(p, fields.parcelNumber);
        if (!parcelNumber) return run.reject('missing parcel number', where);
        const portion = integerField(p, fields.portion) ?? 0;
        if (Number.isNaN(portion) || portion < 0)
          return run.reject('portion is not a whole number ≥ 0', where);
        const parcelType = integerField(p, fields.parcelType) ?? 1;
        if (Number.isNaN(parcelType)) return run.reject('parcel type is not a whole number', where);
        const dataQuality = integerField(p, fields.dataQuality) ?? 0;
        if (Number.isNaN(dataQuality)) return run.reject('data quality is not a whole number', where);
        const sgKey = textField(p, fields.sgKey)?.toUpperCase();
        if (sgKey && !SG_KEY.test(sgKey))
          return run.reject('bad SG key (not a letter and 20 letters or digits)', where);
        const town = textField(p, fields.town) ?? '';
        const geometry = checkPolygonal(feature.geometry);
        if (!geometry.ok) return run.reject(geometry.reason, where);
        const sourceId = featureSourceId(
          textField(p, fields.id),
          feature,
          () => sgKey ?? `${town}|${parcelNumber}|${portion}`,
        )!;
        parcels.add(
          sourceId,
          [
            parcelNumber,
            portion,
            parcelType,
            dataQuality,
            sgKey ?? null,
            town,
            textField(p, fields.suburb) ?? '',
            geometry.geojson,
          ],
          where,
        );
      },
      async finish() {
        if (options.link !== false) await linkParcelsToContents(db, run.summary.source);
      },
    };
  });
}
