import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import { randomUUID } from 'node:crypto';
import { purposeKey, sign, verifySignature } from '../signing.ts';
import { contentTypeFor, isSafeKey, type Storage } from './index.ts';

/** What a local file link signs: the key, its expiry (unix seconds) and the download name. */
const linkMessage = (key: string, expires: number, name: string) => `${key}\n${expires}\n${name}`;

export const LOCAL_FILES_PATH = '/api/files/';
/** Under /api/admin, so an upload link also needs the owner's session. */
export const LOCAL_UPLOADS_PATH = '/api/admin/uploads/';

const uploadMessage = (key: string, expires: number, contentType: string) =>
  `${key}\n${expires}\n${contentType}`;

/** Checks a local upload link (the api's upload route). */
export function verifyLocalUpload(
  secret: string,
  key: string,
  contentType: string,
  query: { expires?: unknown; sig?: unknown },
): boolean {
  const expires = Number(query.expires);
  return (
    Number.isInteger(expires) &&
    expires * 1000 >= Date.now() &&
    typeof query.sig === 'string' &&
    verifySignature(purposeKey(secret, 'file-upload'), uploadMessage(key, expires, contentType), query.sig)
  );
}

/** Checks a local file link's signature and expiry (the api's /api/files route). */
export function verifyLocalLink(
  secret: string,
  key: string,
  query: { expires?: unknown; name?: unknown; sig?: unknown },
) {
  const expires = Number(query.expires);
  const name = typeof query.name === 'string' ? query.name : '';
  if (!Number.isInteger(expires) || typeof query.sig !== 'string')
    return { valid: false as const, reason: 'unsigned' };
  if (!verifySignature(purposeKey(secret, 'file-link'), linkMessage(key, expires, name), query.sig)) {
    return { valid: false as const, reason: 'tampered' };
  }
  if (expires * 1000 < Date.now()) return { valid: false as const, reason: 'expired' };
  return { valid: true as const, name };
}

export function createLocalStorage(directory: string, links: { publicUrl: string; secret: string }): Storage {
  const root = path.resolve(directory);
  const linkKey = purposeKey(links.secret, 'file-link');

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
    async signedDownloadUrl(key, { expiresInSeconds, fileName }) {
      fileFor(key);
      const expires = Math.floor(Date.now() / 1000) + expiresInSeconds;
      const name = fileName ?? '';
      const query = new URLSearchParams({
        expires: String(expires),
        sig: sign(linkKey, linkMessage(key, expires, name)),
      });
      if (name) query.set('name', name);
      const encodedKey = key.split('/').map(encodeURIComponent).join('/');
      return `${links.publicUrl}${LOCAL_FILES_PATH}${encodedKey}?${query}`;
    },
    async signedUploadUrl(key, contentType, { expiresInSeconds }) {
      fileFor(key);
      const expires = Math.floor(Date.now() / 1000) + expiresInSeconds;
      const sig = sign(purposeKey(links.secret, 'file-upload'), uploadMessage(key, expires, contentType));
      const encodedKey = key.split('/').map(encodeURIComponent).join('/');
      return `${links.publicUrl}${LOCAL_UPLOADS_PATH}${encodedKey}?${new URLSearchParams({ expires: String(expires), sig })}`;
    },
  };
}
