import Uppy from '@uppy/core';
import AwsS3 from '@uppy/aws-s3';
import type { AwsS3Options } from '@uppy/aws-s3';
import type { SignUploadRequest, UploadTarget } from '@app/shared/schemas';
import { api } from '../../lib/api.ts';

// The admin's one uploader (decision 033): Uppy's S3 client sends every file, the single video
// dialog's and the portfolio's here, the competition's in admin-bulk-upload. Each S3 request is
// signed by the api for the upload it planned; a big file goes up in parts, and a dropped connection
// resumes from the parts stored rather than from zero.

export class UploadError extends Error {}

// Browsers leave File.type empty for some formats; the api accepts only video/* and image/*.
const typesByExtension: Record<string, string> = {
  mp4: 'video/mp4',
  m4v: 'video/x-m4v',
  mov: 'video/quicktime',
  webm: 'video/webm',
  mkv: 'video/x-matroska',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  avif: 'image/avif',
};

export function contentTypeOf(file: Pick<File, 'name' | 'type'>): string {
  const extension = file.name.toLowerCase().split('.').pop() ?? '';
  return file.type || typesByExtension[extension] || 'application/octet-stream';
}

type S3Request = Parameters<Extract<AwsS3Options<never, never>, { signRequest: unknown }>['signRequest']>[0];

/**
 * What the api is asked to sign for one of Uppy's S3 requests on a multipart upload. Uppy never
 * creates an upload itself here (the api made it), nor PUTs a whole file on a multipart one.
 */
export function signAction(request: S3Request): SignUploadRequest {
  if ('partNumber' in request) return { action: 'part', partNumber: request.partNumber };
  if ('uploadId' in request) {
    if (request.method === 'GET') return { action: 'list' };
    if (request.method === 'DELETE') return { action: 'abort' };
    if (request.method === 'POST') return { action: 'complete' };
  }
  throw new Error(`No ${request.method} request outside the planned upload is signed`);
}

/** Waits before resuming after a dropped connection (Uppy's own quick retries came first): about 45 s in all. */
export const RESUME_DELAYS_MS = [1_000, 4_000, 10_000, 30_000];

/**
 * An error that says a request never got an answer: the connection dropped (or CORS blocked it). Uppy's
 * S3 client codes its own 'NETWORK' (its class names do not survive minifying); a fetch of ours throws
 * a TypeError.
 */
const isDropped = (error: Error) =>
  (error as Error & { code?: unknown }).code === 'NETWORK' || error instanceof TypeError;

/**
 * Sends `file` to the storage `target` the api planned, with Uppy: one PUT, or its parts and then the
 * completion. A dropped connection is resumed from the stored parts, a few times (Uppy waits for the
 * browser to be online first); a cancel (`signal`) or a failure aborts the multipart upload, so
 * nothing is left behind.
 */
function send(
  file: File,
  target: UploadTarget,
  onProgress: (fraction: number) => void,
  signal: AbortSignal | undefined,
): Promise<void> {
  const { awsKey, contentType } = target;
  const uppy = new Uppy({ autoProceed: false });
  uppy.use(AwsS3, {
    limit: 1,
    shouldUseMultipart: target.kind === 'multipart',
    ...(target.kind === 'multipart' && { getChunkSize: () => target.partSize }),
    generateObjectKey: () => awsKey,
    signRequest: async (request) =>
      target.kind === 'single'
        ? // The link is signed for this Content-Type: the PUT must carry exactly it.
          { url: target.uploadUrl, key: awsKey, headers: { 'Content-Type': contentType } }
        : api.post<{ url: string }>('/api/admin/videos/upload-sign', {
            awsKey,
            uploadId: target.uploadId,
            ...signAction(request),
          }),
  });
  const id = uppy.addFile({ name: file.name, type: contentType, data: file });
  // Handed the upload the api made, Uppy lists its stored parts first and sends only the others.
  if (target.kind === 'multipart')
    uppy.setFileState(id, { s3Multipart: { key: awsKey, uploadId: target.uploadId } });

  return new Promise<void>((resolve, reject) => {
    let resumes = 0;
    let resuming: ReturnType<typeof setTimeout> | undefined;
    const finish = (settle: () => void) => {
      clearTimeout(resuming);
      signal?.removeEventListener('abort', cancel);
      // After Uppy's own handlers for the event that settled it have run.
      setTimeout(() => uppy.destroy());
      settle();
    };
    // Aborting twice changes nothing, so the api aborts it too: Uppy aborts only while it is sending.
    const abortStored = () => {
      if (target.kind === 'multipart')
        void api
          .post('/api/admin/videos/upload-abort', { awsKey, uploadId: target.uploadId })
          .catch(() => {});
    };
    function cancel() {
      uppy.removeFile(id);
      abortStored();
      finish(() => reject(new DOMException('Upload cancelled', 'AbortError')));
    }
    const fail = (error: Error) => {
      abortStored();
      finish(() =>
        reject(
          new UploadError(
            isDropped(error)
              ? `S3 upload failed for ${file.name}: the network or the storage CORS settings blocked it`
              : `S3 upload failed for ${file.name}`,
          ),
        ),
      );
    };

    uppy.on('upload-progress', (_file, progress) => {
      if (progress.bytesTotal) onProgress((progress.bytesUploaded ?? 0) / progress.bytesTotal);
    });
    uppy.on('upload-success', () => finish(resolve));
    uppy.on('upload-error', (_file, error) => {
      if (!isDropped(error) || resumes === RESUME_DELAYS_MS.length) return fail(error);
      resuming = setTimeout(() => {
        resuming = undefined;
        uppy.retryUpload(id).catch(fail);
      }, RESUME_DELAYS_MS[resumes++]);
    });
    if (signal?.aborted) return cancel();
    signal?.addEventListener('abort', cancel, { once: true });
    uppy.upload().catch(fail);
  });
}

/**
 * Sends a file straight to storage and resolves with its key: the api plans the upload (one signed
 * PUT, or a multipart upload for files over 100 MB), then Uppy sends it with progress. Nothing is
 * created until the caller saves the video (or picture) with the returned key.
 */
export async function uploadFile(
  file: File,
  onProgress: (fraction: number) => void,
  signal?: AbortSignal,
  // Pictures for the process-image job ask /api/admin/images/upload-url, which checks their limits.
  linkEndpoint = '/api/admin/videos/upload-url',
): Promise<string> {
  let target: UploadTarget;
  try {
    target = await api.post<UploadTarget>(linkEndpoint, {
      fileName: file.name,
      contentType: contentTypeOf(file),
      size: file.size,
    });
  } catch {
    throw new UploadError(`Failed to get upload URL for ${file.name}`);
  }
  await send(file, target, onProgress, signal);
  onProgress(1);
  return target.awsKey;
}
