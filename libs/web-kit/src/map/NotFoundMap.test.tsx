import { act, render, screen } from '@testing-library/react';
import { NOT_FOUND_MAX_MARKERS } from '@portal/domain';
import { NotFoundMap } from './NotFoundMap';
import { installJsdomMapSupport } from './testing/jsdomMapSupport';

beforeAll(installJsdomMapSupport);

afterEach(() => {
  jest.useRealTimers();
});

function markerCount(): number {
  return Number(screen.getByTestId('not-found-map').getAttribute('data-marker-count'));
}

describe('NotFoundMap', () => {
  it('shows the heading and a link home', () => {
    render(<NotFoundMap />);
    expect(screen.getByRole('heading', { name: 'Page not found' })).toBeTruthy();
    expect(screen.getByRole('link', { name: /home page/i }).getAttribute('href')).toBe('/');
  });

  it('adds a random marker every interval and never keeps more than 100', () => {
    jest.useFakeTimers();
    render(<NotFoundMap intervalMs={300} />);
    expect(markerCount()).toBe(0);

    act(() => jest.advanceTimersByTime(300 * 3));
    expect(markerCount()).toBe(3);

    act(() => jest.advanceTimersByTime(300 * (NOT_FOUND_MAX_MARKERS + 20)));
    expect(markerCount()).toBe(NOT_FOUND_MAX_MARKERS);
  });

  it('stops adding markers after unmount', () => {
    jest.useFakeTimers();
    const setIntervalSpy = jest.spyOn(globalThis, 'setInterval');
    const clearIntervalSpy = jest.spyOn(globalThis, 'clearInterval');
    const { unmount } = render(<NotFoundMap />);
    const intervalIds = setIntervalSpy.mock.results.map((result) => result.value as unknown);
    expect(intervalIds.length).toBeGreaterThan(0);
    unmount();
    for (const id of intervalIds) expect(clearIntervalSpy).toHaveBeenCalledWith(id);
  });
});
