import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readFile, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { purposeKey, sign, verifySignature } from '../signing.ts';
import { contentTypeFor, encodeKey, isSafeKey } from './keys.ts';
import { MAX_PARTS, StorageError, type Storage } from './types.ts';

// Signed links for files kept on the api's disk. Each kind of link has its own key derived from
// SESSION_SECRET and signs everything that matters (key, expiry, name / type / part), so no link
// can be bent into another.

export const LOCAL_FILES_PATH = '/api/files/';
/** Under /api/admin, so an upload link also needs the owner's session. */
export const LOCAL_UPLOADS_PATH = '/api/admin/uploads/';

/** S3's smallest part (all but the last); the local driver keeps it so uploads behave the same on both. */
export const MIN_PART_BYTES = 5 * 1024 * 1024;

const linkMessage = (key: string, expires: number, name: string) => `${key}\n${expires}\n${name}`;
const uploadMessage = (key: string, expires: number, contentType: string) =>
  `${key}\n${expires}\n${contentType}`;
const partMessage = (key: string, expires: number, uploadId: string, partNumber: number) =>
  `${key}\n${expires}\n${uploadId}\n${partNumber}`;

type Refusal = { valid: false; reason: 'unsigned' | 'tampered' | 'expired' };
const nowSeconds = () => Math.floor(Date.now() / 1000);

function checkSignature(key: Buffer, message: string, expires: number, sig: unknown): Refusal | null {
  if (typeof sig !== 'string') return { valid: false, reason: 'unsigned' };
  if (!verifySignature(key, message, sig)) return { valid: false, reason: 'tampered' };
  if (expires * 1000 < Date.now()) return { valid: false, reason: 'expired' };
  return null;
}

/** Checks a local file link's signature and expiry (the api's /api/files route). */
export function verifyLocalLink(
  secret: string,
  key: string,
  query: { expires?: unknown; name?: unknown; sig?: unknown },
): Refusal | { valid: true; name: string } {
  const expires = Number(query.expires);
  const name = typeof query.name === 'string' ? query.name : '';
  if (!Number.isInteger(expires)) return { valid: false, reason: 'unsigned' };
  const refusal = checkSignature(
    purposeKey(secret, 'file-link'),
    linkMessage(key, expires, name),
    expires,
    query.sig,
  );
  return refusal ?? { valid: true, name };
}

/**
 * Checks a local upload link (the api's upload route): a whole file signed for its key and
 * Content-Type, or one part of a multipart upload signed for its key, upload and part number.
 */
export function verifyLocalUpload(
  secret: string,
  key: string,
  contentType: string,
  query: { expires?: unknown; sig?: unknown; uploadId?: unknown; partNumber?: unknown },
): Refusal | { valid: true; part: null } | { valid: true; part: { uploadId: string; partNumber: number } } {
  const expires = Number(query.expires);
  if (!Number.isInteger(expires)) return { valid: false, reason: 'unsigned' };
  if (query.uploadId === undefined && query.partNumber === undefined) {
    const refusal = checkSignature(
      purposeKey(secret, 'file-upload'),
      uploadMessage(key, expires, contentType),
      expires,
      query.sig,
    );
    return refusal ?? { valid: true, part: null };
  }
  const partNumber = Number(query.partNumber);
  if (typeof query.uploadId !== 'string' || !Number.isInteger(partNumber))
    return { valid: false, reason: 'unsigned' };
  const refusal = checkSignature(
    purposeKey(secret, 'file-upload-part'),
    partMessage(key, expires, query.uploadId, partNumber),
    expires,
    query.sig,
  );
  return refusal ?? { valid: true, part: { uploadId: query.uploadId, partNumber } };
}

export interface LocalStorage extends Storage {
  driver: 'local';
  /** Stores one part of a multipart upload (the target of a signed part link); its etag is the MD5. */
  putPart(key: string, uploadId: string, partNumber: number, body: Readable): Promise<{ etag: string }>;
}

export const isLocalStorage = (storage: Storage): storage is LocalStorage =>
  storage.driver === 'local' && 'putPart' in storage;

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const STALE_UPLOAD_MS = 7 * 24 * 3600 * 1000;

interface UploadRecord {
  key: string;
  contentType: string;
}

export function createLocalStorage(
  directory: string,
  links: { publicUrl: string; secret: string },
): LocalStorage {
  const root = path.resolve(directory);
  // Multipart uploads in progress. Keys start with a letter or digit, so never collide with this.
  const uploadsRoot = path.join(root, '.uploads');
  const linkKey = purposeKey(links.secret, 'file-link');
  const uploadKey = purposeKey(links.secret, 'file-upload');
  const partKey = purposeKey(links.secret, 'file-upload-part');

  function fileFor(key: string): string {
    if (!isSafeKey(key)) throw new Error(`Unsafe storage key: ${key}`);
    return path.join(root, key);
  }

  /** Writes beside the target and renames, so a reader never sees half a file. */
  async function writeAtomically(file: string, body: Readable, ...through: Transform[]): Promise<void> {
    await mkdir(path.dirname(file), { recursive: true });
    const partial = `${file}.${randomUUID()}.partial`;
    try {
      await pipeline([body, ...through, createWriteStream(partial)]);
      await rename(partial, file);
    } catch (error) {
      await rm(partial, { force: true });
      throw error;
    }
  }

  /** The folder of an upload in progress for this key; StorageError when there is none. */
  async function uploadFolder(key: string, uploadId: string): Promise<string> {
    const folder = path.join(uploadsRoot, uploadId);
    const record = uuidPattern.test(uploadId)
      ? await readFile(path.join(folder, 'upload.json'), 'utf8').then(
          (text) => JSON.parse(text) as UploadRecord,
          () => null,
        )
      : null;
    if (!record || record.key !== key) throw new StorageError('upload-not-found', 'Upload not found');
    return folder;
  }

  async function removeStaleUploads(): Promise<void> {
    const folders = await readdir(uploadsRoot).catch(() => [] as string[]);
    for (const name of folders) {
      const folder = path.join(uploadsRoot, name);
      const info = await stat(folder).catch(() => null);
      if (info && Date.now() - info.mtimeMs > STALE_UPLOAD_MS)
        await rm(folder, { recursive: true, force: true });
    }
  }

  const storage: LocalStorage = {
    driver: 'local',
    browserOrigin: null,
    async put(key, body) {
      await writeAtomically(fileFor(key), Buffer.isBuffer(body) ? Readable.from([body]) : body);
    },
    async head(key) {
      if (!isSafeKey(key)) return null;
      const info = await stat(fileFor(key)).catch(() => null);
      return info?.isFile() ? { size: info.size, contentType: contentTypeFor(key) } : null;
    },
    async get(key, range) {
      const info = await storage.head(key);
      if (!info) return null;
      const start = range?.start ?? 0;
      const end = Math.min(range?.end ?? info.size - 1, info.size - 1);
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
      const expires = nowSeconds() + expiresInSeconds;
      const name = fileName ?? '';
      const query = new URLSearchParams({ expires: String(expires) });
      if (name) query.set('name', name);
      query.set('sig', sign(linkKey, linkMessage(key, expires, name)));
      return `${links.publicUrl}${LOCAL_FILES_PATH}${encodeKey(key)}?${query}`;
    },
    async signedUploadUrl(key, contentType, { expiresInSeconds }) {
      fileFor(key);
      const expires = nowSeconds() + expiresInSeconds;
      const sig = sign(uploadKey, uploadMessage(key, expires, contentType));
      return `${links.publicUrl}${LOCAL_UPLOADS_PATH}${encodeKey(key)}?${new URLSearchParams({ expires: String(expires), sig })}`;
    },

    async createMultipartUpload(key, contentType) {
      fileFor(key);
      await removeStaleUploads();
      const uploadId = randomUUID();
      const folder = path.join(uploadsRoot, uploadId);
      await mkdir(folder, { recursive: true });
      await writeFile(
        path.join(folder, 'upload.json'),
        JSON.stringify({ key, contentType } satisfies UploadRecord),
      );
      return { uploadId };
    },
    async signedPartUrl(key, uploadId, partNumber, { expiresInSeconds }) {
      fileFor(key);
      const expires = nowSeconds() + expiresInSeconds;
      const query = new URLSearchParams({
        uploadId,
        partNumber: String(partNumber),
        expires: String(expires),
        sig: sign(partKey, partMessage(key, expires, uploadId, partNumber)),
      });
      return `${links.publicUrl}${LOCAL_UPLOADS_PATH}${encodeKey(key)}?${query}`;
    },
    async putPart(key, uploadId, partNumber, body) {
      if (!Number.isInteger(partNumber) || partNumber < 1 || partNumber > MAX_PARTS)
        throw new StorageError('invalid-parts', `Part numbers run from 1 to ${MAX_PARTS}`);
      const folder = await uploadFolder(key, uploadId);
      const md5 = createHash('md5');
      const hashing = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          md5.update(chunk);
          done(null, chunk);
        },
      });
      await writeAtomically(path.join(folder, `${partNumber}.part`), body, hashing);
      const etag = `"${md5.digest('hex')}"`;
      await writeFile(path.join(folder, `${partNumber}.etag`), etag);
      return { etag };
    },
    async completeMultipartUpload(key, uploadId, parts) {
      const folder = await uploadFolder(key, uploadId);
      if (parts.length === 0) throw new StorageError('invalid-parts', 'No parts were given');
      if (parts.some((part, index) => index > 0 && part.partNumber <= parts[index - 1]!.partNumber))
        throw new StorageError('invalid-parts', 'Parts must be listed in ascending order');
      const files: string[] = [];
      for (const [index, part] of parts.entries()) {
        const file = path.join(folder, `${part.partNumber}.part`);
        const etag = await readFile(path.join(folder, `${part.partNumber}.etag`), 'utf8').catch(() => null);
        if (etag === null || etag.replaceAll('"', '') !== part.etag.replaceAll('"', ''))
          throw new StorageError('invalid-parts', `Part ${part.partNumber} was not uploaded or has changed`);
        if (index < parts.length - 1 && (await stat(file)).size < MIN_PART_BYTES)
          throw new StorageError('invalid-parts', `Part ${part.partNumber} is smaller than 5 MB`);
        files.push(file);
      }
      await writeAtomically(
        fileFor(key),
        Readable.from(
          (async function* () {
            for (const file of files) yield* createReadStream(file);
          })(),
        ),
      );
      await rm(folder, { recursive: true, force: true });
    },
    async abortMultipartUpload(key, uploadId) {
      const folder = await uploadFolder(key, uploadId).catch(() => null);
      if (folder) await rm(folder, { recursive: true, force: true });
    },
  };
  return storage;
}
