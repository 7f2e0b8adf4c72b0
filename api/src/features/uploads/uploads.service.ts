import { createHash, randomUUID } from 'node:crypto';
import {
  MAX_UPLOAD_BYTES,
  MULTIPART_THRESHOLD_BYTES,
  type UploadSignRequest,
  type UploadTarget,
  type UploadUrlRequest,
} from '@app/shared/schemas';
import type { Storage } from '@app/shared/storage';

export const UPLOAD_LINK_SECONDS = 3600;
/** Part links of a big upload live longer: a 5 GB file on a slow line takes hours. */
export const PART_LINK_SECONDS = 6 * 3600;
const MIN_PLANNED_PART_BYTES = 16 * 1024 * 1024;
const MAX_PLANNED_PARTS = 10_000;

/** `videos/<uuid>-<name>` (or the folder given): unique, and safe as a storage key. */
export function uploadKey(fileName: string, folder?: 'uploads'): string {
  const base =
    fileName
      .normalize('NFKD')
      .replace(/^.*[/\\]/, '')
      .replace(/[^\w.-]+/g, '-')
      .replace(/^[-.]+/, '')
      .slice(-120) || 'upload';
  return `${folder ?? 'videos'}/${randomUUID()}-${base}`;
}

/** Parts of at least 16 MB, and never more than S3's 10,000. */
export function partSizeFor(size: number): number {
  const mebibyte = 1024 * 1024;
  return Math.max(MIN_PLANNED_PART_BYTES, Math.ceil(size / MAX_PLANNED_PARTS / mebibyte) * mebibyte);
}

/** One signed PUT for a small file; a multipart upload with a signed link per part for a big one. */
export async function planUpload(
  storage: Storage,
  request: UploadUrlRequest,
  folder?: 'uploads',
): Promise<UploadTarget> {
  const { fileName, contentType, size } = request;
  const awsKey = uploadKey(fileName, folder);
  if (size === undefined || size <= MULTIPART_THRESHOLD_BYTES) {
    const uploadUrl = await storage.signedUploadUrl(awsKey, contentType, {
      expiresInSeconds: UPLOAD_LINK_SECONDS,
    });
    return { kind: 'single', uploadUrl, awsKey, contentType };
  }
  if (size > MAX_UPLOAD_BYTES) throw new Error('Upload is larger than the limit');
  const partSize = partSizeFor(size);
  const { uploadId } = await storage.createMultipartUpload(awsKey, contentType, partSize);
  const partNumbers = Array.from({ length: Math.ceil(size / partSize) }, (_, index) => index + 1);
  const parts = await Promise.all(
    partNumbers.map(async (partNumber) => ({
      partNumber,
      url: await storage.signedPartUrl(awsKey, uploadId, partNumber, { expiresInSeconds: PART_LINK_SECONDS }),
    })),
  );
  return { kind: 'multipart', uploadId, awsKey, contentType, partSize, parts };
}

/**
 * A link for one S3 request on a multipart upload (the admin's uploader speaks S3's protocol): a part
 * PUT, or list, complete or abort. Storage refuses an upload it does not know when the link is used.
 */
export async function signUploadRequest(
  storage: Storage,
  request: UploadSignRequest,
): Promise<{ url: string }> {
  const { awsKey, uploadId } = request;
  const options = { expiresInSeconds: PART_LINK_SECONDS };
  return {
    url:
      request.action === 'part'
        ? await storage.signedPartUrl(awsKey, uploadId, request.partNumber, options)
        : await storage.signedMultipartUrl(awsKey, uploadId, request.action, options),
  };
}

/**
 * S3's ETag of a multipart object: the MD5 of its parts' digests, then "-" and the count. The local
 * driver's part etags are digests of the same shape (SHA-256 cut to 32 hex digits, not S3's MD5), so a
 * file sent in the same parts has the same one on a driver, not across them (decision 033).
 */
export function compositeEtag(partEtags: string[]): string {
  const md5 = createHash('md5');
  for (const etag of partEtags) md5.update(Buffer.from(etag.replaceAll('"', ''), 'hex'));
  return `"${md5.digest('hex')}-${partEtags.length}"`;
}
