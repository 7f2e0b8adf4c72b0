import { open } from 'node:fs/promises';

export interface TopLevelLayout {
  /** The index (moov) comes before the media data (mdat): a player can start before the whole file arrives. */
  fastStart: boolean;
  /** A box runs past the end of the file: the upload or export stopped part-way. */
  truncated: boolean;
}

/**
 * Reads the top-level boxes of an MP4/MOV file (8-byte headers only, a few reads for any size).
 * Null when the file does not look like one (ffprobe decides then).
 */
export async function readTopLevelLayout(file: string): Promise<TopLevelLayout | null> {
  const handle = await open(file, 'r');
  try {
    const { size } = await handle.stat();
    const header = Buffer.alloc(16);
    let offset = 0;
    let moovAt = -1;
    let mdatAt = -1;
    while (offset + 8 <= size) {
      const { bytesRead } = await handle.read(header, 0, 16, offset);
      if (bytesRead < 8) break;
      let boxSize = header.readUInt32BE(0);
      const type = header.toString('latin1', 4, 8);
      if (!/^[\x20-\x7e]{4}$/.test(type)) return offset === 0 ? null : { fastStart: false, truncated: true };
      if (boxSize === 1) {
        if (bytesRead < 16) return { fastStart: false, truncated: true };
        boxSize = Number(header.readBigUInt64BE(8));
      } else if (boxSize === 0) {
        boxSize = size - offset; // runs to the end of the file
      }
      if (offset === 0 && type !== 'ftyp') return null;
      if (boxSize < 8) return { fastStart: false, truncated: true };
      if (type === 'moov' && moovAt < 0) moovAt = offset;
      if (type === 'mdat' && mdatAt < 0) mdatAt = offset;
      if (offset + boxSize > size)
        return { fastStart: moovAt >= 0 && (mdatAt < 0 || moovAt < mdatAt), truncated: true };
      offset += boxSize;
    }
    if (offset === 0) return null; // not even one box: not an MP4
    return {
      fastStart: moovAt >= 0 && (mdatAt < 0 || moovAt < mdatAt),
      truncated: moovAt < 0,
    };
  } finally {
    await handle.close();
  }
}
