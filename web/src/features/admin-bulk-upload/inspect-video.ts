// What the browser can tell of a file before sending it, reading only a few small slices (a 4 GB file
// is never read whole): whether it looks like a video at all, and when the camera recorded it (the
// MP4/QuickTime movie header's creation time), for matching camera-named files by the order shot.

const MP4_TOP_LEVEL = new Set([
  'ftyp',
  'moov',
  'mdat',
  'free',
  'skip',
  'wide',
  'uuid',
  'pnot',
  'meta',
  'junk',
]);
const EBML_MAGIC = [0x1a, 0x45, 0xdf, 0xa3]; // Matroska and WebM
const MAX_MOOV_BYTES = 16 * 1024 * 1024;
const MAX_BOXES = 64;
// Seconds from 1904-01-01 (the movie header's epoch) to 1970-01-01.
const EPOCH_1904 = 2_082_844_800;

const bytesOf = async (file: Blob, start: number, end: number) =>
  new Uint8Array(await file.slice(start, end).arrayBuffer());

const typeAt = (bytes: Uint8Array, at: number) => String.fromCharCode(...bytes.subarray(at, at + 4));

/** The creation time in an mvhd box found inside `moov` bytes, in ms since 1970; null when none is set. */
function movieCreationTime(moov: Uint8Array): number | null {
  const view = new DataView(moov.buffer, moov.byteOffset, moov.byteLength);
  for (let at = 4; at + 16 <= moov.length; at++) {
    if (moov[at] !== 0x6d || typeAt(moov, at) !== 'mvhd') continue;
    const version = moov[at + 4];
    const seconds =
      version === 1 ? Number(view.getBigUint64(at + 8)) : version === 0 ? view.getUint32(at + 8) : 0;
    return seconds > EPOCH_1904 ? (seconds - EPOCH_1904) * 1000 : null;
  }
  return null;
}

export async function inspectVideo(file: Blob): Promise<{ isVideo: boolean; capturedAt: number | null }> {
  if (file.size < 8) return { isVideo: false, capturedAt: null };
  const head = await bytesOf(file, 0, 16);
  if (EBML_MAGIC.every((byte, index) => head[index] === byte)) return { isVideo: true, capturedAt: null };
  if (!MP4_TOP_LEVEL.has(typeAt(head, 4))) return { isVideo: false, capturedAt: null };
  let offset = 0;
  for (let count = 0; offset + 8 <= file.size && count < MAX_BOXES; count++) {
    const header = await bytesOf(file, offset, offset + 16);
    const view = new DataView(header.buffer);
    const type = typeAt(header, 4);
    if (!MP4_TOP_LEVEL.has(type)) break;
    let size = view.getUint32(0);
    let headerSize = 8;
    if (size === 1 && header.length >= 16) {
      size = Number(view.getBigUint64(8));
      headerSize = 16;
    } else if (size === 0) size = file.size - offset;
    if (size < headerSize) break;
    if (type === 'moov')
      return {
        isVideo: true,
        capturedAt: movieCreationTime(
          await bytesOf(file, offset + headerSize, offset + Math.min(size, MAX_MOOV_BYTES)),
        ),
      };
    offset += size;
  }
  return { isVideo: true, capturedAt: null };
}
