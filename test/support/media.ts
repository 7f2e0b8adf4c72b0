import sharp from 'sharp';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, rename, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { parseConfig } from '@app/shared/config';
import { findMediaBinaries, type MediaBinaries } from '../../worker/src/media/ffmpeg.ts';

const run = promisify(execFile);
let binaries: Promise<MediaBinaries> | undefined;
/** The ffmpeg and ffprobe the worker would use here. */
export const mediaBinaries = () => (binaries ??= findMediaBinaries(parseConfig({})));

// Generated once per machine and shared by the test files (same settings, same file): no media in git.
const cacheDir = path.join(os.tmpdir(), 'stagelight-test-media');

export interface TestVideo {
  seconds: number;
  width?: number;
  height?: number;
  /** Frames per second; a fraction like '1/600' makes a very long file of very few frames. */
  rate?: string;
  /** Index (moov) first; cameras and editors often write it last, which is the default here. */
  fastStart?: boolean;
  audio?: boolean;
  /** Only sound, no picture (an .m4a named .mp4). */
  audioOnly?: boolean;
  /** 10-bit HEVC, as newer cameras and phones record, instead of 8-bit H.264. */
  hevc10?: boolean;
  /** H.264 quality (lower is better and bigger): 36 by default, a small file; 24 is a camera's bitrate. */
  crf?: number;
}

/** An MP4 made by ffmpeg from its lavfi test sources (moving picture, a tone). */
export async function makeTestVideo(spec: TestVideo): Promise<string> {
  const {
    seconds,
    width = 1280,
    height = 720,
    rate = '25',
    fastStart = false,
    audio = true,
    audioOnly = false,
    hevc10 = false,
    crf = 36,
  } = spec;
  const name = createHash('sha256').update(JSON.stringify(spec)).digest('hex').slice(0, 16);
  const file = path.join(cacheDir, `${name}.mp4`);
  if (
    await stat(file).then(
      (info) => info.size > 0,
      () => false,
    )
  )
    return file;
  await mkdir(cacheDir, { recursive: true });
  const { ffmpeg } = await mediaBinaries();
  const temporary = `${file}.${process.pid}.tmp.mp4`;
  await run(
    ffmpeg.path,
    [
      '-v',
      'error',
      ...(audioOnly ? [] : ['-f', 'lavfi', '-i', `testsrc2=size=${width}x${height}:rate=${rate}`]),
      ...(audio || audioOnly ? ['-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=44100'] : []),
      '-t',
      String(seconds),
      ...(audioOnly
        ? []
        : hevc10
          ? [
              '-c:v',
              'libx265',
              '-preset',
              'ultrafast',
              '-crf',
              '36',
              '-pix_fmt',
              'yuv420p10le',
              '-tag:v',
              'hvc1',
            ]
          : ['-c:v', 'libx264', '-preset', 'ultrafast', '-crf', String(crf), '-pix_fmt', 'yuv420p']),
      ...(audio || audioOnly ? ['-c:a', 'aac', '-b:a', '64k'] : []),
      ...(fastStart ? ['-movflags', '+faststart'] : []),
      '-y',
      temporary,
    ],
    { timeout: 600_000 },
  );
  await rename(temporary, file);
  return file;
}

export interface ProbedFile {
  format: { duration: string; size: string; format_name: string };
  streams: Array<{
    codec_type: string;
    codec_name: string;
    width?: number;
    height?: number;
    profile?: string;
    level?: number;
    pix_fmt?: string;
  }>;
}

export async function probe(file: string): Promise<ProbedFile> {
  const { ffprobe } = await mediaBinaries();
  const { stdout } = await run(ffprobe.path, [
    '-v',
    'error',
    '-print_format',
    'json',
    '-show_format',
    '-show_streams',
    file,
  ]);
  return JSON.parse(stdout) as ProbedFile;
}

/** Top-level MP4 box types in file order (ftyp, moov, mdat...). */
export function topLevelBoxes(bytes: Buffer): string[] {
  const types: string[] = [];
  let offset = 0;
  while (offset + 8 <= bytes.length) {
    let size = bytes.readUInt32BE(offset);
    if (size === 1) size = Number(bytes.readBigUInt64BE(offset + 8));
    types.push(bytes.toString('latin1', offset + 4, offset + 8));
    if (size < 8) break;
    offset += size;
  }
  return types;
}

/** MD5 of a file's first video stream's packets (copied, not decoded): equal for a stream copy. */
export async function videoPacketsMd5(file: string): Promise<string> {
  const { ffmpeg } = await mediaBinaries();
  const { stdout } = await run(
    ffmpeg.path,
    ['-v', 'error', '-i', file, '-map', '0:v:0', '-c', 'copy', '-f', 'md5', '-'],
    {
      timeout: 120_000,
    },
  );
  return stdout.trim();
}

/**
 * The site's own pictures (the hero, a portfolio solo, an event) as plain colours below `dir`, and the
 * settings that serve them from there: a browser test's `env` for the public pages.
 */
export async function sitePicturesEnv(dir: string) {
  const picture = async (file: string, background: string) => {
    await mkdir(path.dirname(file), { recursive: true });
    await sharp({ create: { width: 960, height: 640, channels: 3, background } })
      .jpeg()
      .toFile(file);
  };
  await picture(path.join(dir, 'hero/stage-hero.jpg'), '#222244');
  await picture(path.join(dir, 'portfolio/solo.jpg'), '#f5b942');
  await picture(path.join(dir, 'attached_assets/event-01.jpg'), '#c2304f');
  return {
    IMAGES_DIR: dir,
    IMAGE_CACHE_DIR: path.join(dir, 'cache'),
    APP_URL: 'https://app.stagelight.test/',
  };
}

/** A small real JPEG: pictures are served through sharp, so a test's poster must be one. */
export const testJpeg = (background = '#886644') =>
  sharp({ create: { width: 16, height: 9, channels: 3, background } })
    .jpeg()
    .toBuffer();
