import { api } from '../../lib/api.ts';

import type { UploadTarget } from '@app/shared/schemas';

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

export function contentTypeOf(file: File): string {
  const extension = file.name.toLowerCase().split('.').pop() ?? '';
  return file.type || typesByExtension[extension] || 'application/octet-stream';
}

/** One PUT with progress; resolves with the ETag the store answered (multipart needs it). */
function put(
  url: string,
  body: Blob,
  contentType: string,
  onProgress: (loaded: number) => void,
  signal: AbortSignal | undefined,
  name: string,
) {
  return new Promise<string>((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('PUT', url);
    request.setRequestHeader('Content-Type', contentType);
    request.upload.onprogress = (event) => onProgress(event.loaded);
    request.onload = () =>
      request.status >= 200 && request.status < 300
        ? resolve(request.getResponseHeader('ETag') ?? '')
        : reject(new UploadError(`S3 upload failed for ${name}`));
    request.onerror = () =>
      reject(
        new UploadError(`S3 upload failed for ${name}: the network or the storage CORS settings blocked it`),
      );
    request.onabort = () => reject(new DOMException('Upload cancelled', 'AbortError'));
    signal?.addEventListener('abort', () => request.abort(), { once: true });
    request.send(body);
  });
}

/**
 * Sends a file straight to storage: a signed link from the api, then PUTs with progress (XHR, not
 * fetch, because fetch cannot report upload progress). Files over 100 MB go up in parts, which are
 * completed at the end or aborted on failure or cancel. Nothing is created until the caller saves the
 * video with the returned key.
 */
export async function uploadFile(
  file: File,
  onProgress: (fraction: number) => void,
  signal?: AbortSignal,
  // Pictures for the process-image job ask /api/admin/images/upload-url, which checks their limits.
  linkEndpoint = '/api/admin/videos/upload-url',
): Promise<string> {
  const contentType = contentTypeOf(file);
  let target: UploadTarget;
  try {
    target = await api.post<UploadTarget>(linkEndpoint, {
      fileName: file.name,
      contentType,
      size: file.size,
    });
  } catch {
    throw new UploadError(`Failed to get upload URL for ${file.name}`);
  }
  if (signal?.aborted) throw new DOMException('Upload cancelled', 'AbortError');

  if (target.kind === 'single') {
    await put(
      target.uploadUrl,
      file,
      contentType,
      (loaded) => onProgress(loaded / file.size),
      signal,
      file.name,
    );
  } else {
    const { awsKey, uploadId, partSize } = target;
    let sent = 0;
    try {
      const parts: Array<{ partNumber: number; etag: string }> = [];
      for (const part of target.parts) {
        const start = (part.partNumber - 1) * partSize;
        const blob = file.slice(start, start + partSize);
        const etag = await put(
          part.url,
          blob,
          contentType,
          (loaded) => onProgress((sent + loaded) / file.size),
          signal,
          file.name,
        );
        sent += blob.size;
        parts.push({ partNumber: part.partNumber, etag });
      }
      await api.post('/api/admin/videos/upload-complete', { awsKey, uploadId, parts });
    } catch (error) {
      await api.post('/api/admin/videos/upload-abort', { awsKey, uploadId }).catch(() => {});
      throw error;
    }
  }
  onProgress(1);
  return target.awsKey;
}
