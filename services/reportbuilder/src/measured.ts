import {
  measuredArea,
  measuredSourceKey,
  withMeasuredFlag,
  type FloorMeasurement,
  type ReportFloor,
  type ReportSections,
} from '@portal/domain';

/**
 * Measured floor sizes on a save (issue 21). A floor's `measured` mark says where its size came from; the
 * service trusts none of its figures from the client:
 * - a measurement or footprint the saved report already holds keeps the facts saved with it (value, survey,
 *   capture date: a later deletion of the measurement does not take them away);
 * - a measurement new to the report must be an area measurement of this request (requests.measurements):
 *   its value, survey and capture date are read from there;
 * - a footprint new to the report enters only through the footprints call (routes/footprints.ts);
 * - the `edited` flag is set as the size says (libs/domain withMeasuredFlag).
 * Every problem is listed at once, each saying which floor; nothing is saved when there is one.
 */

export const MEASURED_TEXT = {
  noSource: (where: string) => `${where}: a measured floor must name its measurement (measurementId).`,
  bothSources: (where: string) => `${where}: a floor is measured by a measurement or a footprint, not both.`,
  badMeasurementId: (where: string, id: string) =>
    `${where}: '${id.slice(0, 64)}' is not a measurement id (a UUID).`,
  unknownMeasurement: (where: string, id: string) =>
    `${where}: measurement '${id}' is not a measurement of this request.`,
  notArea: (where: string, kind: string) =>
    `${where}: a ${kind} measurement cannot be a floor size; use an area measurement.`,
  newFootprint: (where: string) =>
    `${where}: building footprints are added to the report by confirming them (POST footprints).`,
} as const;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type Query = { query(sql: string, params?: unknown[]): Promise<unknown> };

/** The facts a measured floor keeps (no `edited`: that follows the size). */
const factsOf = ({ edited: _edited, ...facts }: FloorMeasurement): FloorMeasurement => facts;

/** Every measured floor of `sections`, with where it is ("Section 'Main', building 1 'House', floor 2"). */
function measuredFloors(sections: ReportSections) {
  const found: { where: string; floor: ReportFloor; measured: FloorMeasurement }[] = [];
  for (const [id, section] of Object.entries(sections))
    section.buildings.forEach((building, b) =>
      building.floors.forEach((floor, f) => {
        if (!floor.measured) return;
        const where = `Section '${section.name.trim() || id}', building ${b + 1}${
          building.name.trim() ? ` '${building.name.trim()}'` : ''
        }, floor ${f + 1}`;
        found.push({ where, floor, measured: floor.measured });
      }),
    );
  return found;
}

/** The facts of every measurement and footprint the saved report holds, by source key. */
export function savedMeasuredFacts(saved: ReportSections): Map<string, FloorMeasurement> {
  const facts = new Map<string, FloorMeasurement>();
  for (const { measured } of measuredFloors(saved)) {
    const key = measuredSourceKey(measured);
    if (key && !facts.has(key)) facts.set(key, factsOf(measured));
  }
  return facts;
}

interface MeasurementRow {
  id: string;
  kind: string;
  value: number;
  survey_id: string;
  captured_on: string;
}

/** The sections as they will be saved (measured facts settled, flags set), or the problems. */
export async function settleMeasuredFloors(
  db: Query,
  requestId: string,
  sections: ReportSections,
  saved: ReportSections,
): Promise<{ sections: ReportSections; problems: string[] }> {
  const known = savedMeasuredFacts(saved);
  const problems: string[] = [];
  const wanted = new Set<string>();
  for (const { where, measured } of measuredFloors(sections)) {
    if (measured.measurementId && measured.footprintId) problems.push(MEASURED_TEXT.bothSources(where));
    const key = measuredSourceKey(measured);
    if (!key) problems.push(MEASURED_TEXT.noSource(where));
    else if (known.has(key)) continue;
    else if (measured.measurementId) {
      if (UUID.test(measured.measurementId)) wanted.add(measured.measurementId.toLowerCase());
      else problems.push(MEASURED_TEXT.badMeasurementId(where, measured.measurementId));
    } else problems.push(MEASURED_TEXT.newFootprint(where));
  }

  const rows =
    wanted.size === 0
      ? []
      : ((await db.query(
          `SELECT id::text AS id, kind, value, survey_id::text AS survey_id, captured_on::text AS captured_on
             FROM requests.measurements WHERE request_id = $1 AND id = ANY($2::uuid[])`,
          [requestId, [...wanted]],
        )) as MeasurementRow[]);
  const measurements = new Map(rows.map((row) => [row.id.toLowerCase(), row]));
  for (const { where, measured } of measuredFloors(sections)) {
    const key = measuredSourceKey(measured);
    if (!key || known.has(key) || !measured.measurementId || !UUID.test(measured.measurementId)) continue;
    const row = measurements.get(measured.measurementId.toLowerCase());
    if (!row) problems.push(MEASURED_TEXT.unknownMeasurement(where, measured.measurementId));
    else if (row.kind !== 'area') problems.push(MEASURED_TEXT.notArea(where, row.kind));
    else
      known.set(key, {
        measurementId: row.id,
        value: measuredArea(row.value),
        surveyId: Number(row.survey_id),
        capturedOn: row.captured_on,
      });
  }
  if (problems.length > 0) return { sections, problems };

  const settled: ReportSections = Object.fromEntries(
    Object.entries(sections).map(([id, section]) => [
      id,
      {
        ...section,
        buildings: section.buildings.map((building) => ({
          ...building,
          floors: building.floors.map((floor) => {
            const key = measuredSourceKey(floor.measured);
            return key ? withMeasuredFlag({ ...floor, measured: known.get(key)! }) : floor;
          }),
        })),
      },
    ]),
  );
  return { sections: settled, problems };
}
