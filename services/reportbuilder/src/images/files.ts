import type { Storage } from '@portal/server-kit';

/** Content type of a served name (what the service made: PNG or JPEG). */
export const contentTypeOf = (name: string) => (name.endsWith('.png') ? 'image/png' : 'image/jpeg');

/**
 * Writes all `files` or none: each put is atomic (storage), and when one fails the ones written before it
 * are put back as they were (or removed). Everything is encoded before this is called.
 */
export async function putAll(storage: Storage, files: { key: string; data: Buffer; contentType: string }[]) {
  const before = await Promise.all(files.map((file) => storage.get(file.key)));
  const written: number[] = [];
  try {
    for (const [i, file] of files.entries()) {
      await storage.put(file.key, file.data, { contentType: file.contentType });
      written.push(i);
    }
  } catch (error) {
    for (const i of written) {
      const old = before[i];
      await (
        old
          ? storage.put(files[i]!.key, old.data, { contentType: old.info.contentType })
          : storage.delete(files[i]!.key)
      ).catch(() => undefined);
    }
    throw error;
  }
}
