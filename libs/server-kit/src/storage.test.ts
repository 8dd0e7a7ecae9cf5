import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import {
  InvalidStorageKeyError,
  LocalDiskStorage,
  assertStorageKey,
  createStorage,
  isValidStorageKey,
} from './storage';

let root: string;
let storage: LocalDiskStorage;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'storage-test-'));
  storage = new LocalDiskStorage(join(root, 'store'));
});

afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('storage keys', () => {
  it.each(['a.jpg', 'imagery/-33.92490_18.42410/o-full.jpg', 'reports/2026/01/x_y-z.pdf'])(
    'accepts %s',
    (key) => expect(isValidStorageKey(key)).toBe(true),
  );

  it.each([
    ['empty', ''],
    ['parent segment', '../secret'],
    ['parent segment inside', 'a/../../etc/passwd'],
    ['absolute', '/etc/passwd'],
    ['empty segment', 'a//b'],
    ['dot segment', 'a/./b'],
    ['dot-led', '.hidden'],
    ['backslash', 'a\\..\\b'],
    ['space', 'a b'],
    ['percent-encoded', '%2e%2e/x'],
    ['too long', 'x'.repeat(513)],
  ])('refuses a key: %s', (_reason, key) => {
    expect(() => assertStorageKey(key)).toThrow(InvalidStorageKeyError);
  });
});

describe('LocalDiskStorage', () => {
  it('puts, stats, gets, streams and deletes an object with its content type', async () => {
    const stored = await storage.put('images/a/b.jpg', Buffer.from('jpeg bytes'), {
      contentType: 'image/jpeg',
    });
    expect(stored).toMatchObject({ key: 'images/a/b.jpg', contentType: 'image/jpeg', size: 10 });
    expect(stored.etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    expect(await storage.exists('images/a/b.jpg')).toBe(true);

    const got = await storage.get('images/a/b.jpg');
    expect(got?.data.toString()).toBe('jpeg bytes');
    expect(got?.info).toEqual(stored);

    const streamed = await storage.stream('images/a/b.jpg');
    expect(streamed?.info.contentType).toBe('image/jpeg');
    expect(await text(streamed!.stream)).toBe('jpeg bytes');

    expect(await storage.delete('images/a/b.jpg')).toBe(true);
    expect(await storage.exists('images/a/b.jpg')).toBe(false);
    expect(await storage.get('images/a/b.jpg')).toBeNull();
    expect(await storage.stream('images/a/b.jpg')).toBeNull();
    expect(await storage.delete('images/a/b.jpg')).toBe(false);
  });

  it('answers null / false for a key never stored', async () => {
    expect(await storage.stat('nothing/here.txt')).toBeNull();
    expect(await storage.exists('nothing/here.txt')).toBe(false);
    expect(await storage.get('nothing/here.txt')).toBeNull();
  });

  it('stores strings and streams, and replaces an object whole', async () => {
    await storage.put('doc.txt', 'first version', { contentType: 'text/plain' });
    const replaced = await storage.put(
      'doc.txt',
      Readable.from([Buffer.from('second '), Buffer.from('one')]),
      {
        contentType: 'text/markdown',
      },
    );
    expect(replaced).toMatchObject({ size: 10, contentType: 'text/markdown' });
    expect((await storage.get('doc.txt'))?.data.toString()).toBe('second one');
  });

  it('gives equal content equal etags and different content different ones', async () => {
    const a = await storage.put('a', 'same', { contentType: 'text/plain' });
    const b = await storage.put('b', 'same', { contentType: 'text/plain' });
    const c = await storage.put('c', 'other', { contentType: 'text/plain' });
    expect(a.etag).toBe(b.etag);
    expect(c.etag).not.toBe(a.etag);
  });

  it('keeps everything under its folder and leaves no temporary files', async () => {
    await storage.put('x/y.bin', Buffer.alloc(3), { contentType: 'application/octet-stream' });
    expect(readdirSync(join(root, 'store', 'objects', 'x'))).toEqual(['y.bin']);
    expect(readdirSync(join(root, 'store', 'meta', 'x'))).toEqual(['y.bin.json']);
    expect(readdirSync(root)).toEqual(['store']);
  });

  it('refuses path traversal on every operation without touching the disk outside', async () => {
    writeFileSync(join(root, 'outside.txt'), 'secret');
    const traversal = '../../outside.txt';
    await expect(storage.put(traversal, 'x', { contentType: 'text/plain' })).rejects.toThrow(
      InvalidStorageKeyError,
    );
    await expect(storage.get(traversal)).rejects.toThrow(InvalidStorageKeyError);
    await expect(storage.stream(traversal)).rejects.toThrow(InvalidStorageKeyError);
    await expect(storage.exists(traversal)).rejects.toThrow(InvalidStorageKeyError);
    await expect(storage.delete(traversal)).rejects.toThrow(InvalidStorageKeyError);
    expect(existsSync(join(root, 'outside.txt'))).toBe(true);
  });

  it('does not count content without its metadata as stored (a write cut short)', async () => {
    await storage.put('half.jpg', 'x', { contentType: 'image/jpeg' });
    rmSync(join(root, 'store', 'meta', 'half.jpg.json'));
    expect(await storage.exists('half.jpg')).toBe(false);
  });

  it('is what createStorage makes for the local driver', () => {
    expect(createStorage({ driver: 'local', dir: root })).toBeInstanceOf(LocalDiskStorage);
  });
});
