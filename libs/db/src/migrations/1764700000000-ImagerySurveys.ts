import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Dated imagery and measurements (issue 21).
 *
 * - Surveys are the rows of `geo.imagery_coverage`: each is one flight (high_resolution: ortho and four
 *   obliques) or ortho mosaic with its capture date, coverage polygon and provider. Several rows now cover
 *   one town over the years; the newest at a point is what the spec's imagery calls answer from. A survey
 *   has a date: rows that had none take the day of this migration (the importer gives rows without one
 *   its --captured-on day, else the day of the import; libs/geo's README).
 * - Buildings have a life: `built_on` (null: standing before any survey), `demolished_on` (null: standing
 *   today) and one extension (`extended_on`, with the footprint before it in `geom_before_extension`; `geom`
 *   is always today's footprint). What stood at a date D: built_on <= D (or null), demolished_on > D (or
 *   null), and the footprint before the extension when extended_on > D (an extension falls between built_on
 *   and demolished_on). One extension per building is what the generator and the importers' sources
 *   give; a second one would be a second row's history.
 * - `requests.measurements`: distances, lengths, areas and heights measured against a request, on a
 *   survey, with the figure the server computed. Deleted with their request.
 */
export class ImagerySurveys1764700000000 implements MigrationInterface {
  name = 'ImagerySurveys1764700000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    const q = (sql: string) => queryRunner.query(sql);
    await q(`UPDATE geo.imagery_coverage SET captured_on = current_date WHERE captured_on IS NULL`);
    await q(`
      ALTER TABLE geo.imagery_coverage
        ALTER COLUMN captured_on SET NOT NULL,
        ADD COLUMN provider text NOT NULL DEFAULT 'Portal imagery'`);
    // The newest survey at a point: the GiST index finds the covering rows, this orders them.
    await q(
      'CREATE INDEX imagery_coverage_captured_on_idx ON geo.imagery_coverage (captured_on DESC, id DESC)',
    );

    await q(`
      ALTER TABLE geo.buildings
        ADD COLUMN built_on date,
        ADD COLUMN demolished_on date,
        ADD COLUMN extended_on date,
        ADD COLUMN geom_before_extension geometry(Polygon, 4326),
        ADD CONSTRAINT buildings_life_check CHECK (demolished_on IS NULL OR built_on IS NULL OR demolished_on > built_on),
        ADD CONSTRAINT buildings_extension_check CHECK (
          (extended_on IS NULL) = (geom_before_extension IS NULL)
          AND (extended_on IS NULL OR built_on IS NULL OR extended_on > built_on)
          AND (extended_on IS NULL OR demolished_on IS NULL OR extended_on < demolished_on))`);

    await q(`
      CREATE TABLE requests.measurements (
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        request_id uuid NOT NULL,
        kind text NOT NULL,
        label text NOT NULL DEFAULT '',
        survey_id bigint NOT NULL,
        captured_on date NOT NULL,
        geom geometry(Geometry, 4326) NOT NULL,
        oblique jsonb,
        value double precision NOT NULL,
        perimeter_m double precision,
        created_by uuid NOT NULL,
        created_by_email text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT measurements_pkey PRIMARY KEY (id),
        CONSTRAINT measurements_request_fkey FOREIGN KEY (request_id) REFERENCES requests.requests (id) ON DELETE CASCADE,
        CONSTRAINT measurements_kind_check CHECK (kind IN ('distance', 'length', 'area', 'height')),
        CONSTRAINT measurements_value_check CHECK (value >= 0)
      )`);
    await q('CREATE INDEX measurements_request_idx ON requests.measurements (request_id, created_at)');
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    const q = (sql: string) => queryRunner.query(sql);
    await q('DROP TABLE requests.measurements');
    await q(`
      ALTER TABLE geo.buildings
        DROP CONSTRAINT buildings_extension_check,
        DROP CONSTRAINT buildings_life_check,
        DROP COLUMN geom_before_extension,
        DROP COLUMN extended_on,
        DROP COLUMN demolished_on,
        DROP COLUMN built_on`);
    await q('DROP INDEX geo.imagery_coverage_captured_on_idx');
    await q(`ALTER TABLE geo.imagery_coverage DROP COLUMN provider, ALTER COLUMN captured_on DROP NOT NULL`);
  }
}
