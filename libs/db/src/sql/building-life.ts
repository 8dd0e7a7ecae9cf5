/**
 * What stood at a date, in SQL — the migration ImagerySurveys' life rules for geo.buildings, written once
 * for every service that reads them (the locator's pictures, changes and survey buildings; the report
 * builder's footprints). A building stood at D when built_on is null or <= D and demolished_on is null or
 * > D; its footprint at D is geom_before_extension while D is before extended_on, else geom.
 *
 * `date` is SQL text that yields a date (a bound parameter such as '$3::date', or a column); `alias` the
 * geo.buildings row's alias in the statement.
 */
export const standingOnSql = (date: string, alias = 'b') =>
  `((${alias}.built_on IS NULL OR ${alias}.built_on <= ${date}) AND (${alias}.demolished_on IS NULL OR ${alias}.demolished_on > ${date}))`;

/** The footprint of `alias` at `date` (see standingOnSql). */
export const footprintOnSql = (date: string, alias = 'b') =>
  `(CASE WHEN ${alias}.extended_on > ${date} THEN ${alias}.geom_before_extension ELSE ${alias}.geom END)`;
