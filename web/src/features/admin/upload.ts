import { api } from '../../lib/api.ts';

export interface UploadTarget {
  uploadUrl: string;
  awsKey: string;
}

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

/**
 * Sends a file straight to storage: a signed link from the api, then a PUT with progress. XHR, not
 * fetch, because fetch cannot report upload progress. `signal` cancels; nothing is created until
 * the caller saves the video with the returned key.
 */
export async function uploadFile(
  file: File,
  onProgress: (fraction: number) => void,
  signal?: AbortSignal,
): Promise<string> {
  const contentType = contentTypeOf(file);
  let target: UploadTarget;
  try {
    target = await api.post<UploadTarget>('/api/admin/videos/upload-url', {
      fileName: file.name,
      contentType,
      size: file.size,
    });
  } catch {
    throw new UploadError(`Failed to get upload URL for ${file.name}`);
  }
  if (signal?.aborted) throw new DOMException('Upload cancelled', 'AbortError');
  await new Promise<void>((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('PUT', target.uploadUrl);
    request.setRequestHeader('Content-Type', contentType);
    request.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    };
    request.onload = () =>
      request.status >= 200 && request.status < 300
        ? resolve()
        : reject(new UploadError(`S3 upload failed for ${file.name}`));
    request.onerror = () =>
      reject(
        new UploadError(
          `S3 upload failed for ${file.name}: the network or the storage CORS settings blocked it`,
        ),
      );
    request.onabort = () => reject(new DOMException('Upload cancelled', 'AbortError'));
    signal?.addEventListener('abort', () => request.abort(), { once: true });
    request.send(file);
  });
  onProgress(1);
  return target.awsKey;
}
