import type { SearchResultItem } from '@portal/contracts';
import { keyAction, withCountry } from './searchOptions';
import { initialSearchState, offersCantLocate, searchReducer, type SearchState } from './searchState';

const item: SearchResultItem = {
  id: '1',
  type: 'address',
  formatted_address: '12 Church Street, Stellenbosch, 7600',
  location: { lat: -33.93, lng: 18.86 },
  confidence: 1,
};

const withResults = (): SearchState => {
  let state = searchReducer(initialSearchState, { type: 'optionChosen', option: 'address' });
  state = searchReducer(state, { type: 'queryChanged', query: '12 church' });
  state = searchReducer(state, { type: 'searchStarted' });
  state = searchReducer(state, { type: 'searchSucceeded', results: [item] });
  return searchReducer(state, { type: 'resultSelected', item });
};

describe('keyboard rules (spec 01 §2)', () => {
  it('Enter searches, Escape resets, other keys clear, modifiers do nothing', () => {
    expect(keyAction('Enter')).toBe('search');
    expect(keyAction('Escape')).toBe('reset');
    expect(keyAction('a')).toBe('clear');
    expect(keyAction('Backspace')).toBe('clear');
    expect(keyAction('Shift')).toBe('none');
  });

  it('a clearing key drops results, marker and selection but keeps the option and the query', () => {
    const cleared = searchReducer(withResults(), { type: 'cleared' });
    expect(cleared).toMatchObject({
      option: 'address',
      query: '12 church',
      results: [],
      selected: null,
      status: 'idle',
    });
  });

  it('Escape goes back to the options', () => {
    expect(searchReducer(withResults(), { type: 'reset' })).toEqual(initialSearchState);
  });
});

describe('search state', () => {
  it('the marker option turns marker mode on; placing a marker selects its point', () => {
    let state = searchReducer(initialSearchState, { type: 'optionChosen', option: 'marker' });
    expect(state.markerMode).toBe(true);
    state = searchReducer(state, { type: 'markerPlaced', point: { lat: -25.7, lng: 28.2 } });
    expect(state.selected).toMatchObject({ point: { lat: -25.7, lng: 28.2 }, item: null });
  });

  it("offers Can't Locate after a failed or an empty search only", () => {
    const state = withResults();
    expect(offersCantLocate(state)).toBe(false);
    expect(offersCantLocate(searchReducer(state, { type: 'searchFailed' }))).toBe(true);
    expect(offersCantLocate(searchReducer(state, { type: 'searchSucceeded', results: [] }))).toBe(true);
  });

  it("appends ' South Africa' once", () => {
    expect(withCountry(' 12 Church St ')).toBe('12 Church St South Africa');
    expect(withCountry('12 Church St South Africa')).toBe('12 Church St South Africa');
  });
});
