/**
 * A building's life, as geo.buildings keeps it (migration ImagerySurveys): `built_on` (null: standing
 * before any survey), `demolished_on` (null: standing today), and at most one extension (`extended_on`,
 * with the footprint before it in `geom_before_extension`; `geom` is always today's footprint). Dates are
 * calendar days, 'YYYY-MM-DD', which compare as text.
 *
 * What stood at a date D: built_on null or <= D, demolished_on null or > D; its footprint is the one before
 * the extension while extended_on > D. The services say the same in SQL (services/locator's surveys.ts);
 * this is the rule in TypeScript, for the generator's tests and for fixtures.
 */

/** 'YYYY-MM-DD'. */
export type IsoDay = string;

export interface BuildingLife {
  builtOn: IsoDay | null;
  demolishedOn: IsoDay | null;
  extendedOn: IsoDay | null;
}

/** Whether the building stood on the day. */
export function standsOn(life: BuildingLife, day: IsoDay): boolean {
  return (
    (life.builtOn === null || life.builtOn <= day) && (life.demolishedOn === null || life.demolishedOn > day)
  );
}

/** The footprint on the day (before its extension while that was still to come), or null when it did not stand. */
export function footprintOn<Footprint>(
  building: BuildingLife & { geom: Footprint; geomBeforeExtension: Footprint | null },
  day: IsoDay,
): Footprint | null {
  if (!standsOn(building, day)) return null;
  if (building.extendedOn !== null && building.extendedOn > day) return building.geomBeforeExtension;
  return building.geom;
}

/**
 * What is wrong with a life, in the words of the migration's CHECK constraints (empty: nothing): built
 * before demolished, extended after built and before demolished, a footprint before the extension exactly
 * when there was one.
 */
export function lifeProblems(life: BuildingLife & { geomBeforeExtension?: unknown }): string[] {
  const problems: string[] = [];
  const { builtOn, demolishedOn, extendedOn } = life;
  if (builtOn && demolishedOn && demolishedOn <= builtOn) problems.push('demolished before it was built');
  if (extendedOn && builtOn && extendedOn <= builtOn) problems.push('extended before it was built');
  if (extendedOn && demolishedOn && extendedOn >= demolishedOn)
    problems.push('extended after it was demolished');
  if ('geomBeforeExtension' in life && (extendedOn === null) !== (life.geomBeforeExtension == null))
    problems.push('a footprint before the extension without an extension date, or the other way round');
  return problems;
}
