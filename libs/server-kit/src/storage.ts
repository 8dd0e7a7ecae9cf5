import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readFile, rename, rm, stat, unlink, writeFile } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/**
 * Files the services keep (rendered imagery, report images, thumbnails, PDFs, exports) behind one
 * interface (ARCHITECTURE §5): the local-disk driver is the default; a cluster plugs in an
 * S3-compatible driver implementing the same interface (see `createStorage`).
 *
 * Keys are relative, slash-separated paths of safe characters (`imagery/-33.92490_18.42410/o.jpg`), never
 * absolute and never with `.`/`..` segments, so a key taken from a URL cannot reach outside the store.
 */
export interface Storage {
  /** Stores `data` under `key` (replacing what was there) and answers what was stored. */
  put(key: string, data: Buffer | Uint8Array | string | Readable, options: PutOptions): Promise<StoredObject>;
  /** The whole object, or null when there is none. */
  get(key: string): Promise<{ data: Buffer; info: StoredObject } | null>;
  /** A stream of the object, or null when there is none (the caller consumes or destroys the stream). */
  stream(key: string): Promise<{ stream: Readable; info: StoredObject } | null>;
  /** What is stored under `key` (size, type, time, etag), or null. */
  stat(key: string): Promise<StoredObject | null>;
  exists(key: string): Promise<boolean>;
  /** Removes the object; true when there was one. */
  delete(key: string): Promise<boolean>;
}

export interface PutOptions {
  /** MIME type, answered back by get/stream/stat (and sent as Content-Type when the object is served). */
  contentType: string;
}

export interface StoredObject {
  key: string;
  contentType: string;
  size: number;
  modifiedAt: Date;
  /** A strong validator for HTTP caching: a hash of the content, quoted as an ETag header wants it. */
  etag: string;
}

/** A key that is not a safe relative path (absolute, `..`, odd characters, too long). */
export class InvalidStorageKeyError extends Error {
  constructor(
    readonly key: string,
    reason: string,
  ) {
    super(`Invalid storage key '${key.length > 80 ? `${key.slice(0, 80)}…` : key}': ${reason}`);
    this.name = 'InvalidStorageKeyError';
  }
}

export const MAX_STORAGE_KEY_LENGTH = 512;
const SEGMENT = /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/;

/**
 * Throws InvalidStorageKeyError unless `key` is a relative path of segments made of letters, digits,
 * `.`, `_` and `-`, none empty and none starting with a dot (so no `.`, `..` or hidden files, where the
 * local driver keeps its metadata and temporary files).
 */
export function assertStorageKey(key: string): void {
  if (typeof key !== 'string' || key === '') throw new InvalidStorageKeyError(String(key), 'empty');
  if (key.length > MAX_STORAGE_KEY_LENGTH)
    throw new InvalidStorageKeyError(key, `longer than ${MAX_STORAGE_KEY_LENGTH} characters`);
  for (const segment of key.split('/')) {
    if (!SEGMENT.test(segment))
      throw new InvalidStorageKeyError(
        key,
        'use relative paths of letters, digits, ".", "_" and "-", no empty or dot-led segments',
      );
  }
}

export const isValidStorageKey = (key: string): boolean => {
  try {
    assertStorageKey(key);
    return true;
  } catch {
    return false;
  }
};

export type StorageConfig =
  /** Files under `dir`; the default. */
  { driver: 'local'; dir: string };

/**
 * The storage a service was configured with. Only the local-disk driver exists today. An S3-compatible
 * driver is the extension point for a cluster: a class implementing `Storage` over PutObject /
 * GetObject / HeadObject / DeleteObject (content type as the object's Content-Type, etag from the
 * object's ETag), added as `{ driver: 's3', bucket, prefix, endpoint }` here.
 */
export function createStorage(config: StorageConfig): Storage {
  switch (config.driver) {
    case 'local':
      return new LocalDiskStorage(config.dir);
  }
}

interface LocalMetadata {
  contentType: string;
  etag: string;
}

/**
 * Objects as files under `root`: the content at `root/objects/<key>`, its content type and hash at
 * `root/meta/<key>.json`. Writes go to a temporary file renamed into place, so a reader never sees half
 * a file and two writers of one key leave one whole object. The content is written before its metadata
 * and an object counts as present only when both exist.
 */
export class LocalDiskStorage implements Storage {
  readonly root: string;
  private readonly objectsDir: string;
  private readonly metaDir: string;

  constructor(root: string) {
    this.root = resolve(root);
    this.objectsDir = join(this.root, 'objects');
    this.metaDir = join(this.root, 'meta');
  }

  async put(
    key: string,
    data: Buffer | Uint8Array | string | Readable,
    options: PutOptions,
  ): Promise<StoredObject> {
    const objectPath = this.objectPath(key);
    const metaPath = this.metaPath(key);
    await mkdir(dirname(objectPath), { recursive: true });
    await mkdir(dirname(metaPath), { recursive: true });
    const temporary = join(dirname(objectPath), `.${randomBytes(8).toString('hex')}.tmp`);
    const hash = createHash('sha256');
    try {
      if (typeof data === 'string' || data instanceof Uint8Array) {
        const bytes = typeof data === 'string' ? Buffer.from(data) : data;
        hash.update(bytes);
        await writeFile(temporary, bytes);
      } else {
        data.on('data', (chunk: Buffer) => hash.update(chunk));
        await pipeline(data, createWriteStream(temporary));
      }
      const metadata: LocalMetadata = {
        contentType: options.contentType,
        etag: `"${hash.digest('base64url').slice(0, 27)}"`,
      };
      await rename(temporary, objectPath);
      await writeAtomically(metaPath, JSON.stringify(metadata));
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
    const info = await this.stat(key);
    if (!info) throw new Error(`Storage object '${key}' vanished while it was written`);
    return info;
  }

  async get(key: string): Promise<{ data: Buffer; info: StoredObject } | null> {
    const info = await this.stat(key);
    if (!info) return null;
    try {
      return { data: await readFile(this.objectPath(key)), info };
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  async stream(key: string): Promise<{ stream: Readable; info: StoredObject } | null> {
    const info = await this.stat(key);
    if (!info) return null;
    const stream = createReadStream(this.objectPath(key));
    // Opening fails asynchronously; wait for it so a file deleted since stat() is a null, not a crash.
    const opened = await new Promise<boolean>((resolveOpen, rejectOpen) => {
      stream.once('open', () => resolveOpen(true));
      stream.once('error', (error) => (isNotFound(error) ? resolveOpen(false) : rejectOpen(error)));
    });
    return opened ? { stream, info } : null;
  }

  async stat(key: string): Promise<StoredObject | null> {
    const objectPath = this.objectPath(key);
    try {
      const [file, metadataText] = await Promise.all([
        stat(objectPath),
        readFile(this.metaPath(key), 'utf8'),
      ]);
      if (!file.isFile()) return null;
      const metadata = JSON.parse(metadataText) as LocalMetadata;
      return {
        key,
        contentType: metadata.contentType,
        size: file.size,
        modifiedAt: file.mtime,
        etag: metadata.etag,
      };
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  async exists(key: string): Promise<boolean> {
    return (await this.stat(key)) !== null;
  }

  async delete(key: string): Promise<boolean> {
    const existed = await this.exists(key);
    await Promise.all([unlinkIfPresent(this.metaPath(key)), unlinkIfPresent(this.objectPath(key))]);
    return existed;
  }

  private objectPath(key: string): string {
    return this.inside(this.objectsDir, key, '');
  }

  private metaPath(key: string): string {
    return this.inside(this.metaDir, key, '.json');
  }

  /** The file for `key` under `dir`, checked twice: by the key's grammar and by the resolved path. */
  private inside(dir: string, key: string, suffix: string): string {
    assertStorageKey(key);
    const path = resolve(dir, key + suffix);
    if (!path.startsWith(dir + sep)) throw new InvalidStorageKeyError(key, 'resolves outside the store');
    return path;
  }
}

async function writeAtomically(path: string, content: string): Promise<void> {
  const temporary = join(dirname(path), `.${randomBytes(8).toString('hex')}.tmp`);
  try {
    await writeFile(temporary, content);
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

async function unlinkIfPresent(path: string): Promise<void> {
  try {
    await unlink(path);
  } catch (error) {
    if (!isNotFound(error)) throw error;
  }
}

function isNotFound(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}
