import { fireEvent, screen, waitFor } from '@testing-library/react';
import { REPORTBUILDER_API, REQUEST_API } from '@portal/contracts';
import {
  answerFetch,
  callsTo,
  json,
  meAnswer,
  operatorUser,
  REQUEST_ID,
  reportServer,
} from '../../testing/fetchAnswers';
import { renderRemote } from '../../testing/renderRemote';

beforeEach(() => sessionStorage.clear());

const generating = (progress: number) => ({
  success: true,
  url: null,
  ready: false,
  state: 'running',
  progress,
  version: 3,
  error: null,
});
const readyAnswer = (state: string, progress: number, error: string | null = null) => ({
  success: state !== 'failed',
  pdfReady: state === 'done',
  pdfUrl: state === 'done' ? REPORTBUILDER_API.download(REQUEST_ID) : null,
  progress,
  state,
  error,
  version: 3,
  pdfVersion: state === 'done' ? 3 : null,
});

describe('view-report (spec 02 §2.1, §7.1)', () => {
  it('generates the PDF, polls with a progress bar while it is made, then shows it inline with a download link', async () => {
    const polls = [readyAnswer('running', 60), readyAnswer('done', 100)];
    const fetchMock = answerFetch({
      ...meAnswer(operatorUser),
      ...reportServer().answers,
      [`GET ${REPORTBUILDER_API.report(REQUEST_ID, 'Karoo Mutual')}`]: () => json(200, generating(30)),
      [`GET ${REPORTBUILDER_API.reportReady(REQUEST_ID)}`]: () =>
        json(200, polls.shift() ?? readyAnswer('done', 100)),
    });
    renderRemote(`/reportbuilder/view-report?requestID=${REQUEST_ID}`);
    const bar = await screen.findByRole('progressbar', { name: 'Generating the report PDF…' });
    await waitFor(() => expect(bar.getAttribute('aria-valuenow')).toBe('60'));
    const frame = await screen.findByTitle('Report PDF', {}, { timeout: 5000 });
    expect(frame.getAttribute('src')).toBe(`${REPORTBUILDER_API.download(REQUEST_ID)}?inline=true`);
    expect(screen.getByRole('link', { name: 'Download the PDF' }).getAttribute('href')).toBe(
      REPORTBUILDER_API.download(REQUEST_ID),
    );
    expect(screen.queryByRole('progressbar')).toBeNull();
    expect(callsTo(fetchMock, 'GET', REPORTBUILDER_API.report(REQUEST_ID, 'Karoo Mutual'))).toHaveLength(1);
  });

  it('shows the PDF at once when generate answers it ready', async () => {
    answerFetch({
      ...meAnswer(operatorUser),
      ...reportServer().answers,
      [`GET ${REPORTBUILDER_API.report(REQUEST_ID, 'Karoo Mutual')}`]: () =>
        json(200, {
          ...generating(100),
          ready: true,
          state: 'done',
          url: REPORTBUILDER_API.download(REQUEST_ID),
        }),
      [`GET ${REPORTBUILDER_API.reportReady(REQUEST_ID)}`]: () => json(200, readyAnswer('running', 10)),
    });
    renderRemote(`/reportbuilder/view-report?requestID=${REQUEST_ID}`);
    expect(await screen.findByTitle('Report PDF')).toBeTruthy();
  });

  it('says when the PDF failed and tries again', async () => {
    let generated = 0;
    answerFetch({
      ...meAnswer(operatorUser),
      ...reportServer().answers,
      [`GET ${REPORTBUILDER_API.report(REQUEST_ID, 'Karoo Mutual')}`]: () => {
        generated += 1;
        return json(
          200,
          generated === 1 ? generating(5) : { ...generating(100), ready: true, state: 'done', url: 'x' },
        );
      },
      [`GET ${REPORTBUILDER_API.reportReady(REQUEST_ID)}`]: () =>
        json(200, readyAnswer('failed', 30, 'The browser stopped.')),
    });
    renderRemote(`/reportbuilder/view-report?requestID=${REQUEST_ID}`);
    expect(await screen.findByText(/The report PDF could not be made\. The browser stopped\./)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByTitle('Report PDF')).toBeTruthy();
    expect(generated).toBe(2);
  });

  it('a submitted report: asks for no PDF (the submission queued it), follows its progress and shows it', async () => {
    const polls = [readyAnswer('queued', 0), readyAnswer('running', 60), readyAnswer('done', 100)];
    const fetchMock = answerFetch({
      ...meAnswer(operatorUser),
      ...reportServer().answers,
      [`GET ${REQUEST_API.any(REQUEST_ID)}`]: () =>
        json(200, {
          _id: REQUEST_ID,
          group: { id: 'g1', name: 'Karoo Mutual', code: 'KM' },
          coordinates: { lat: -33.9321, lng: 18.8602 },
          status: 'QC check',
        }),
      [`GET ${REPORTBUILDER_API.reportReady(REQUEST_ID)}`]: () =>
        json(200, polls.shift() ?? readyAnswer('done', 100)),
    });
    renderRemote(`/reportbuilder/view-report?requestID=${REQUEST_ID}`);
    expect(await screen.findByRole('progressbar', { name: 'Generating the report PDF…' })).toBeTruthy();
    expect(await screen.findByTitle('Report PDF', {}, { timeout: 8000 })).toBeTruthy();
    expect(callsTo(fetchMock, 'GET', REPORTBUILDER_API.report(REQUEST_ID, 'Karoo Mutual'))).toHaveLength(0);
  });

  it('is opened by the property overview’s Preview button', async () => {
    answerFetch({ ...meAnswer(operatorUser), ...reportServer().answers });
    renderRemote(`/reportbuilder/property-overview?requestID=${REQUEST_ID}`);
    const preview = await screen.findByRole('link', { name: 'Preview' });
    expect(preview.getAttribute('href')).toBe(`/reportbuilder/view-report?requestID=${REQUEST_ID}`);
  });
});
