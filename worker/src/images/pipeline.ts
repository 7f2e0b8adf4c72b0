import type { Sharp } from 'sharp';
import { hasAvifVariant, IMAGE_WIDTHS, MAX_IMAGE_PIXELS } from '@app/shared/images';
import type { VariantFormat } from '@app/shared/storage';

/** A file the pipeline refuses, with the reason shown on the owner's row. Retrying cannot help. */
export class ImageRejected extends Error {
  override name = 'ImageRejected';
}

export interface ProcessedImage {
  width: number;
  height: number;
  placeholder: string;
  master: Buffer;
  variants: Array<{ width: number; format: VariantFormat; data: Buffer }>;
}

/**
 * JPEG, PNG or WebP by their first bytes, whatever the name says. sharp itself would also read SVG
 * (scripts, external references), TIFF, GIF and more, so nothing else reaches it.
 */
function isAcceptedFormat(input: Buffer): boolean {
  const starts = (bytes: number[], at = 0) => bytes.every((byte, index) => input[at + index] === byte);
  return (
    starts([0xff, 0xd8, 0xff]) ||
    starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) ||
    (starts([0x52, 0x49, 0x46, 0x46]) && starts([0x57, 0x45, 0x42, 0x50], 8))
  );
}

async function loadSharp() {
  const { default: sharp } = await import('sharp');
  // Memory stays bounded: no operation cache between jobs, and one libvips thread per pipeline (the
  // worker handles one picture at a time; more threads bought little speed for much memory here).
  sharp.cache(false);
  sharp.concurrency(1);
  return sharp;
}

function rejectionFor(error: unknown): ImageRejected {
  const message = error instanceof Error ? error.message : String(error);
  if (/pixel limit/i.test(message)) return new ImageRejected('This picture has more than 100 megapixels');
  return new ImageRejected('This picture is damaged or incomplete (the file may be cut short)');
}

/** The widths made for a picture `width` pixels wide: ours up to it, or its own width if narrower. */
export function widthsFor(width: number): number[] {
  const widths = IMAGE_WIDTHS.filter((candidate) => candidate <= width);
  return widths.length > 0 ? widths : [width];
}

/**
 * Upright, sRGB, metadata-free copies of a picture: a full-size master (tagged sRGB), each width in
 * WebP and JPEG (and in AVIF up to MAX_AVIF_PIXELS), and a few-pixel placeholder. Nothing of the
 * camera's metadata (EXIF, GPS, XMP, IPTC, maker notes) survives: sharp writes none unless asked, and
 * only the master is given a profile.
 */
export async function processImage(input: Buffer): Promise<ProcessedImage> {
  if (input.length === 0) throw new ImageRejected('The file is empty');
  if (!isAcceptedFormat(input)) throw new ImageRejected('This file is not a JPEG, PNG or WebP picture');
  const sharp = await loadSharp();
  // failOn 'warning': a truncated JPEG is refused instead of published with a grey lower half.
  const open = () => sharp(input, { limitInputPixels: MAX_IMAGE_PIXELS, failOn: 'warning' });

  try {
    // No Huffman optimisation: mozjpeg would hold every coefficient of the full-size picture for it
    // (+135 MB at 24 MP) to save a few per cent of a file nobody downloads.
    const master = await open()
      .rotate()
      .withIccProfile('srgb')
      .jpeg({ quality: 90, optimiseCoding: false })
      .toBuffer({ resolveWithObject: true });
    const { width, height } = master.info;
    const widths = widthsFor(width);

    // One decode for every variant: the largest width, kept raw, is resized for each smaller one.
    const largest = await open()
      .rotate()
      .resize({ width: widths.at(-1)! })
      .toColourspace('srgb')
      .raw()
      .toBuffer({ resolveWithObject: true });
    const fromLargest = (): Sharp =>
      sharp(largest.data, {
        raw: { width: largest.info.width, height: largest.info.height, channels: largest.info.channels },
      });

    const variants: ProcessedImage['variants'] = [];
    for (const variantWidth of widths) {
      const resized = await fromLargest()
        .resize({ width: variantWidth })
        .raw()
        .toBuffer({ resolveWithObject: true });
      const base = () =>
        sharp(resized.data, {
          raw: { width: resized.info.width, height: resized.info.height, channels: resized.info.channels },
        });
      if (hasAvifVariant(variantWidth, width, height))
        variants.push({
          width: variantWidth,
          format: 'avif',
          data: await base().avif({ quality: 55, effort: 2 }).toBuffer(),
        });
      variants.push(
        { width: variantWidth, format: 'webp', data: await base().webp({ quality: 78 }).toBuffer() },
        {
          width: variantWidth,
          format: 'jpeg',
          data: await base().jpeg({ quality: 80, progressive: true }).toBuffer(),
        },
      );
    }
    const tiny = await fromLargest().resize(16, 16, { fit: 'inside' }).webp({ quality: 40 }).toBuffer();
    return {
      width,
      height,
      placeholder: `data:image/webp;base64,${tiny.toString('base64')}`,
      master: master.data,
      variants,
    };
  } catch (error) {
    throw rejectionFor(error);
  }
}
