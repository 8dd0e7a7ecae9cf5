import type { DataSource } from 'typeorm';

/**
 * Lists a pager keeps between requests, per database: a sort's checkpoints (every n-th key) or a filter's
 * sorted matches (every id in page order), read at a revision of the rows they list (a counter the
 * tables' triggers bump on every write that moves a row) and good while it stays. A page read from a list
 * checks the revision in its own statement, so it never mixes a list with rows that have moved since;
 * when the revision has moved on, the pager forgets the list and reads the page the plain way.
 *
 * Lists are read in the background, one read per list at a time (requests that need the same list share
 * the read in flight); the pager decides whether a request waits for it. What each database keeps is
 * bounded: the least recently used lists are dropped past a number of lists or of keys and ids in all.
 */

/** What every kept list has. */
export interface KeptList {
  /** The revision of the listed rows the list was read at (a bigint, as text). */
  revision: string;
  /** The number of rows the list's sort and filters select. */
  total: number;
  /** How many keys or ids it holds: the budget counts these. */
  size: number;
}

export interface KeptListsOptions {
  /** Who keeps the lists, named in the warning when one cannot be read ('request pager'). */
  owner: string;
  /** How many lists each database keeps … */
  maxLists: number;
  /** … and how many keys and ids in all (about 40 bytes each). */
  maxSize: number;
  /** How many lists are read at once per database (the machine's cores serve the pages too); no limit unless set. */
  maxReads?: number;
  /**
   * Up to this many keys of lists kept once are remembered (then forgotten all at once), so that a pager
   * can tell a list it never had from one that went out of date (`keptBefore`); none unless set.
   */
  keptKeysLimit?: number;
}

interface Store<List> {
  /** Least recently used first (a Map keeps insertion order). */
  lists: Map<string, List>;
  /** The sizes of the lists, added up. */
  size: number;
  /** The lists being read, by key: one read per list at a time. */
  reading: Map<string, Promise<void>>;
  /** Keys of lists kept once. */
  kept: Set<string>;
}

/** The kept lists of one kind of pager, for every database it reads (a DataSource each). */
export class KeptLists<List extends KeptList> {
  private readonly stores = new WeakMap<DataSource, Store<List>>();

  constructor(private readonly options: KeptListsOptions) {}

  private storeOf(ds: DataSource): Store<List> {
    let store = this.stores.get(ds);
    if (!store)
      this.stores.set(ds, (store = { lists: new Map(), size: 0, reading: new Map(), kept: new Set() }));
    return store;
  }

  /** The list kept under `key`, if any (now the most recently used). */
  peek(ds: DataSource, key: string): List | undefined {
    const { lists } = this.storeOf(ds);
    const kept = lists.get(key);
    if (kept) {
      lists.delete(key);
      lists.set(key, kept);
    }
    return kept;
  }

  /** Drops the list kept under `key` (out of date). */
  forget(ds: DataSource, key: string): void {
    const store = this.stores.get(ds);
    if (store) forgetIn(store, key);
  }

  /** Keeps `list` as the most recently used, dropping the least recently used over the budget. */
  remember(ds: DataSource, key: string, list: List): void {
    const store = this.storeOf(ds);
    const { maxLists, maxSize, keptKeysLimit = 0 } = this.options;
    forgetIn(store, key);
    store.lists.set(key, list);
    store.size += list.size;
    if (keptKeysLimit > 0) {
      if (store.kept.size > keptKeysLimit) store.kept.clear();
      store.kept.add(key);
    }
    for (const oldest of store.lists.keys()) {
      if ((store.lists.size <= maxLists && store.size <= maxSize) || oldest === key) break;
      forgetIn(store, oldest);
    }
  }

  /** Whether a list was kept under `key` before (with `keptKeysLimit`): it went out of date since. */
  keptBefore(ds: DataSource, key: string): boolean {
    return this.stores.get(ds)?.kept.has(key) ?? false;
  }

  /**
   * The read of the list under `key`: the one in flight, or `read` started now in the background (unless
   * `maxReads` lists are being read already: then undefined). What it answers is kept; undefined keeps
   * nothing. A failed read is a warning: the plain way goes on serving the pages, the next request tries
   * again.
   */
  read(ds: DataSource, key: string, read: () => Promise<List | undefined>): Promise<void> | undefined {
    const store = this.storeOf(ds);
    let reading = store.reading.get(key);
    if (!reading && store.reading.size < (this.options.maxReads ?? Infinity)) {
      reading = read()
        .then(
          (list) => {
            if (list) this.remember(ds, key, list);
          },
          (err: Error) =>
            process.emitWarning(`${this.options.owner}: a kept list could not be read: ${err.message}`),
        )
        .finally(() => store.reading.delete(key));
      store.reading.set(key, reading);
    }
    return reading;
  }

  /** The lists `ds` keeps, least recently used first (tests). */
  lists(ds: DataSource): List[] {
    return [...(this.stores.get(ds)?.lists.values() ?? [])];
  }

  /** How many lists `ds` keeps (tests). */
  count(ds: DataSource): number {
    return this.stores.get(ds)?.lists.size ?? 0;
  }

  /** Waits for the lists being read (before the database closes). */
  async settle(ds: DataSource): Promise<void> {
    const store = this.stores.get(ds);
    while (store && store.reading.size > 0) await Promise.all(store.reading.values());
  }
}

function forgetIn<List extends KeptList>(store: Store<List>, key: string) {
  const list = store.lists.get(key);
  if (!list) return;
  store.lists.delete(key);
  store.size -= list.size;
}

/** A uuid's text and the comma after it, in a list of sorted matches' ids joined by commas. */
const UUID_STRIDE = 37;

/**
 * The ids at positions `offset` … `offset + take - 1` of sorted matches kept as their ids joined by
 * commas (each 36 characters, so the n-th starts at 37 × n): still joined by commas.
 */
export const joinedUuidSlice = (ids: string, offset: number, take: number): string =>
  ids.slice(offset * UUID_STRIDE, (offset + take) * UUID_STRIDE - 1);
