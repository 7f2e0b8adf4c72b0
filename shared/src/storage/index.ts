import type { Readable } from 'node:stream';
import type { Config } from '../config.ts';
import { createLocalStorage } from './local.ts';

export { LOCAL_FILES_PATH, LOCAL_UPLOADS_PATH, verifyLocalLink, verifyLocalUpload } from './local.ts';

export interface StoredObject {
  body: Readable;
  size: number;
  contentType: string;
}

/** Object storage for videos and previews. `local` keeps files under STORAGE_DIR; `s3` a bucket. */
export interface Storage {
  driver: 'local' | 's3';
  put(key: string, body: Buffer | Readable, contentType: string): Promise<void>;
  /** The object, or a byte range of it; null when it does not exist. */
  get(key: string, range?: { start: number; end?: number }): Promise<StoredObject | null>;
  head(key: string): Promise<{ size: number; contentType: string } | null>;
  delete(key: string): Promise<void>;
  /** A link that fetches the object for `expiresInSeconds`; with fileName it downloads under that name. */
  signedDownloadUrl(key: string, options: { expiresInSeconds: number; fileName?: string }): Promise<string>;
  /** A link the browser PUTs the file to (with this Content-Type) for `expiresInSeconds`. */
  signedUploadUrl(key: string, contentType: string, options: { expiresInSeconds: number }): Promise<string>;
}

/** Object keys are relative paths of safe segments: no traversal, no absolute paths. */
export function isSafeKey(key: string): boolean {
  return (
    key.length > 0 &&
    key.length <= 1_000 &&
    /^[A-Za-z0-9][A-Za-z0-9._\-/ ]*$/.test(key) &&
    key.split('/').every((segment) => segment !== '' && segment !== '.' && segment !== '..')
  );
}

export function contentTypeFor(key: string): string {
  const extension = key.slice(key.lastIndexOf('.') + 1).toLowerCase();
  return contentTypes[extension] ?? 'application/octet-stream';
}

const contentTypes: Record<string, string> = {
  mp4: 'video/mp4',
  m4v: 'video/mp4',
  mov: 'video/quicktime',
  webm: 'video/webm',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  avif: 'image/avif',
  svg: 'image/svg+xml',
};

export function createStorage(config: Config): Storage {
  if (config.STORAGE_DRIVER === 'local') {
    return createLocalStorage(config.STORAGE_DIR, {
      publicUrl: config.PUBLIC_URL,
      secret: config.SESSION_SECRET,
    });
  }
  throw new Error(`Storage driver ${config.STORAGE_DRIVER} is not available`);
}
