import { resolveRouteParams, storageKey } from './routeParams';

const memoryStorage = (initial: Record<string, string> = {}) => {
  const data = new Map(Object.entries(initial));
  return {
    data,
    getItem: (key: string) => data.get(key) ?? null,
    setItem: (key: string, value: string) => void data.set(key, value),
  };
};

describe('spec 02 §2.1 route parameters', () => {
  it('takes a parameter from the query string and stores it', () => {
    const storage = memoryStorage();
    const values = resolveRouteParams(
      new URLSearchParams('requestID=r1&sectionID=s2'),
      ['requestID', 'sectionID'],
      storage,
    );
    expect(values).toEqual({ requestID: 'r1', sectionID: 's2' });
    expect(storage.data.get(storageKey('requestID'))).toBe('r1');
    expect(storage.data.get(storageKey('sectionID'))).toBe('s2');
  });

  it('uses the stored value when the query string lacks it', () => {
    const storage = memoryStorage({ [storageKey('requestID')]: 'kept', [storageKey('buildingID')]: '3' });
    const values = resolveRouteParams(new URLSearchParams(''), ['requestID', 'buildingID'], storage);
    expect(values).toEqual({ requestID: 'kept', buildingID: '3' });
  });

  it('a new value replaces the stored one; a blank one does not', () => {
    const storage = memoryStorage({ [storageKey('requestID')]: 'old', [storageKey('sectionID')]: 's1' });
    const values = resolveRouteParams(
      new URLSearchParams('requestID=new&sectionID=%20'),
      ['requestID', 'sectionID'],
      storage,
    );
    expect(values).toEqual({ requestID: 'new', sectionID: 's1' });
    expect(storage.data.get(storageKey('requestID'))).toBe('new');
  });

  it('is null when neither has it, and when the storage is missing or throws', () => {
    expect(resolveRouteParams(new URLSearchParams(''), ['improvementID'], memoryStorage())).toEqual({
      improvementID: null,
    });
    expect(resolveRouteParams(new URLSearchParams(''), ['requestID'], null)).toEqual({ requestID: null });
    const throwing = {
      getItem: () => {
        throw new Error('blocked');
      },
      setItem: () => {
        throw new Error('blocked');
      },
    };
    expect(
      resolveRouteParams(new URLSearchParams('requestID=r9'), ['requestID', 'sectionID'], throwing),
    ).toEqual({
      requestID: 'r9',
      sectionID: null,
    });
  });
});
