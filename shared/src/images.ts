// Responsive image URLs for /api/images/{folder}/{file}. Browser-safe: used by the web app and the api.

/** The widths the image route makes; any other `w` is refused, so the cache cannot be flooded. */
export const IMAGE_WIDTHS = [320, 480, 640, 960, 1280, 1600, 1920] as const;
export type ImageWidth = (typeof IMAGE_WIDTHS)[number];

const ownImage = /^\/api\/images\/[a-z_]+\/[^/?#]+$/;

export function imageUrl(src: string, width?: ImageWidth): string {
  return width && ownImage.test(src) ? `${src}?w=${width}` : src;
}

/** `srcset` over our widths up to `maxWidth`; a foreign URL gets none. */
export function imageSrcSet(src: string, maxWidth: ImageWidth = 1920): string | undefined {
  if (!ownImage.test(src)) return undefined;
  return IMAGE_WIDTHS.filter((width) => width <= maxWidth)
    .map((width) => `${imageUrl(src, width)} ${width}w`)
    .join(', ');
}
