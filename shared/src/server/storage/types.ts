import type { Readable } from 'node:stream';

export interface StoredObject {
  body: Readable;
  /** The whole object's size, also when `body` holds only a range of it. */
  size: number;
  contentType: string;
}

export interface UploadedPart {
  partNumber: number;
  etag: string;
}

/** Object storage for videos and previews. `local` keeps files under STORAGE_DIR; `s3` a bucket. */
export interface Storage {
  driver: 'local' | 's3';
  /**
   * The origin browsers fetch signed links from when it is not the site itself (the S3 endpoint),
   * for the Content-Security-Policy; null for local storage.
   */
  browserOrigin: string | null;
  put(key: string, body: Buffer | Readable, contentType: string): Promise<void>;
  /** The object, or a byte range of it (`end` inclusive); null when it does not exist. */
  get(key: string, range?: { start: number; end?: number }): Promise<StoredObject | null>;
  head(key: string): Promise<{ size: number; contentType: string } | null>;
  delete(key: string): Promise<void>;
  /** Deletes every object under `prefix` (a folder, ending in '/'): a video's adaptive stream. */
  deletePrefix(prefix: string): Promise<void>;
  /** A link that fetches the object for `expiresInSeconds`; with fileName it downloads under that name. */
  signedDownloadUrl(key: string, options: { expiresInSeconds: number; fileName?: string }): Promise<string>;
  /** A link the browser PUTs the file to (with this Content-Type) for `expiresInSeconds`. */
  signedUploadUrl(key: string, contentType: string, options: { expiresInSeconds: number }): Promise<string>;

  // Multipart uploads, for files too big to send in one request: create, PUT each part to its
  // signed link (the answer's ETag header is the part's etag), then complete, or abort.
  /**
   * `partSize`: the size of every part but the last (at least 5 MB), as the upload plan promises the
   * browser. S3 does not need it; the local driver writes each part in its place with it.
   */
  createMultipartUpload(key: string, contentType: string, partSize: number): Promise<{ uploadId: string }>;
  signedPartUrl(
    key: string,
    uploadId: string,
    partNumber: number,
    options: { expiresInSeconds: number },
  ): Promise<string>;
  /**
   * A link for one S3 request on a multipart upload, so a browser speaking S3's REST protocol (Uppy)
   * lists its parts (GET), completes it (POST with the parts as XML) or aborts it (DELETE).
   */
  signedMultipartUrl(
    key: string,
    uploadId: string,
    action: MultipartAction,
    options: { expiresInSeconds: number },
  ): Promise<string>;
  /**
   * The parts stored so far (number, etag, size), in order: a resumed upload sends only the others.
   * StorageError `upload-not-found` when the upload was completed, aborted or never made.
   */
  listParts(key: string, uploadId: string): Promise<Array<UploadedPart & { size: number }>>;
  completeMultipartUpload(key: string, uploadId: string, parts: UploadedPart[]): Promise<void>;
  abortMultipartUpload(key: string, uploadId: string): Promise<void>;
}

export type MultipartAction = 'list' | 'complete' | 'abort';

/** A storage failure the caller caused: an unknown upload, or parts that do not add up. */
export class StorageError extends Error {
  override name = 'StorageError';
  constructor(
    readonly code: 'upload-not-found' | 'invalid-parts',
    message: string,
  ) {
    super(message);
  }
}

/** S3's limits on multipart uploads, kept by both drivers. */
export const MAX_PARTS = 10_000;
