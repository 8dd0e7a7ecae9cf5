import type { DataSource } from 'typeorm';
import { joinedUuidSlice, KeptLists, type KeptList } from './kept-lists';

interface Ids extends KeptList {
  ids: string;
}

/** A database as the cache sees it: only its identity matters. */
const database = () => ({}) as DataSource;
const list = (size: number, revision = '1'): Ids => ({ revision, total: size, size, ids: '' });

/** A read the test ends when it wants. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (err: Error) => void;
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
}

describe('KeptLists', () => {
  it('keeps lists per database, the least recently used dropped past the number of lists', () => {
    const kept = new KeptLists<Ids>({ owner: 'test', maxLists: 2, maxSize: 100 });
    const [a, b] = [database(), database()];
    kept.remember(a, 'one', list(1));
    kept.remember(a, 'two', list(1));
    expect(kept.peek(a, 'one')).toBeDefined(); // now the most recently used
    kept.remember(a, 'three', list(1));
    expect([kept.peek(a, 'one'), kept.peek(a, 'two'), kept.peek(a, 'three')].map(Boolean)).toEqual([
      true,
      false,
      true,
    ]);
    expect(kept.count(a)).toBe(2);
    expect(kept.count(b)).toBe(0);
    expect(kept.peek(b, 'one')).toBeUndefined();
  });

  it('drops the least recently used past the size budget, but always keeps the newest', () => {
    const kept = new KeptLists<Ids>({ owner: 'test', maxLists: 10, maxSize: 10 });
    const ds = database();
    kept.remember(ds, 'small', list(4));
    kept.remember(ds, 'medium', list(5));
    kept.remember(ds, 'large', list(6));
    expect(kept.lists(ds).map((l) => l.size)).toEqual([6]);
    kept.remember(ds, 'huge', list(50));
    expect(kept.lists(ds).map((l) => l.size)).toEqual([50]);
    // A list kept again under its key replaces the old one in the budget.
    kept.remember(ds, 'huge', list(3));
    kept.remember(ds, 'other', list(7));
    expect(kept.lists(ds).map((l) => l.size)).toEqual([3, 7]);
    kept.forget(ds, 'huge');
    kept.forget(ds, 'never kept');
    expect(kept.lists(ds).map((l) => l.size)).toEqual([7]);
  });

  it('reads a list once while requests ask for it, keeps what the read answers, and settles', async () => {
    const kept = new KeptLists<Ids>({ owner: 'test', maxLists: 10, maxSize: 100 });
    const ds = database();
    const read = deferred<Ids | undefined>();
    const reader = jest.fn(() => read.promise);
    const first = kept.read(ds, 'key', reader);
    const second = kept.read(ds, 'key', reader);
    expect(first).toBeDefined();
    expect(second).toBe(first);
    expect(reader).toHaveBeenCalledTimes(1);
    const settled = kept.settle(ds);
    read.resolve(list(3, '7'));
    await settled;
    expect(kept.peek(ds, 'key')).toMatchObject({ revision: '7', size: 3 });
    // A read that answers nothing keeps nothing.
    await kept.read(ds, 'none', async () => undefined);
    expect(kept.peek(ds, 'none')).toBeUndefined();
    await kept.settle(database());
  });

  it('starts no more than maxReads reads at once', async () => {
    const kept = new KeptLists<Ids>({ owner: 'test', maxLists: 10, maxSize: 100, maxReads: 1 });
    const ds = database();
    const read = deferred<Ids | undefined>();
    expect(kept.read(ds, 'a', () => read.promise)).toBeDefined();
    expect(kept.read(ds, 'b', async () => list(1))).toBeUndefined();
    read.resolve(list(1));
    await kept.settle(ds);
    expect(kept.read(ds, 'b', async () => list(1))).toBeDefined();
    await kept.settle(ds);
    expect(kept.count(ds)).toBe(2);
  });

  it('turns a failed read into a warning naming the owner, and tries again on the next request', async () => {
    const kept = new KeptLists<Ids>({ owner: 'the pager', maxLists: 10, maxSize: 100 });
    const ds = database();
    const warn = jest.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    try {
      await kept.read(ds, 'key', async () => {
        throw new Error('connection lost');
      });
      expect(warn).toHaveBeenCalledWith('the pager: a kept list could not be read: connection lost');
      expect(kept.peek(ds, 'key')).toBeUndefined();
      await kept.read(ds, 'key', async () => list(1));
      expect(kept.peek(ds, 'key')).toBeDefined();
    } finally {
      warn.mockRestore();
    }
  });

  it('tells a list kept before from one never kept, when asked to remember keys', () => {
    const remembering = new KeptLists<Ids>({ owner: 'test', maxLists: 10, maxSize: 100, keptKeysLimit: 2 });
    const forgetful = new KeptLists<Ids>({ owner: 'test', maxLists: 10, maxSize: 100 });
    const ds = database();
    for (const kept of [remembering, forgetful]) {
      kept.remember(ds, 'a', list(1));
      kept.forget(ds, 'a');
    }
    expect(remembering.keptBefore(ds, 'a')).toBe(true);
    expect(remembering.keptBefore(ds, 'b')).toBe(false);
    expect(forgetful.keptBefore(ds, 'a')).toBe(false);
    // Past the limit the keys are forgotten all at once.
    for (const key of ['b', 'c', 'd']) remembering.remember(ds, key, list(1));
    expect(['a', 'b', 'c', 'd'].map((key) => remembering.keptBefore(ds, key))).toEqual([
      false,
      false,
      false,
      true,
    ]);
  });
});

describe('joinedUuidSlice', () => {
  it('cuts ids at their positions out of ids joined by commas', () => {
    const ids = ['a', 'b', 'c', 'd'].map((c) => c.repeat(8) + '-0000-0000-0000-000000000000');
    const joined = ids.join(',');
    expect(joinedUuidSlice(joined, 1, 2)).toBe(ids.slice(1, 3).join(','));
    expect(joinedUuidSlice(joined, 3, 1)).toBe(ids[3]);
    expect(joinedUuidSlice(joined, 0, 4)).toBe(joined);
  });
});
