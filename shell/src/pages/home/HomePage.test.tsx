import { screen, within } from '@testing-library/react';
import { API, type Service } from '@portal/contracts';
import { TEXT } from '@portal/domain';
import { press } from '../../testing/forms';
import { answerFetch, errorAnswer, json, servicesAnswer } from '../../testing/fetchAnswers';
import { renderPortal } from '../../testing/renderPortal';
import { meAnswer, thandi } from '../../testing/session';
import { NO_SERVICES } from './HomePage';

const savi: Service = {
  _id: 's1',
  identifier: 'savi',
  name: 'SAVi',
  description: 'Replacement-value estimates and building sizes from aerial imagery.',
  url: '/savi',
  image: '/assets/services/savi.svg',
  active: true,
  config: { country: 'ZA', centre: { lat: -28.96642, lng: 24.181142 }, zoom: 6 },
};
const spatialKey: Service = {
  ...savi,
  _id: 's2',
  identifier: 'spatialkey',
  name: 'SpatialKey',
  url: 'https://maps.example.co.za/',
};

describe('home page', () => {
  it('asks an anonymous visitor to log in, without asking for services', async () => {
    const calls = answerFetch(meAnswer(null));
    renderPortal({ at: '/' });

    expect(await screen.findByText(TEXT.pleaseLogIn)).toBeTruthy();
    expect(calls.mock.calls.some(([request]) => request.url.endsWith(API.services))).toBe(false);
  });

  it("shows the user's services as tiles linking to each service", async () => {
    answerFetch({
      ...meAnswer(thandi),
      [`GET ${API.services}`]: () => json(200, { success: true, services: [savi, spatialKey] }),
    });
    renderPortal({ at: '/' });

    const tiles = await screen.findAllByRole('listitem');
    expect(tiles).toHaveLength(2);
    const saviTile = within(tiles[0]);
    expect(saviTile.getByRole('heading', { name: 'SAVi' })).toBeTruthy();
    expect(saviTile.getByText(savi.description)).toBeTruthy();
    expect(saviTile.getByRole('link').getAttribute('href')).toBe('/savi');
    expect(tiles[0].querySelector('img')?.getAttribute('src')).toBe('/assets/services/savi.svg');
    expect(within(tiles[1]).getByRole('link').getAttribute('href')).toBe('https://maps.example.co.za/');
  });

  it('says so when the user has no services', async () => {
    answerFetch({
      ...meAnswer(thandi),
      ...servicesAnswer([]),
    });
    renderPortal({ at: '/' });

    expect(await screen.findByText(NO_SERVICES)).toBeTruthy();
  });

  it('shows the failure with a try-again button that asks again', async () => {
    let servicesUp = false;
    answerFetch({
      ...meAnswer(thandi),
      [`GET ${API.services}`]: () =>
        servicesUp ? json(200, { success: true, services: [savi] }) : errorAnswer(503, 'Service unavailable'),
    });
    renderPortal({ at: '/' });

    expect(await screen.findByText(TEXT.failedToLoadServices)).toBeTruthy();
    servicesUp = true;
    await press('Try again');

    expect(await screen.findByRole('heading', { name: 'SAVi' })).toBeTruthy();
    expect(screen.queryByText(TEXT.failedToLoadServices)).toBeNull();
  });

  it('treats an answer with success false as a failure', async () => {
    answerFetch({
      ...meAnswer(thandi),
      [`GET ${API.services}`]: () => json(200, { success: false, services: [] }),
    });
    renderPortal({ at: '/' });

    expect(await screen.findByText(TEXT.failedToLoadServices)).toBeTruthy();
  });
});
