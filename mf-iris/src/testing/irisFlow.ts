import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import {
  IMAGERY_API,
  IRIS_API,
  REQUEST_API,
  SURVEY_API,
  type SessionUser,
  type Survey,
} from '@portal/contracts';
import {
  errorAnswer,
  irisReport,
  irisUser,
  json,
  meAnswer,
  referencesAnswer,
  REQUEST_ID,
  servicesAnswer,
  text,
} from './fetchAnswers';
import { TEXT } from '../texts';

// The steps of the /iris screen tests share: the session, choosing the point, ordering, and the imagery.

export const GPS = '-33.932112, 18.860245';

/** Picks the point with the GPS search option of the shared search panel. */
export async function pickGpsPoint() {
  // The first visit loads the page and OpenLayers (transpiled on the first run): a longer wait.
  const option = await screen.findByText('Search by Geo-co-ordinates', {}, { timeout: 30_000 });
  await act(async () => fireEvent.click(option));
  const box = screen.getByRole('textbox', { name: 'Search by Geo-co-ordinates' });
  fireEvent.change(box, { target: { value: GPS } });
  await act(async () => fireEvent.keyDown(box, { key: 'Enter' }));
  const button = await screen.findByRole('button', { name: TEXT.order });
  // The group's references load once a point is chosen; ordering waits for them.
  await waitFor(() => expect(screen.queryByLabelText(TEXT.referencesLoading)).toBeNull());
  return button;
}

export const created = () =>
  text(200, 'created', {
    location: REQUEST_API.any(REQUEST_ID),
    'x-grip-reference': 'GRP-2611-000042',
  });

export const session = (services = ['iris'], references: unknown[] = [], user: SessionUser = irisUser) => ({
  ...meAnswer({ ...user, services }),
  ...servicesAnswer(services),
  ...referencesAnswer(references),
});
export const reverse = { 'POST /api/avs/reverse': () => json(200, { success: true, result: null }) };

/** The report ordered: the request and the report created. */
export const ordered = {
  [`PUT ${REQUEST_API.create}`]: created,
  [`PUT ${IRIS_API.create}`]: () =>
    json(201, {
      success: true,
      request: { _id: REQUEST_ID, gripReference: 'GRP-2611-000042' },
      report: irisReport(),
    }),
};

/** The surveys at the report's point (issue 21), newest first. */
export const SURVEYS: Survey[] = [
  { id: 9, capturedOn: '2025-02-01', kind: 'high_resolution', provider: 'Portal imagery' },
  { id: 7, capturedOn: '2019-06-30', kind: 'high_resolution', provider: 'Portal imagery' },
];
const surveyById = (id: string | null) => SURVEYS.find((survey) => String(survey.id) === id) ?? SURVEYS[0];

/**
 * The imagery answers: the ortho and north load, east has no coverage, south is offline, west broken.
 * Each names the survey asked for (the newest without) and its capture date; a picture's URL names both.
 */
export const imagery = {
  [`GET ${SURVEY_API.surveys}`]: () => json(200, { success: true, surveys: SURVEYS }),
  [`GET ${IMAGERY_API.imageUrl}`]: (request: Request) => {
    const query = new URL(request.url).searchParams;
    const orientation = query.get('orientation');
    const survey = surveyById(query.get('survey'));
    if (orientation === 'e') return json(200, { success: false, url: null });
    if (orientation === 's') return errorAnswer(503, 'imagery offline');
    const name = orientation === 'w' ? 'broken' : orientation;
    return json(200, {
      success: true,
      url: `/api/imagery/images/${name}.jpg?survey=${survey.id}`,
      capturedOn: survey.capturedOn,
      surveyId: survey.id,
    });
  },
  'GET /api/imagery/images/o.jpg': () =>
    new Response('jpeg-o', { headers: { 'content-type': 'image/jpeg' } }),
  'GET /api/imagery/images/n.jpg': () =>
    new Response('jpeg-n', { headers: { 'content-type': 'image/jpeg' } }),
};
