import { createReadStream } from 'node:fs';
import { basename } from 'node:path';
import { parse } from 'csv-parse';
import { padPostalCode } from '../text';
import { GEOMETRY, type Queryable } from '../load/upsert';
import { assertGeoSchema, defaultSource, type ImportOptions, inputSize } from './common';
import { type FieldMapping, numberField, type Properties, textField } from './fields';
import { checkLonLat, pointGeoJson } from './geometry';
import { createProgress } from './progress';
import { ImportRun, type ImportSummary } from './run';
import { TableWriter } from './writer';

export type PostalField = 'id' | 'streetCode' | 'boxCode' | 'suburb' | 'town' | 'province' | 'lat' | 'lon';

export const POSTAL_FIELDS: Required<FieldMapping<PostalField>> = {
  id: ['postal_id', 'id'],
  streetCode: ['street_code', 'streetcode', 'str_code', 'street'],
  boxCode: ['box_code', 'boxcode', 'box', 'po_box_code'],
  suburb: ['suburb', 'suburb_name', 'place'],
  town: ['area', 'town', 'city', 'town_name'],
  province: ['province', 'prov'],
  lat: ['lat', 'latitude', 'y'],
  lon: ['lon', 'lng', 'long', 'longitude', 'x'],
};

export interface PostalImportOptions extends ImportOptions {
  fields?: FieldMapping<PostalField>;
  /** The CSV's delimiter (default: detected among , ; tab |). */
  delimiter?: string;
}

/**
 * South African postal codes from CSV (a header row names the columns): suburb (required), town, province,
 * street code and box code (at least one; each padded to 4 digits: "300" is 0300), and optionally a point.
 * A row is kept under its id column, else suburb/town/street code/box code.
 */
export async function importPostalCodes(
  db: Queryable,
  file: string,
  options: PostalImportOptions = {},
): Promise<ImportSummary> {
  const fields = { ...POSTAL_FIELDS, ...options.fields };
  const size = await inputSize(file);
  await assertGeoSchema(db);
  const run = await ImportRun.start(db, 'postal', options.source ?? defaultSource(file), file);
  const postal = new TableWriter(
    db,
    run,
    'geo.postal_codes',
    [
      { name: 'street_code', type: 'text' },
      { name: 'box_code', type: 'text' },
      { name: 'suburb', type: 'text' },
      { name: 'town', type: 'text' },
      { name: 'province', type: 'text' },
      { name: 'point', type: 'text', expression: GEOMETRY.point },
    ],
    { batchSize: options.batchSize ?? 5000 },
  );
  const progress = createProgress({ mode: options.progress, label: `postal ${basename(file)}`, total: size });
  const counts = () => ({ read: run.summary.read, loaded: run.loadedCount, rejected: run.rejectedCount });
  const stream = createReadStream(file);
  const parser = stream.pipe(
    parse({
      columns: true,
      bom: true,
      trim: true,
      skip_empty_lines: true,
      relax_column_count: true,
      delimiter: options.delimiter ?? [',', ';', '\t', '|'],
    }),
  );
  try {
    let line = 1;
    for await (const record of parser as AsyncIterable<Properties>) {
      line++;
      run.countRead();
      handleRow(record, `line ${line}`);
      if (postal.full) await postal.flush();
      progress.update(stream.bytesRead, counts());
    }
    await postal.flush();
    if (options.link !== false) await linkPostalCodesToPlaces(db, run.summary.source);
  } catch (err) {
    run.warn(`import stopped: ${(err as Error).message}`);
    await run.finish().catch(() => undefined);
    progress.stop(counts());
    throw err;
  }
  progress.stop(counts());
  return run.finish();

  function handleRow(row: Properties, where: string): void {
    const suburb = textField(row, fields.suburb);
    if (!suburb) return run.reject('missing suburb', where);
    const streetText = textField(row, fields.streetCode);
    const boxText = textField(row, fields.boxCode);
    if (!streetText && !boxText)
      return run.reject('missing postal code (no street code, no box code)', where);
    const streetCode = padPostalCode(streetText);
    const boxCode = padPostalCode(boxText);
    if ((streetText && !streetCode) || (boxText && !boxCode))
      return run.reject('bad postal code (not 1 to 4 digits)', where);
    let point: string | null = null;
    const lat = numberField(row, fields.lat);
    const lon = numberField(row, fields.lon);
    if (lat !== undefined || lon !== undefined) {
      const checked = checkLonLat(lon, lat);
      if (!checked.ok) return run.reject(checked.reason, where);
      point = pointGeoJson(checked.lon, checked.lat);
    } else {
      run.warn('no coordinates: postal code loaded without a point');
    }
    const town = textField(row, fields.town) ?? '';
    const sourceId =
      textField(row, fields.id) ?? `${suburb}|${town}|${streetCode ?? ''}|${boxCode ?? ''}`.toUpperCase();
    postal.add(
      sourceId,
      [streetCode ?? null, boxCode ?? null, suburb, town, textField(row, fields.province) ?? '', point],
      where,
    );
  }
}

/**
 * Postal codes of `source` to the suburb or town place of their name (a suburb's name first, then the
 * nearest): two equality joins on the lower-cased names (hash joins), not a lookup per code.
 */
async function linkPostalCodesToPlaces(db: Queryable, source: string): Promise<void> {
  await db.query(
    `WITH pairs AS (
       SELECT c.id, p.id AS place_id, 0 AS rank, c.point AS code_point, p.point AS place_point
       FROM geo.postal_codes c JOIN geo.places p ON lower(p.name) = lower(c.suburb)
       WHERE c.source = $1 AND c.place_id IS NULL AND p.kind IN ('suburb', 'town')
       UNION ALL
       SELECT c.id, p.id, 1, c.point, p.point
       FROM geo.postal_codes c JOIN geo.places p ON lower(p.name) = lower(c.town)
       WHERE c.source = $1 AND c.place_id IS NULL AND p.kind IN ('suburb', 'town')
     ), best AS (
       SELECT DISTINCT ON (id) id, place_id FROM pairs
       WHERE code_point IS NULL OR ST_DWithin(place_point, code_point, 0.5)
       ORDER BY id, rank, ST_Distance(place_point, coalesce(code_point, place_point))
     )
     UPDATE geo.postal_codes c SET place_id = best.place_id FROM best WHERE c.id = best.id`,
    [source],
  );
}
