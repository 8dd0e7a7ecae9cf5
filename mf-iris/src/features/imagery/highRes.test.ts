import { answerStatus, countStatuses, defaultView, mostCommonStatus, type ViewOutcome } from './highRes';

const outcome = (view: ViewOutcome['view'], status: ViewOutcome['status']): ViewOutcome => ({
  view,
  status,
  url: status === 0 ? `/img/${view}.jpg` : null,
  surveyId: null,
  capturedOn: null,
});

describe('high-resolution imagery status (spec 03 §4)', () => {
  it('reads an answer: a URL to load, no coverage without one, offline when the call failed', () => {
    expect(answerStatus({ success: true, url: '/a.jpg' }, false)).toEqual({ status: null, url: '/a.jpg' });
    expect(answerStatus({ success: false, url: null }, false).status).toBe(1);
    expect(answerStatus({ success: true, url: null }, false).status).toBe(1);
    expect(answerStatus(null, true).status).toBe(2);
  });

  it('counts the statuses and sends the most common, a tie to the lower number', () => {
    const views = [outcome('o', 0), outcome('n', 1), outcome('e', 1), outcome('s', 2), outcome('w', 1)];
    expect(countStatuses(views)).toEqual({ 0: 1, 1: 3, 2: 1 });
    expect(mostCommonStatus(countStatuses(views))).toBe(1);
    expect(mostCommonStatus({ 0: 2, 2: 2, 1: 1 })).toBe(0);
    expect(mostCommonStatus({ 2: 5 })).toBe(2);
  });

  it('defaults to the ortho when it loaded, else the first view that did', () => {
    expect(defaultView([outcome('o', 0), outcome('n', 0)])).toBe('o');
    expect(defaultView([outcome('o', 2), outcome('n', 1), outcome('e', 0), outcome('s', 0)])).toBe('e');
    expect(defaultView([outcome('o', 1)])).toBeNull();
  });
});
