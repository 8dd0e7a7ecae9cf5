import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { IMAGERY_API, REPORTBUILDER_API, SURVEY_API } from '@portal/contracts';
import { buildingChange, installJsdomMapSupport } from '@portal/web-kit/testing';
import {
  answerFetch,
  callsTo,
  imageryAnswers,
  json,
  meAnswer,
  operatorUser,
  REQUEST_ID,
  reportServer,
  SURVEY_2019,
  SURVEY_2026,
} from '../../testing/fetchAnswers';
import { renderRemote } from '../../testing/renderRemote';

// Issue 21 on the image capture screen: the survey timeline at the request's point, the chosen survey's
// picture with its capture date, captured as the target's base image with its survey (then cropped as any
// picture), and the current image's capture date.

const UPLOADS = REPORTBUILDER_API.uploads(REQUEST_ID);
const PICTURE_PATH = '/imagery/idan/pictures/o-full-2019.jpg';
/** A few JPEG-looking bytes: the screen sends what it fetched, the service decodes it. */
const JPEG = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3, 4]);

function open(options: { imagery?: boolean } = {}) {
  const pastes: Record<string, unknown>[] = [];
  const pictureAsked: string[] = [];
  const fetchMock = answerFetch({
    ...meAnswer(operatorUser),
    ...reportServer().answers,
    ...imageryAnswers(),
    [`GET ${SURVEY_API.changes}`]: () =>
      json(200, {
        success: true,
        from: SURVEY_2019,
        to: SURVEY_2026,
        parcelId: 'p1',
        added: [buildingChange('b7', 'garage', null, 30)],
        removed: [],
        changed: [buildingChange('b1', 'house', 120, 168.5)],
      }),
    [`GET ${REPORTBUILDER_API.thumbnails(REQUEST_ID)}`]: () =>
      json(200, { requestID: REQUEST_ID, images: [] }),
    [`GET ${REPORTBUILDER_API.imageExists(REQUEST_ID, 'property', '-', '-', '-')}`]: () =>
      json(200, !!options.imagery),
    [`GET ${REPORTBUILDER_API.imageInfo(REQUEST_ID, 'property', '-', '-', '-')}`]: () =>
      json(200, {
        exists: !!options.imagery,
        imagery: options.imagery ? { surveyId: SURVEY_2019.id, capturedOn: SURVEY_2019.capturedOn } : null,
      }),
    [`GET ${IMAGERY_API.imageUrl}`]: (request) => {
      const survey = new URL(request.url).searchParams.get('survey');
      pictureAsked.push(`${new URL(request.url).searchParams.get('orientation')}:${survey ?? 'newest'}`);
      const chosen = survey === String(SURVEY_2019.id) ? SURVEY_2019 : SURVEY_2026;
      return json(200, {
        success: true,
        url: PICTURE_PATH,
        capturedOn: chosen.capturedOn,
        surveyId: chosen.id,
        camera: null,
      });
    },
    [`GET ${PICTURE_PATH}`]: () =>
      new Response(JPEG, { status: 200, headers: { 'content-type': 'image/jpeg' } }),
    [`POST ${REPORTBUILDER_API.image}`]: async (request) => {
      pastes.push((await request.json()) as Record<string, unknown>);
      const name = 'property-base-image.png';
      return json(200, {
        success: true,
        image: { name, url: `${UPLOADS}${name}`, width: 1024, height: 768 },
        imagery: { surveyId: SURVEY_2019.id, capturedOn: SURVEY_2019.capturedOn },
      });
    },
  });
  renderRemote(`/reportbuilder/property-overview-image?requestID=${REQUEST_ID}`);
  return { pastes, pictureAsked, fetchMock };
}

// The comparison draws OpenLayers maps: jsdom needs their browser APIs (ResizeObserver, canvas).
beforeAll(installJsdomMapSupport);
beforeEach(() => sessionStorage.clear());

it('captures the chosen survey’s picture with its survey; the crop editor takes it from there', async () => {
  const { pastes, pictureAsked } = open();
  const panel = await screen.findByRole('region', { name: 'Capture from the imagery' });
  // The newest survey first, its date printed on the picture.
  expect(await within(panel).findByText('Captured 5 January 2026')).toBeTruthy();
  fireEvent.click(within(panel).getByRole('radio', { name: /14 March 2019/ }));
  expect(await within(panel).findByText('Captured 14 March 2019')).toBeTruthy();
  expect(pictureAsked).toEqual(['o:newest', `o:${SURVEY_2019.id}`]);

  fireEvent.click(within(panel).getByRole('button', { name: 'Use this picture' }));
  await waitFor(() => expect(pastes).toHaveLength(1));
  expect(pastes[0]).toEqual({
    requestID: REQUEST_ID,
    type: 'property',
    surveyId: SURVEY_2019.id,
    base64Data: `data:image/jpeg;base64,${Buffer.from(JPEG).toString('base64')}`,
  });
  expect(await screen.findByRole('button', { name: 'Crop and save' })).toBeTruthy();
});

it('prints the current image’s capture date when it came from the imagery', async () => {
  open({ imagery: true });
  const current = await screen.findByLabelText('Current image');
  expect(await within(current).findByText('Captured 14 March 2019')).toBeTruthy();
});

it('compares two surveys before capturing: the changes between them listed', async () => {
  const { fetchMock } = open();
  const panel = await screen.findByRole('region', { name: 'Capture from the imagery' });
  fireEvent.click(within(panel).getByRole('button', { name: 'Compare surveys' }));
  const compare = await within(panel).findByTestId('imagery-compare');
  await waitFor(() => expect(callsTo(fetchMock, 'GET', SURVEY_API.changes)).toHaveLength(1));
  const query = new URL(callsTo(fetchMock, 'GET', SURVEY_API.changes)[0]!.url).searchParams;
  expect([query.get('from'), query.get('to')]).toEqual([String(SURVEY_2019.id), String(SURVEY_2026.id)]);
  expect(await within(compare).findByText(/Added/)).toBeTruthy();
  expect(compare.textContent).toContain('30.0 m²');
  fireEvent.click(within(panel).getByRole('button', { name: 'Close the comparison' }));
  await waitFor(() => expect(screen.queryByTestId('imagery-compare')).toBeNull());
  expect(screen.getByRole('button', { name: 'Compare surveys' })).toBeTruthy();
});
