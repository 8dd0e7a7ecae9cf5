import { GEOMETRY, type Queryable } from '../load/upsert';
import { type FeatureInput, featureSourceId, type ImportOptions, runFeatureImport } from './common';
import { type FieldMapping, integerField, textField } from './fields';
import { checkPoint, checkPolygonal, pointGeoJson } from './geometry';
import {
  linkPlaceParentsByCode,
  linkPlaceParentsByPosition,
  type PlaceKind,
  removeNearDuplicatePlaces,
} from './link';
import { type ImportSummary } from './run';
import { TableWriter } from './writer';

export type PlaceField = 'id' | 'kind' | 'name' | 'code' | 'parentCode' | 'population';

export const PLACE_FIELDS: Required<FieldMapping<PlaceField>> = {
  id: ['place_id', 'id', 'geonameid', 'objectid', 'fid'],
  kind: ['kind', 'place', 'level'],
  name: ['name', 'place_name', 'municname', 'province'],
  code: ['code', 'place_code', 'cat_b'],
  parentCode: ['parent_code', 'parent_cod', 'parentcode', 'parent'],
  population: ['population', 'pop', 'pop_total'],
};

export interface PlaceImportOptions extends ImportOptions {
  fields?: FieldMapping<PlaceField>;
  /** The kind of every place in the file, when it has no kind field. */
  kind?: PlaceKind;
  /**
   * Leave out places another source already has: same kind and name within this many metres (a towns file
   * laid over another one).
   */
  skipNearDuplicatesMeters?: number;
}

const KIND_WORDS: Record<string, PlaceKind> = {
  country: 'country',
  province: 'province',
  district: 'district',
  metro: 'municipality',
  municipality: 'municipality',
  local_municipality: 'municipality',
  town: 'town',
  city: 'town',
  village: 'town',
  hamlet: 'town',
  locality: 'town',
  suburb: 'suburb',
  neighbourhood: 'suburb',
  neighborhood: 'suburb',
  quarter: 'suburb',
  sub_place: 'suburb',
};

export function placeKind(text: string | undefined): PlaceKind | undefined {
  return text
    ? KIND_WORDS[
        text
          .toLowerCase()
          .trim()
          .replace(/[\s-]+/g, '_')
      ]
    : undefined;
}

/** The shape of the codes of the Municipal Demarcation Board (MDB): provinces, districts, municipalities. */
const CODE_PATTERNS: Partial<Record<PlaceKind, RegExp>> = {
  province: /^(EC|FS|GT|GP|KZN|LIM|MP|NC|NW|WC)$/,
  district: /^(DC\d{1,2}|[A-Z]{3})$/,
  municipality: /^([A-Z]{2,3}\d{2,3}|[A-Z]{3})$/,
};

/**
 * How much a place weighs between equally good search matches (0..1): by kind, and for towns and suburbs
 * by population on a log scale (a town of 10 million would be 1).
 */
export function placeImportance(kind: PlaceKind, population: number): number {
  const scale = (floor: number, span: number, digits: number) =>
    floor + span * Math.min(1, Math.log10(Math.max(1, population)) / digits);
  switch (kind) {
    case 'country':
      return 1;
    case 'province':
      return 0.9;
    case 'district':
      return 0.75;
    case 'municipality':
      return 0.7;
    case 'town':
      return Math.round(scale(0.3, 0.7, 7) * 1000) / 1000;
    default:
      return Math.round(scale(0.15, 0.35, 6) * 1000) / 1000;
  }
}

/**
 * Places from GeoJSON: boundaries (Polygon/MultiPolygon: provinces, districts, municipalities, with MDB
 * codes and parent codes; the point is a point on the surface) or points (towns, suburbs). Parents are
 * linked by parent code, else (towns, suburbs) by position.
 */
export async function importPlaces(
  db: Queryable,
  input: FeatureInput,
  options: PlaceImportOptions = {},
): Promise<ImportSummary> {
  const fields = { ...PLACE_FIELDS, ...options.fields };
  return runFeatureImport(db, 'places', input, options, (run) => {
    const places = new TableWriter(
      db,
      run,
      'geo.places',
      [
        { name: 'kind', type: 'text' },
        { name: 'name', type: 'text' },
        { name: 'code', type: 'text' },
        { name: 'population', type: 'int4' },
        { name: 'importance', type: 'float4' },
        {
          name: 'point',
          type: 'text',
          expression: 'ST_PointOnSurface(ST_MakeValid(ST_SetSRID(ST_GeomFromGeoJSON($), 4326)))',
        },
        { name: 'geom', type: 'text', expression: GEOMETRY.multiPolygon },
      ],
      { batchSize: options.batchSize, polygonColumn: { index: 6, shape: 'multipolygon' } },
    );
    const parents: { sourceId: string; parentCode: string }[] = [];
    return {
      writers: [places],
      handle(feature, where) {
        const p = feature.properties;
        const kindText = textField(p, fields.kind);
        const kind = options.kind ?? placeKind(kindText);
        if (!kind)
          return run.reject(kindText ? `unknown place kind "${kindText}"` : 'missing place kind', where);
        const name = textField(p, fields.name);
        if (!name) return run.reject('missing name', where);
        const code = textField(p, fields.code)?.toUpperCase();
        if (code && CODE_PATTERNS[kind] && !CODE_PATTERNS[kind]!.test(code)) {
          return run.reject(`bad ${kind} code`, where);
        }
        const population = integerField(p, fields.population) ?? 0;
        if (Number.isNaN(population) || population < 0)
          return run.reject('population is not a whole number ≥ 0', where);

        let point: string;
        let area: string | null = null;
        const type = (feature.geometry as { type?: unknown } | null)?.type;
        if (type === 'Point') {
          const checked = checkPoint(feature.geometry);
          if (!checked.ok) return run.reject(checked.reason, where);
          point = pointGeoJson(checked.lon, checked.lat);
        } else {
          const checked = checkPolygonal(feature.geometry);
          if (!checked.ok) return run.reject(checked.reason, where);
          point = area = checked.geojson;
        }
        const sourceId = featureSourceId(
          textField(p, fields.id),
          feature,
          () => code ?? `${kind}|${name}|${point}`,
        )!;
        if (
          places.add(
            sourceId,
            [kind, name, code ?? null, population, placeImportance(kind, population), point, area],
            where,
          )
        ) {
          const parentCode = textField(p, fields.parentCode);
          if (parentCode) parents.push({ sourceId, parentCode });
        }
      },
      async finish() {
        const source = run.summary.source;
        if (options.skipNearDuplicatesMeters) {
          const removed = await removeNearDuplicatePlaces(db, source, options.skipNearDuplicatesMeters);
          if (removed) {
            run.loaded('places', -removed);
            run.summary.rejected[
              `already known from another source (same name within ${options.skipNearDuplicatesMeters} m)`
            ] = removed;
          }
        }
        const missing = await linkPlaceParentsByCode(db, source, parents);
        if (missing.size) {
          const reason = `parent code matches no place${options.link !== false ? ' (linked by position instead)' : ''}`;
          run.warn(
            reason,
            [...missing.values()].reduce((a, b) => a + b, 0),
          );
          run.summary.examples[reason] = [...missing.keys()].slice(0, 10);
        }
        if (options.link !== false) await linkPlaceParentsByPosition(db, source);
      },
    };
  });
}
