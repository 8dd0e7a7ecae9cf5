import { GEOMETRY, type Queryable } from '../load/upsert';
import {
  type FeatureInput,
  featureSourceId,
  ImportInputError,
  type ImportOptions,
  runFeatureImport,
} from './common';
import { type FieldMapping, textField } from './fields';
import { checkPolygonal } from './geometry';
import { type ImportSummary } from './run';
import { TableWriter } from './writer';

export type CoverageField = 'id' | 'kind' | 'name' | 'capturedOn' | 'provider';
export type CoverageKind = 'high_resolution' | 'ortho';

export const COVERAGE_FIELDS: Required<FieldMapping<CoverageField>> = {
  id: ['coverage_id', 'id', 'objectid', 'fid'],
  kind: ['kind', 'coverage', 'imagery', 'type'],
  name: ['name', 'title', 'project', 'flight'],
  capturedOn: ['captured_on', 'captured', 'capture_date', 'date', 'flown', 'acquired'],
  provider: ['provider', 'vendor', 'supplier'],
};

/**
 * Who provides the pictures of a survey without a provider field or option: the portal's own renderer
 * (services/locator) draws every survey it has no provider for, imported ones included.
 */
export const DEFAULT_COVERAGE_PROVIDER = 'Portal imagery';

export interface CoverageImportOptions extends ImportOptions {
  fields?: FieldMapping<CoverageField>;
  /** The kind of every polygon in the file, when the file has no kind field. */
  kind?: CoverageKind;
  /**
   * The capture date (YYYY-MM-DD) of the polygons without one (or with one not understood). Default: the
   * day of the import (UTC) — a survey has a date; the summary counts the rows that took the default.
   */
  capturedOn?: string;
  /** The provider of the polygons without a provider field (default DEFAULT_COVERAGE_PROVIDER). */
  provider?: string;
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

/** The warning's words for a row that took the default day. */
const DEFAULT_DAY_TAKEN = 'the --captured-on day (default: the day of the import) taken';

/** A day written exactly as YYYY-MM-DD (a real day), or undefined. */
export function isoDay(text: string): string | undefined {
  return /^\d{4}-\d{2}-\d{2}$/.test(text.trim()) ? isoDate(text) : undefined;
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

/**
 * Imagery surveys (rows of geo.imagery_coverage): kind (high_resolution or ortho, from a field or the
 * option), name, capture date (from a field, else options.capturedOn, else the day of the import), provider
 * (a field, else options.provider, else DEFAULT_COVERAGE_PROVIDER), coverage polygon.
 */
export async function importCoverage(
  db: Queryable,
  input: FeatureInput,
  options: CoverageImportOptions = {},
): Promise<ImportSummary> {
  const fields = { ...COVERAGE_FIELDS, ...options.fields };
  const defaultDay =
    options.capturedOn === undefined ? new Date().toISOString().slice(0, 10) : isoDay(options.capturedOn);
  if (!defaultDay)
    throw new ImportInputError(`capturedOn is a day, YYYY-MM-DD, not "${options.capturedOn}".`);
  const defaultProvider = options.provider?.trim() || DEFAULT_COVERAGE_PROVIDER;
  return runFeatureImport(db, 'coverage', input, options, (run) => {
    const coverage = new TableWriter(
      db,
      run,
      'geo.imagery_coverage',
      [
        { name: 'kind', type: 'text' },
        { name: 'name', type: 'text' },
        { name: 'captured_on', type: 'date' },
        { name: 'provider', type: 'text' },
        { name: 'geom', type: 'text', expression: GEOMETRY.multiPolygon },
      ],
      { batchSize: options.batchSize, polygonColumn: { index: 4, shape: 'multipolygon' } },
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
        if (capturedText && !capturedOn) run.warn(`capture date not understood: ${DEFAULT_DAY_TAKEN}`);
        else if (!capturedText) run.warn(`no capture date: ${DEFAULT_DAY_TAKEN}`);
        const geometry = checkPolygonal(feature.geometry);
        if (!geometry.ok) return run.reject(geometry.reason, where);
        const name = textField(p, fields.name) ?? '';
        const sourceId = featureSourceId(
          textField(p, fields.id),
          feature,
          () => `${kind}|${name}|${capturedOn ?? ''}`,
        )!;
        // The id falls back on the file's own date (not the default), so importing again on another day
        // meets the same rows.
        const provider = textField(p, fields.provider) ?? defaultProvider;
        coverage.add(sourceId, [kind, name, capturedOn ?? defaultDay, provider, geometry.geojson], where);
      },
    };
  });
}
