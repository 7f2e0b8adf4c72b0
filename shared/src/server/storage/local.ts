import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import {
  mkdir,
  open,
  readFile,
  readdir,
  rename,
  rm,
  stat,
  truncate,
  writeFile,
  type FileHandle,
} from 'node:fs/promises';
import path from 'node:path';
import { Readable, Transform, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { purposeKey, sign, verifySignature } from '../signing.ts';
import { contentTypeFor, encodeKey, isSafeKey } from '../../contracts/storage-keys.ts';
import { MAX_PARTS, StorageError, type MultipartAction, type Storage } from './types.ts';

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

const multipartMessage = (key: string, expires: number, uploadId: string, action: string) =>
  `${key}\n${expires}\n${uploadId}\n${action}`;

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

/** Checks a local link for one S3 request on a multipart upload: list its parts, complete or abort it. */
export function verifyLocalMultipart(
  secret: string,
  key: string,
  query: { expires?: unknown; sig?: unknown; uploadId?: unknown; action?: unknown },
): Refusal | { valid: true; uploadId: string; action: MultipartAction } {
  const expires = Number(query.expires);
  const { uploadId, action } = query;
  if (
    !Number.isInteger(expires) ||
    typeof uploadId !== 'string' ||
    (action !== 'list' && action !== 'complete' && action !== 'abort')
  )
    return { valid: false, reason: 'unsigned' };
  const refusal = checkSignature(
    purposeKey(secret, 'file-upload-multipart'),
    multipartMessage(key, expires, uploadId, action),
    expires,
    query.sig,
  );
  return refusal ?? { valid: true, uploadId, action };
}

export interface LocalStorage extends Storage {
  driver: 'local';
  /**
   * Stores one part of a multipart upload (the target of a signed part link) in its place in the
   * file being assembled. Its etag is a digest of its bytes in S3's shape (32 hex digits), so the same
   * file sent in the same parts gets the same etags and the bulk upload's content hash (decision 033).
   * It is SHA-256 cut to 128 bits rather than S3's MD5, which SHA extensions hash 2.3 times faster:
   * bench/files.ts's upload went from 129 to 161-166 MB/s (187 with no digest at all).
   *
   * `releaseChunks`: each chunk of `body` is freed as soon as it is on disk (decision 033), for a
   * body whose chunks nobody else holds: an http request's (node:http copies each read of the body
   * into a buffer of its own). Left to the garbage collector, a fast upload's chunks pile up to the
   * external-memory limit and then cost a full collection of the api's heap every 20-30 MB.
   */
  putPart(
    key: string,
    uploadId: string,
    partNumber: number,
    body: Readable,
    options?: { releaseChunks?: boolean },
  ): Promise<{ etag: string }>;
  /**
   * Writes the file, or the bytes `start` to `end` (inclusive), to `destination` (the api's file
   * route): two buffers per transfer, reused, so memory does not grow with file size or garbage.
   */
  send(key: string, start: number, end: number, destination: Writable): Promise<void>;
}

const SEND_CHUNK_BYTES = 256 * 1024;

/** Resolves once `chunk` has left the process (the socket's write finished), so its buffer may be reused. */
function flushed(destination: Writable, chunk: Buffer): Promise<void> {
  const written = new Promise<void>((resolve, reject) => {
    // A socket destroyed mid-write does not always call the write back.
    const gone = () => reject(new Error('The destination closed before the write finished'));
    destination.once('close', gone);
    destination.write(chunk, (error) => {
      destination.off('close', gone);
      if (error) reject(error);
      else resolve();
    });
  });
  // Awaited only after the next read: a client gone meanwhile must not count as an unhandled rejection.
  written.catch(() => {});
  return written;
}

export const isLocalStorage = (storage: Storage): storage is LocalStorage =>
  storage.driver === 'local' && 'putPart' in storage;

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const STALE_UPLOAD_MS = 7 * 24 * 3600 * 1000;

interface UploadRecord {
  key: string;
  contentType: string;
  partSize: number;
}

/** What a stored part was: the etag its PUT answered, and its length. */
interface PartRecord {
  etag: string;
  size: number;
}

/**
 * Passes `limit` bytes on and fails on the next one, before anything past the limit is written;
 * `bytes` is how many went through.
 */
export function byteLimit(limit: number, tooMany: () => Error): Transform & { bytes: number } {
  const counter = Object.assign(
    new Transform({
      // Room for a few socket reads, so the upload is not paused after every one of them.
      highWaterMark: 1024 * 1024,
      transform(chunk: Buffer, _encoding, done) {
        if (counter.bytes + chunk.length > limit) return done(tooMany());
        counter.bytes += chunk.length;
        done(null, chunk);
      },
    }),
    { bytes: 0 },
  );
  return counter;
}

/**
 * Frees a chunk's memory now rather than at the next full garbage collection: its ArrayBuffer is
 * detached (transferred to an empty one). Only a chunk that is the whole of its ArrayBuffer.
 */
function release(chunk: Buffer): void {
  const buffer = chunk.buffer as ArrayBuffer & { transfer?: (length: number) => ArrayBuffer };
  if (chunk.byteOffset === 0 && buffer.byteLength === chunk.length && buffer.transfer) buffer.transfer(0);
}

/**
 * Writes one part at its place in an upload's file: at most `limit` bytes from `position` (the next
 * byte fails the write before anything past the limit is written), each chunk seen by `observe` (the
 * part's digest). Chunks that arrived while a write was on disk go out together in one writev. The
 * writer is also the byte limit and the digest's hook: one stream between the socket and the disk.
 */
class PartWriter extends Writable {
  bytes = 0;
  #file: FileHandle | undefined;

  constructor(
    private readonly target: string,
    private readonly position: number,
    private readonly limit: number,
    private readonly tooMany: () => Error,
    private readonly observe: (chunk: Buffer) => void,
    private readonly releaseChunks: boolean,
  ) {
    // Room for a few socket reads, so the upload is not paused after every one of them.
    super({ highWaterMark: 1024 * 1024 });
  }

  override _construct(done: (error?: Error | null) => void): void {
    open(this.target, 'r+').then((file) => {
      this.#file = file;
      done();
    }, done);
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    this.#write([chunk]).then(() => done(), done);
  }

  override _writev(entries: Array<{ chunk: Buffer }>, done: (error?: Error | null) => void): void {
    this.#write(entries.map((entry) => entry.chunk)).then(() => done(), done);
  }

  override _destroy(error: Error | null, done: (error?: Error | null) => void): void {
    if (!this.#file) return done(error);
    this.#file.close().then(
      () => done(error),
      (closing: Error) => done(error ?? closing),
    );
  }

  async #write(chunks: Buffer[]): Promise<void> {
    const length = chunks.reduce((sum, chunk) => sum + chunk.length, 0);
    if (this.bytes + length > this.limit) throw this.tooMany();
    for (const chunk of chunks) this.observe(chunk);
    let pending = chunks;
    let at = this.position + this.bytes;
    // A write to a regular file may be short; the rest goes in the next.
    while (pending.length > 0) {
      const { bytesWritten } = await this.#file!.writev(pending, at);
      at += bytesWritten;
      pending = rest(pending, bytesWritten);
    }
    this.bytes += length;
    if (this.releaseChunks) chunks.forEach(release);
  }
}

/** The buffers left after the first `bytes` of them. */
function rest(buffers: Buffer[], bytes: number): Buffer[] {
  const left: Buffer[] = [];
  for (const buffer of buffers) {
    if (bytes >= buffer.length) bytes -= buffer.length;
    else {
      left.push(bytes > 0 ? buffer.subarray(bytes) : buffer);
      bytes = 0;
    }
  }
  return left;
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
  const multipartKey = purposeKey(links.secret, 'file-upload-multipart');

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

  /** The folder and record of an upload in progress for this key; StorageError when there is none. */
  async function uploadFolder(
    key: string,
    uploadId: string,
  ): Promise<{ folder: string; upload: UploadRecord }> {
    // An unsafe key is a mistake of the caller, as the S3 driver says, not an unknown upload.
    fileFor(key);
    const folder = path.join(uploadsRoot, uploadId);
    const upload = uuidPattern.test(uploadId)
      ? await readFile(path.join(folder, 'upload.json'), 'utf8').then(
          (text) => JSON.parse(text) as UploadRecord,
          () => null,
        )
      : null;
    if (!upload || upload.key !== key) throw new StorageError('upload-not-found', 'Upload not found');
    return { folder, upload };
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
    async send(key, start, end, destination) {
      const file = await open(fileFor(key), 'r');
      try {
        // One buffer is read into while the other is being written.
        const buffers = [Buffer.allocUnsafeSlow(SEND_CHUNK_BYTES), Buffer.allocUnsafeSlow(SEND_CHUNK_BYTES)];
        let writing: Promise<void> = Promise.resolve();
        for (let position = start, turn = 0; position <= end && !destination.destroyed; turn ^= 1) {
          const buffer = buffers[turn]!;
          const { bytesRead } = await file.read(
            buffer,
            0,
            Math.min(buffer.length, end - position + 1),
            position,
          );
          if (bytesRead === 0) throw new Error(`${key} ended before byte ${end}`);
          await writing;
          writing = flushed(destination, buffer.subarray(0, bytesRead));
          position += bytesRead;
        }
        await writing;
      } finally {
        await file.close();
      }
    },
    async delete(key) {
      await rm(fileFor(key), { force: true });
    },
    async deletePrefix(prefix) {
      if (!prefix.endsWith('/')) throw new Error(`Not a folder: ${prefix}`);
      await rm(fileFor(prefix.slice(0, -1)), { recursive: true, force: true });
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

    async createMultipartUpload(key, contentType, partSize) {
      fileFor(key);
      if (!Number.isInteger(partSize) || partSize < MIN_PART_BYTES)
        throw new Error(`Parts must be at least ${MIN_PART_BYTES} bytes`);
      await removeStaleUploads();
      const uploadId = randomUUID();
      const folder = path.join(uploadsRoot, uploadId);
      await mkdir(folder, { recursive: true });
      // The file is assembled in place: part n is written at (n - 1) × partSize, so completing an
      // upload renames it rather than copying every byte again (decision 018).
      await writeFile(path.join(folder, 'data'), '');
      await writeFile(
        path.join(folder, 'upload.json'),
        JSON.stringify({ key, contentType, partSize } satisfies UploadRecord),
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
    async signedMultipartUrl(key, uploadId, action, { expiresInSeconds }) {
      fileFor(key);
      const expires = nowSeconds() + expiresInSeconds;
      const query = new URLSearchParams({
        uploadId,
        action,
        expires: String(expires),
        sig: sign(multipartKey, multipartMessage(key, expires, uploadId, action)),
      });
      return `${links.publicUrl}${LOCAL_UPLOADS_PATH}${encodeKey(key)}?${query}`;
    },
    async putPart(key, uploadId, partNumber, body, options) {
      if (!Number.isInteger(partNumber) || partNumber < 1 || partNumber > MAX_PARTS)
        throw new StorageError('invalid-parts', `Part numbers run from 1 to ${MAX_PARTS}`);
      const { folder, upload } = await uploadFolder(key, uploadId);
      const record = path.join(folder, `${partNumber}.json`);
      // Until this write has finished, the part counts as not uploaded.
      await rm(record, { force: true });
      const digest = createHash('sha256');
      const writer = new PartWriter(
        path.join(folder, 'data'),
        (partNumber - 1) * upload.partSize,
        upload.partSize,
        () => new StorageError('invalid-parts', `Part ${partNumber} is larger than ${upload.partSize} bytes`),
        (chunk) => digest.update(chunk),
        options?.releaseChunks ?? false,
      );
      await pipeline(body, writer);
      const etag = `"${digest.digest('hex').slice(0, 32)}"`;
      await writeFile(record, JSON.stringify({ etag, size: writer.bytes } satisfies PartRecord));
      return { etag };
    },
    async listParts(key, uploadId) {
      const { folder } = await uploadFolder(key, uploadId);
      const names = await readdir(folder);
      const parts: Array<{ partNumber: number; etag: string; size: number }> = [];
      for (const name of names) {
        const match = /^(\d+)\.json$/.exec(name);
        if (!match) continue;
        // A record is written after its part's bytes, so a listed part is whole.
        const stored = await readFile(path.join(folder, name), 'utf8').then(
          (text) => JSON.parse(text) as PartRecord,
          () => null,
        );
        if (stored) parts.push({ partNumber: Number(match[1]), etag: stored.etag, size: stored.size });
      }
      return parts.sort((a, b) => a.partNumber - b.partNumber);
    },
    async completeMultipartUpload(key, uploadId, parts) {
      const { folder, upload } = await uploadFolder(key, uploadId);
      if (parts.length === 0) throw new StorageError('invalid-parts', 'No parts were given');
      if (parts.some((part, index) => index > 0 && part.partNumber <= parts[index - 1]!.partNumber))
        throw new StorageError('invalid-parts', 'Parts must be listed in ascending order');
      if (parts.some((part, index) => part.partNumber !== index + 1))
        throw new StorageError('invalid-parts', 'Parts must be numbered 1, 2, 3... without gaps');
      let size = 0;
      for (const [index, part] of parts.entries()) {
        const stored = await readFile(path.join(folder, `${part.partNumber}.json`), 'utf8').then(
          (text) => JSON.parse(text) as PartRecord,
          () => null,
        );
        if (!stored || stored.etag.replaceAll('"', '') !== part.etag.replaceAll('"', ''))
          throw new StorageError('invalid-parts', `Part ${part.partNumber} was not uploaded or has changed`);
        if (index < parts.length - 1 && stored.size !== upload.partSize)
          throw new StorageError(
            'invalid-parts',
            `Part ${part.partNumber} holds ${stored.size} bytes; every part but the last must hold ${upload.partSize}`,
          );
        size += stored.size;
      }
      const data = path.join(folder, 'data');
      // Parts not listed (a later number uploaded, then left out) are cut off.
      await truncate(data, size);
      const file = fileFor(key);
      await mkdir(path.dirname(file), { recursive: true });
      await rename(data, file);
      await rm(folder, { recursive: true, force: true });
    },
    async abortMultipartUpload(key, uploadId) {
      fileFor(key);
      const found = await uploadFolder(key, uploadId).catch(() => null);
      if (found) await rm(found.folder, { recursive: true, force: true });
    },
  };
  return storage;
}
