// Responsive image URLs for /api/images/{folder}/{file} and /api/video-preview/{key} (both take `?w=`).
// Browser-safe: used by the web app and the api.

/** The widths the image route makes; any other `w` is refused, so the cache cannot be flooded. */
export const IMAGE_WIDTHS = [320, 480, 640, 960, 1280, 1600, 1920] as const;
export type ImageWidth = (typeof IMAGE_WIDTHS)[number];

const ownImage = /^\/api\/(images\/[a-z_]+|video-preview|photos)\/[^/?#]+$/;

/** Where an uploaded picture is served once the process-image job has made its variants. */
export const photoUrl = (imageId: string) => `/api/photos/${imageId}`;

// Uploaded pictures (process-image): the formats sharp reads here (not HEIC: its prebuilt libheif
// decodes AVIF only), the largest file, and the most pixels (decompression bombs are refused).
export const ACCEPTED_IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;
export const MAX_IMAGE_BYTES = 50 * 1024 ** 2;
export const MAX_IMAGE_PIXELS = 100_000_000;
/**
 * The largest variant made in AVIF too. libheif's AV1 encoder holds about 32 bytes a pixel (+180 MB
 * for a 1920 x 2880 portrait), so a width bigger than a 3:2 landscape's 1920 is made in WebP and JPEG
 * only, and the AVIF-taking browser gets WebP there (decision 021).
 */
export const MAX_AVIF_PIXELS = 2_500_000;

/** Whether an uploaded picture `imageWidth` x `imageHeight` has its `width` variant in AVIF. */
export function hasAvifVariant(width: number, imageWidth: number, imageHeight: number): boolean {
  return width * Math.round((width * imageHeight) / imageWidth) <= MAX_AVIF_PIXELS;
}

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

/** Tailwind's breakpoints, so `sizes` matches the layout's grid changes. */
export const BREAKPOINTS = { sm: 640, md: 768, lg: 1024, xl: 1280, '2xl': 1536 } as const;
export type Breakpoint = keyof typeof BREAKPOINTS;

/**
 * A `sizes` attribute from the image's rendered width per breakpoint, e.g.
 * `imageSizes({ base: '50vw', sm: '33vw', lg: '25vw' })` →
 * `(min-width: 1024px) 25vw, (min-width: 640px) 33vw, 50vw`. Widest breakpoint first: the browser takes
 * the first condition that matches.
 */
export function imageSizes(widths: { base: string } & Partial<Record<Breakpoint, string>>): string {
  const conditions = (Object.keys(BREAKPOINTS) as Breakpoint[])
    .filter((name) => widths[name])
    .sort((a, b) => BREAKPOINTS[b] - BREAKPOINTS[a])
    .map((name) => `(min-width: ${BREAKPOINTS[name]}px) ${widths[name]}`);
  return [...conditions, widths.base].join(', ');
}

/**
 * `src`, `srcSet` and `sizes` together, ready to spread on an `<img>`: the fallback `src` is the
 * `fallbackWidth` variant, so a browser without srcset support still gets a phone-sized picture.
 */
export function responsiveImage(
  src: string,
  options: { sizes: string; maxWidth?: ImageWidth; fallbackWidth?: ImageWidth },
): { src: string; srcSet?: string; sizes?: string } {
  const srcSet = imageSrcSet(src, options.maxWidth);
  if (!srcSet) return { src };
  return { src: imageUrl(src, options.fallbackWidth ?? 640), srcSet, sizes: options.sizes };
}
