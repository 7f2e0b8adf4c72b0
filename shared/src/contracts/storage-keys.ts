/** Object keys are relative paths of safe segments: no traversal, no absolute paths, no hidden files. */
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
  m3u8: 'application/vnd.apple.mpegurl',
  m4s: 'video/iso.segment',
  avif: 'image/avif',
  // No svg: an SVG served from our origin could run script there, so it goes out as plain bytes.
};

/**
 * `attachment` under the given name: an ASCII fallback for old clients plus the exact name as
 * RFC 5987 `filename*`. Quotes, backslashes and control characters never reach the header.
 */
export function contentDisposition(fileName: string): string {
  const fallback =
    fileName
      .normalize('NFKD')
      .replace(/\p{M}/gu, '')
      .replace(/[^\w.\- ()]/g, '_')
      .slice(0, 200) || 'download';
  const exact = encodeURIComponent(fileName.replace(/\p{Cc}/gu, '')).replace(
    /['()*]/g,
    (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${fallback}"; filename*=UTF-8''${exact}`;
}

/** The path part of a link to `key`, each segment percent-encoded. */
export const encodeKey = (key: string) => key.split('/').map(encodeURIComponent).join('/');

export interface S3Options {
  bucket: string;
  region: string;
  endpoint?: string;
  forcePathStyle?: boolean;
  /** Without them the SDK's default chain applies (instance role, shared profile). */
  credentials?: { accessKeyId: string; secretAccessKey: string };
}

/** Where browsers reach the bucket, for the Content-Security-Policy. */
export function bucketOrigin({ bucket, region, endpoint, forcePathStyle }: S3Options): string {
  if (!endpoint) return `https://${bucket}.s3.${region}.amazonaws.com`;
  const url = new URL(endpoint);
  return forcePathStyle ? url.origin : `${url.protocol}//${bucket}.${url.host}`;
}

// The files process-image writes for an image: `images/<id>/master.jpg` and `images/<id>/<width>.<ext>`.
export const VARIANT_FORMATS = ['avif', 'webp', 'jpeg'] as const;
export type VariantFormat = (typeof VARIANT_FORMATS)[number];
const variantExtension: Record<VariantFormat, string> = { avif: 'avif', webp: 'webp', jpeg: 'jpg' };
export const masterKey = (imageId: string) => `images/${imageId}/master.jpg`;
export const variantKey = (imageId: string, width: number, format: VariantFormat) =>
  `images/${imageId}/${width}.${variantExtension[format]}`;
export const imageKeys = (imageId: string, widths: readonly number[]) => [
  masterKey(imageId),
  ...widths.flatMap((width) => VARIANT_FORMATS.map((format) => variantKey(imageId, width, format))),
];

// The adaptive stream of a video's file (decision 031): `streams/<digest>/master.m3u8` and one folder per
// rendition holding its playlist, init segment and media segments.
export const streamPrefix = (digest: string) => `streams/${digest}/`;
export const STREAM_PREFIX = /^streams\/[a-f0-9]{24}\/$/;
export const RENDITION_NAME = /^(source|\d{3,4}p)$/;
/** A file of a rendition's folder: its playlist, its init segment or a media segment; nothing else is served. */
export const STREAM_FILE = /^(index\.m3u8|init(_\d+)?\.mp4|seg\d{5,}\.m4s)$/;
