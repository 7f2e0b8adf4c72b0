import type { Rendition } from '@app/shared/schemas';

// The adaptive stream's qualities (decision 031). Bitrates suit a phone on 4G: 360p starts at once on a
// weak link, 720p fills a phone screen, the top one is the original's own picture when it can be copied.
// Segments of 2 s (a key frame every 2 s, as Apple's HLS authoring spec asks): the first picture needs a
// whole first segment, and at 360p that is about 150 KB, under a second on a 1.5 Mbit/s line.
export const SEGMENT_SECONDS = 2;
const AUDIO_KBPS = 128;
/** The lowest encode's sound: AAC at 96 kbit/s, instead of a camera's 128-320 copied beside 500 of picture. */
const LOW_AUDIO_KBPS = 96;
/** Video bitrate (kbit/s) of an encode by its number of lines. */
const encodeKbps = (lines: number) =>
  lines >= 1080 ? 5_000 : lines >= 720 ? 2_500 : lines >= 480 ? 1_400 : 500;
/** What an encoded top rendition is capped at: 10-bit HEVC and the like are made 1080p 8-bit H.264. */
const TOP_ENCODE_LINES = 1080;
const LOWER_LINES = [720, 360] as const;

export interface PlannedRendition extends Rendition {
  /** null for the copy. */
  videoKbps: number | null;
  /** Its sound's AAC bitrate; null: the source's AAC as it is (copied), as every rendition above 360p has. */
  audioKbps: number | null;
}

export interface StreamSource {
  width: number;
  height: number;
  videoCodec: string;
  audioCodec: string | null;
  pixelFormat: string | null;
}

const even = (value: number) => Math.max(2, Math.round(value / 2) * 2);

/** The size of a rendition with `lines` on the short side, keeping the aspect ratio (portrait too). */
function sizeFor(source: StreamSource, lines: number) {
  const landscape = source.width >= source.height;
  const short = Math.min(source.width, source.height);
  const long = Math.max(source.width, source.height);
  const other = even((long * lines) / short);
  return landscape ? { width: other, height: lines } : { width: lines, height: other };
}

/** 8-bit 4:2:0 H.264 plays everywhere HLS does, so it is copied as it is. */
export const canCopyVideo = (source: StreamSource) =>
  source.videoCodec === 'h264' && ['yuv420p', 'yuvj420p', null].includes(source.pixelFormat);

/**
 * The renditions for a source, lowest first: the top one (a copy of the original's picture, or a
 * 1080p-at-most encode when it cannot be copied), then 720p and 360p encodes when smaller than the source.
 */
export function planRenditions(source: StreamSource): PlannedRendition[] {
  const short = Math.min(source.width, source.height);
  let top: PlannedRendition;
  if (canCopyVideo(source)) {
    top = {
      name: 'source',
      width: source.width,
      height: source.height,
      copy: true,
      videoKbps: null,
      audioKbps: null,
    };
  } else {
    const lines = even(Math.min(short, TOP_ENCODE_LINES));
    top = {
      name: `${lines}p`,
      ...sizeFor(source, lines),
      copy: false,
      videoKbps: encodeKbps(lines),
      audioKbps: null,
    };
  }
  const topLines = Math.min(top.width, top.height);
  const lower = LOWER_LINES.filter((lines) => lines < topLines).map((lines): PlannedRendition => ({
    name: `${lines}p`,
    ...sizeFor(source, lines),
    copy: false,
    videoKbps: encodeKbps(lines),
    // The weak-link rendition: its sound is made small too.
    audioKbps: lines < 480 ? LOW_AUDIO_KBPS : null,
  }));
  return [...lower.reverse(), top];
}

/**
 * One ffmpeg run that decodes the source once and writes every rendition as fMP4 HLS under `outDir`:
 * `master.m3u8` and `<name>/index.m3u8`, `<name>/init_<n>.mp4`, `<name>/seg00000.m4s`...
 * (ffmpeg's arguments after FFMPEG_QUIET; bench/video.ts runs the same by hand.)
 */
export function hlsCommand(source: string, outDir: string, probe: StreamSource, plan: PlannedRendition[]) {
  const audio = probe.audioCodec !== null;
  const args = ['-i', source];
  for (const _ of plan) args.push('-map', '0:v:0');
  if (audio) for (const _ of plan) args.push('-map', '0:a:0');
  plan.forEach((rendition, index) => {
    const v = `v:${index}`;
    if (rendition.copy || rendition.videoKbps === null) {
      args.push(`-c:${v}`, 'copy');
      return;
    }
    const kbps = rendition.videoKbps;
    args.push(
      ...[`-c:${v}`, 'libx264', `-filter:${v}`, `scale=${rendition.width}:${rendition.height}`],
      ...[`-preset:${v}`, 'veryfast', `-profile:${v}`, 'high', `-pix_fmt:${v}`, 'yuv420p'],
      ...[
        `-b:${v}`,
        `${kbps}k`,
        `-maxrate:${v}`,
        `${Math.round(kbps * 1.1)}k`,
        `-bufsize:${v}`,
        `${kbps * 2}k`,
      ],
      // A key frame every segment, so every rendition switches at the same places.
      ...[`-force_key_frames:${v}`, `expr:gte(t,n_forced*${SEGMENT_SECONDS})`],
    );
  });
  // Sound: the source's AAC copied (its channels kept, so every rendition has the same layout), or
  // encoded to stereo AAC; the 360p rendition's is always encoded, at LOW_AUDIO_KBPS.
  if (audio)
    plan.forEach((rendition, index) => {
      const a = `a:${index}`;
      if (probe.audioCodec === 'aac' && rendition.audioKbps === null) args.push(`-c:${a}`, 'copy');
      else
        args.push(
          ...[`-c:${a}`, 'aac', `-b:${a}`, `${rendition.audioKbps ?? AUDIO_KBPS}k`],
          ...(probe.audioCodec === 'aac' ? [] : [`-ac:${a}`, '2']),
        );
    });
  const streamMap = plan
    .map((rendition, index) => `v:${index}${audio ? `,a:${index}` : ''},name:${rendition.name}`)
    .join(' ');
  args.push(
    ...['-f', 'hls', '-hls_time', String(SEGMENT_SECONDS), '-hls_playlist_type', 'vod'],
    ...['-hls_segment_type', 'fmp4', '-hls_flags', 'independent_segments'],
    ...['-hls_fmp4_init_filename', 'init.mp4', '-master_pl_name', 'master.m3u8'],
    ...['-hls_segment_filename', `${outDir}/%v/seg%05d.m4s`, '-var_stream_map', streamMap],
    ...['-map_metadata', '-1', '-progress', 'pipe:1', '-nostats', '-y', `${outDir}/%v/index.m3u8`],
  );
  return args;
}

/** The RFC 6381 name of an H.264 stream from its init segment's avcC box (`avc1.64001f`), or null. */
export function avcCodecName(init: Buffer): string | null {
  const at = init.indexOf('avcC', 0, 'latin1');
  if (at < 0 || at + 8 > init.length) return null;
  const hex = (offset: number) => init[at + offset]!.toString(16).padStart(2, '0');
  return `avc1.${hex(5)}${hex(6)}${hex(7)}`;
}

/**
 * ffmpeg names no CODECS for a copied stream. hls.js switches only between renditions of one codec set, so
 * the copy gets its own (from its init segment) plus the audio codec the encodes name.
 */
export function withCopyCodecs(master: string, copyUri: string, videoCodec: string): string {
  const audio = /CODECS="[^",]+,([^"]+)"/.exec(master)?.[1];
  const lines = master.split('\n');
  return lines
    .map((line, index) =>
      line.startsWith('#EXT-X-STREAM-INF:') &&
      !line.includes('CODECS=') &&
      lines[index + 1]?.trim() === copyUri
        ? `${line},CODECS="${audio ? `${videoCodec},${audio}` : videoCodec}"`
        : line,
    )
    .join('\n');
}
