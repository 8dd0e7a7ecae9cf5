import { GEOMETRY, type Queryable } from '../load/upsert';
import { type FeatureInput, featureSourceId, type ImportOptions, runFeatureImport } from './common';
import { type FieldMapping, textField } from './fields';
import { checkPolygonal } from './geometry';
import { type ImportSummary } from './run';
import { TableWriter } from './writer';

export type CoverageField = 'id' | 'kind' | 'name' | 'capturedOn';
export type CoverageKind = 'high_resolution' | 'ortho';

export const COVERAGE_FIELDS: Required<FieldMapping<CoverageField>> = {
  id: ['coverage_id', 'id', 'objectid', 'fid'],
  kind: ['kind', 'coverage', 'imagery', 'type'],
  name: ['name', 'title', 'project', 'flight'],
  capturedOn: ['captured_on', 'captured', 'capture_date', 'date', 'flown', 'acquired'],
};

export interface CoverageImportOptions extends ImportOptions {
  fields?: FieldMapping<CoverageField>;
  /** The kind of every polygon in the file, when the file has no kind field. */
  kind?: CoverageKind;
}

/** The words coverage files use for the two kinds. */
export function coverageKind(text: string | undefined): CoverageKind | undefined {
  const word = text?.toLowerCase().replace(/[\s-]+/g, '_');
  if (!word) return undefined;
  if (['high_resolution', 'highres', 'high_res', 'hires', 'oblique', 'hr'].includes(word))
    return 'high_resolution';
  if (['ortho', 'orthophoto', 'orthophotos', 'orthomosaic', 'ortho_only'].includes(word)) return 'ortho';
  return undefined;
}

/** A date in the forms files carry it (2024-03-18, 2024/03/18, 2024): as YYYY-MM-DD, or undefined. */
export function isoDate(text: string | undefined): string | undefined {
  if (!text) return undefined;
  const match = /^(\d{4})(?:[-/](\d{1,2})(?:[-/](\d{1,2}))?)?/.exec(text.trim());
  if (!match) return undefined;
  const [year, month = 1, day = 1] = match
    .slice(1)
    .map((part) => (part ? Number(part) : undefined)) as number[];
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return undefined;
  return date.toISOString().slice(0, 10);
}

/** Imagery coverage polygons: kind (high_resolution or ortho, from a field or the option), name, capture date. */
export async function importCoverage(
  db: Queryable,
  input: FeatureInput,
  options: CoverageImportOptions = {},
): Promise<ImportSummary> {
  const fields = { ...COVERAGE_FIELDS, ...options.fields };
  return runFeatureImport(db, 'coverage', input, options, (run) => {
    const coverage = new TableWriter(
      db,
      run,
      'geo.imagery_coverage',
      [
        { name: 'kind', type: 'text' },
        { name: 'name', type: 'text' },
        { name: 'captured_on', type: 'date' },
        { name: 'geom', type: 'text', expression: GEOMETRY.multiPolygon },
      ],
      { batchSize: options.batchSize, polygonColumn: { index: 3, shape: 'multipolygon' } },
    );
    return {
      writers: [coverage],
      handle(feature, where) {
        const p = feature.properties;
        const written = textField(p, fields.kind);
        const kind = options.kind ?? coverageKind(written);
        if (!kind) {
          return run.reject(
            written
              ? 'bad coverage kind (not high_resolution or ortho)'
              : 'missing coverage kind (no field, no --coverage-kind)',
            where,
          );
        }
        const capturedText = textField(p, fields.capturedOn);
        const capturedOn = isoDate(capturedText);
        if (capturedText && !capturedOn) run.warn('capture date not understood, left empty');
        const geometry = checkPolygonal(feature.geometry);
        if (!geometry.ok) return run.reject(geometry.reason, where);
        const name = textField(p, fields.name) ?? '';
        const sourceId = featureSourceId(
          textField(p, fields.id),
          feature,
          () => `${kind}|${name}|${capturedOn ?? ''}`,
        )!;
        coverage.add(sourceId, [kind, name, capturedOn ?? null, geometry.geojson], where);
      },
    };
  });
}
