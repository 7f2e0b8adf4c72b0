import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import { randomUUID } from 'node:crypto';
import { contentTypeFor, isSafeKey, type Storage } from './index.ts';

export function createLocalStorage(directory: string): Storage {
  const root = path.resolve(directory);

  function fileFor(key: string): string {
    if (!isSafeKey(key)) throw new Error(`Unsafe storage key: ${key}`);
    return path.join(root, key);
  }

  return {
    driver: 'local',
    async put(key, body) {
      const file = fileFor(key);
      await mkdir(path.dirname(file), { recursive: true });
      // Write beside the target and rename, so a reader never sees half a file.
      const partial = `${file}.${randomUUID()}.part`;
      try {
        await pipeline(Buffer.isBuffer(body) ? Readable.from([body]) : body, createWriteStream(partial));
        await rename(partial, file);
      } catch (error) {
        await rm(partial, { force: true });
        throw error;
      }
    },
    async head(key) {
      if (!isSafeKey(key)) return null;
      const info = await stat(fileFor(key)).catch(() => null);
      return info?.isFile() ? { size: info.size, contentType: contentTypeFor(key) } : null;
    },
    async get(key, range) {
      const info = await this.head(key);
      if (!info) return null;
      const end = range ? Math.min(range.end ?? info.size - 1, info.size - 1) : info.size - 1;
      const start = range?.start ?? 0;
      return {
        body: createReadStream(fileFor(key), { start, end }),
        size: info.size,
        contentType: info.contentType,
      };
    },
    async delete(key) {
      await rm(fileFor(key), { force: true });
    },
  };
}
