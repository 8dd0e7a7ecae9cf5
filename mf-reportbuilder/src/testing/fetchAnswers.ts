import {
  ADMIN_API,
  MEASUREMENT_API,
  REPORTBUILDER_API,
  SURVEY_API,
  REQUEST_ADMIN_API,
  REQUEST_API,
  type BuildingsAnswer,
  type Measurement,
  type RateRow,
  type ReportDetails,
  type Survey,
  type SurveyBuilding,
  type SectionsAnswer,
  type SumInsuredCheck,
} from '@portal/contracts';
import type { ReportSections, TotalsSettings } from '@portal/domain';
import { building, floor, improvement, marker, section } from '@portal/domain/testing';
import { errorAnswer, json, type Answer } from '@portal/web-kit/testing';

// The fetch answers and the demo session users are web-kit's.
export {
  json,
  errorAnswer,
  answerFetch,
  callsTo,
  meAnswer,
  operatorUser,
  plainUser,
} from '@portal/web-kit/testing';

export const REQUEST_ID = '11111111-1111-4111-8111-111111111111';
export const GROUP_ID = 'g-karoo';

// The report builders of the domain's tests (a report's entities with what a test does not care about).
export { marker, floor, improvement, building, section } from '@portal/domain/testing';

/**
 * Report 1 of libs/domain/src/reportBuilder/totals.test.ts ("worked by hand"): with the extra field 12,345.67
 * included, fee 12 % and VAT 15 %, the subtotal is 2,662,545.16, the fee 319,505.42, VAT 447,307.59 and
 * the grand total 3,429,358.17.
 */
export const WORKED_SETTINGS: TotalsSettings = {
  doubleVolumePercent: 15,
  includeProfessionalFee: true,
  professionalFeePercentage: 12,
  includeVAT: true,
  vatPercentage: 15,
};
export const workedSections = (): ReportSections => ({
  s1: section('Main', {
    marker: marker(1),
    buildings: [
      building('House', {
        marker: marker(1),
        floors: [floor(120, false, 'Ground'), floor(80, true, 'First'), floor(45.5, false, 'Loft')],
        slope: true,
        slopePercentage: 5,
        rate: 8500,
        improvements: [improvement('Solar geyser', 2, 12500)],
      }),
      building('Garage', { marker: marker(2), floors: [floor(36)], rate: 4250.75, slopePercentage: 20 }),
    ],
    improvements: [improvement('Paving', 150, 385.4)],
    groups: [{ name: 'Main group' }],
  }),
  s2: section('Boundary', {
    type: 'perimeter',
    marker: marker(2),
    improvements: [improvement('Boundary wall', 84.5, '1,150'), improvement('Gate', 1, 18999.99)],
  }),
});
export const WORKED_EXTRA = { include: true, description: 'Betterments', value: 12345.67 };

export const sectionsAnswer = (sections: ReportSections, version = 3, editable = true): SectionsAnswer => ({
  ID: REQUEST_ID,
  reportType: 'savi',
  sections: sections as SectionsAnswer['sections'],
  version,
  updatedAt: null,
  updatedBy: null,
  status: 'In progress',
  editable,
  warnings: [],
});

export const detailsAnswer = (version = 3, extraField = WORKED_EXTRA): ReportDetails => ({
  ID: REQUEST_ID,
  gripReference: 'GRP-2611-000001',
  location: '12 Church Street',
  suburb: 'Dorp',
  town: 'Stellenbosch',
  province: 'Western Cape',
  comments: '',
  note: { text: '' },
  coordinates: { lat: -33.9321, lng: 18.8602 },
  extraField,
  vatPercentage: 15,
  suburbTownCity: 'Dorp, Stellenbosch',
  group: { id: GROUP_ID, name: 'Karoo Mutual' },
  version,
  updatedAt: null,
  updatedBy: null,
  status: 'In progress',
  editable: true,
});

const rate = (fields: Partial<RateRow>): RateRow => ({
  report: 'savi',
  category: 'buildings',
  type: 'dwelling',
  class: 'A',
  quantity: 'no',
  increase: 0,
  standard: 8500,
  inbetween: 9500,
  expensive: 11000,
  slope: true,
  fee: true,
  vat: true,
  ...fields,
});
export const RATES: RateRow[] = [
  rate({}),
  rate({ class: 'B', standard: 6500, inbetween: 7000, expensive: 7500 }),
  rate({ type: 'garage', class: 'A', standard: 4250.75, inbetween: 4500, expensive: 5000 }),
  rate({ category: 'outbuildings', type: 'carport', class: 'A', quantity: 'bay', standard: 9850.33 }),
];

/**
 * The report's calls answered from one in-memory report: GETs from it, POST section replaces its sections
 * (409 when the version sent is not the current one), the other saves bump its version.
 */
export function reportServer(
  options: {
    sections?: ReportSections;
    version?: number;
    settings?: TotalsSettings;
    comment?: string;
    note?: string;
    editable?: boolean;
    /** GET totals' sum-insured check (issue 13); left out when not given, as an older service answers. */
    sumInsured?: SumInsuredCheck | null;
  } = {},
) {
  const state = {
    sections: options.sections ?? workedSections(),
    version: options.version ?? 3,
    comment: options.comment ?? 'Old comment',
    note: options.note ?? 'Old note',
    extra: { ...WORKED_EXTRA },
    bodies: [] as { path: string; body: Record<string, unknown> }[],
  };
  const details = () => detailsAnswer(state.version, state.extra);
  const bodyOf = async (request: Request) => {
    const body = (await request.json()) as Record<string, unknown>;
    state.bodies.push({ path: new URL(request.url).pathname, body });
    return body;
  };
  const bump = () => (state.version += 1);
  const answers: Record<string, Answer> = {
    [`GET ${REPORTBUILDER_API.sections(REQUEST_ID)}`]: () =>
      json(200, sectionsAnswer(state.sections, state.version, options.editable ?? true)),
    [`POST ${REPORTBUILDER_API.saveSections}`]: async (request) => {
      const body = await bodyOf(request);
      if (body.version !== state.version)
        return errorAnswer(409, 'The report was changed meanwhile: reload it and make your change again.');
      state.sections = body.sections as ReportSections;
      bump();
      return json(200, sectionsAnswer(state.sections, state.version));
    },
    [`GET ${REPORTBUILDER_API.details(REQUEST_ID)}`]: () => json(200, details()),
    [`GET ${REPORTBUILDER_API.totals(REQUEST_ID)}`]: () =>
      json(200, {
        ID: REQUEST_ID,
        version: state.version,
        settings: options.settings ?? WORKED_SETTINGS,
        ...(options.sumInsured === undefined ? {} : { sumInsured: options.sumInsured }),
      }),
    [`GET ${REPORTBUILDER_API.commentsOf(REQUEST_ID)}`]: () =>
      json(200, { ID: REQUEST_ID, userID: null, comment: state.comment, version: state.version }),
    [`POST ${REPORTBUILDER_API.comments}`]: async (request) => {
      const body = await bodyOf(request);
      state.comment = String(body.comment);
      bump();
      return json(200, { ID: REQUEST_ID, userID: 'u2', comment: state.comment, version: state.version });
    },
    [`GET ${REPORTBUILDER_API.noteOf(REQUEST_ID)}`]: () =>
      json(200, { ID: REQUEST_ID, userID: null, note: { text: state.note }, version: state.version }),
    [`POST ${REPORTBUILDER_API.note}`]: async (request) => {
      const body = await bodyOf(request);
      state.note = String(body.note);
      bump();
      return json(200, { ID: REQUEST_ID, userID: 'u2', note: { text: state.note }, version: state.version });
    },
    [`POST ${REPORTBUILDER_API.extraFieldIncluded}`]: async (request) => {
      state.extra.include = Boolean((await bodyOf(request)).included);
      bump();
      return json(200, details());
    },
    [`POST ${REPORTBUILDER_API.extraFieldDescription}`]: async (request) => {
      state.extra.description = String((await bodyOf(request)).description);
      bump();
      return json(200, details());
    },
    [`POST ${REPORTBUILDER_API.extraFieldValue}`]: async (request) => {
      const value = String((await bodyOf(request)).value).replace(/,/g, '');
      state.extra.value = value.trim() === '' ? 0 : Number(value);
      bump();
      return json(200, details());
    },
    [`GET ${REQUEST_API.any(REQUEST_ID)}`]: () =>
      json(200, {
        _id: REQUEST_ID,
        group: { id: GROUP_ID, name: 'Karoo Mutual', code: 'KM' },
        coordinates: { lat: -33.9321, lng: 18.8602 },
        status: 'In progress',
      }),
    [`GET ${ADMIN_API.rates(GROUP_ID)}`]: () => json(200, { success: true, groupID: GROUP_ID, rates: RATES }),
    [`POST ${REQUEST_ADMIN_API.submit}`]: async (request) => {
      await bodyOf(request);
      return json(200, { success: true, request: {} });
    },
  };
  return { state, answers };
}

// ---- issue 21: the request's measurements, the surveys at its point and the buildings on its parcel ----

export const SURVEY_2019: Survey = {
  id: 7,
  capturedOn: '2019-03-14',
  kind: 'high_resolution',
  provider: 'Portal imagery',
};
export const SURVEY_2026: Survey = {
  id: 9,
  capturedOn: '2026-01-05',
  kind: 'high_resolution',
  provider: 'Portal imagery',
};

/** A saved measurement of the request (as services/requests answers it). */
export const measurement = (
  fields: Partial<Measurement> & Pick<Measurement, 'id' | 'kind' | 'value'>,
): Measurement => ({
  requestId: REQUEST_ID,
  label: '',
  surveyId: SURVEY_2019.id,
  capturedOn: SURVEY_2019.capturedOn,
  geometry: {
    type: 'Polygon',
    coordinates: [
      [
        [18.86, -33.932],
        [18.8602, -33.932],
        [18.8602, -33.9322],
        [18.86, -33.932],
      ],
    ],
  },
  oblique: null,
  unit: fields.kind === 'area' ? 'm²' : 'm',
  perimeterM: fields.kind === 'area' ? 54.2 : null,
  createdBy: { id: 'u2', email: 'operator@portal.test' },
  createdAt: '2026-02-01T08:30:00.000Z',
  ...fields,
});

/** A footprint on the request's parcel at a survey (SURVEY_API.buildings). */
export const footprint = (
  buildingId: string,
  kind: string,
  areaM2: number,
  heightM: number,
): SurveyBuilding => ({
  buildingId,
  kind,
  levels: 1,
  heightM,
  footprint: {
    type: 'Polygon',
    coordinates: [
      [
        [18.86, -33.932],
        [18.8601, -33.932],
        [18.8601, -33.9321],
        [18.86, -33.932],
      ],
    ],
  },
  areaM2,
  parcelId: 'p1',
});

/** The imagery calls a report builder screen makes: measurements, surveys, the parcel's buildings. */
export function imageryAnswers(
  options: {
    measurements?: Measurement[];
    surveys?: Survey[];
    buildings?: SurveyBuilding[];
  } = {},
): Record<string, Answer> {
  const surveys = options.surveys ?? [SURVEY_2026, SURVEY_2019];
  const answer: BuildingsAnswer = { success: true, survey: surveys[0]!, buildings: options.buildings ?? [] };
  return {
    [`GET ${MEASUREMENT_API.list(REQUEST_ID)}`]: () =>
      json(200, { success: true, measurements: options.measurements ?? [] }),
    [`GET ${SURVEY_API.surveys}`]: () => json(200, { success: true, surveys }),
    [`GET ${SURVEY_API.buildings}`]: () => json(200, answer),
  };
}
