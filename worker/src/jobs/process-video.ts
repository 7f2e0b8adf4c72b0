import { createReadStream, createWriteStream } from 'node:fs';
import { access, readFile, rm, stat, statfs } from 'node:fs/promises';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { UnrecoverableError, WaitingError, type Job } from 'bullmq';
import { and, eq, isNotNull, sql } from 'drizzle-orm';
import { business } from '@app/shared/site-copy';
import { formatDuration } from '@app/shared/format';
import { videos, type Db } from '@app/shared/db';
import { markPublicContentChanged } from '@app/shared/cache-version';
import { alertsAfterPublish, storageKeyDigest, videoStreamJobId } from '@app/shared/queue';
import type { VideoMedia } from '@app/shared/schemas';
import type { JobHandler, WorkerContext } from '../context.ts';
import { MediaCommandError, runMedia, type MediaBinaries } from '../media/ffmpeg.ts';
import { readTopLevelLayout } from '../media/mp4-boxes.ts';

/**
 * A file the worker will not process, with the reason the owner reads on the admin screen: plain words,
 * never a path or a tool's own message (`detail` holds those, for the logs only).
 */
export class VideoRefused extends UnrecoverableError {
  override name = 'VideoRefused';
  constructor(
    message: string,
    readonly detail?: string,
  ) {
    super(message);
  }
}

/** The reasons the owner may read; anything else a run meets is logged and shown as one of these. */
export const failureReasons = {
  missing: 'The file is no longer in storage. Upload it again.',
  empty: 'The file is empty (0 bytes). Upload it again.',
  notVideo: 'This is not a video file that can be played. Export it again as MP4 or MOV and upload it.',
  damaged: 'The video could not be read: the file may be damaged. Export it again and upload it.',
  tooSlow: 'Processing the video took too long: the file may be damaged. Export it again and upload it.',
  retrying:
    'Processing could not finish because of a problem on our side, not with the file; it will be tried again.',
  ourSide:
    'Processing could not finish because of a problem on our side, not with the file. Press "Process again" later.',
} as const;

// The preview clip: a third of the video from the middle, at most CLIP_SECONDS (an excerpt, never the
// whole routine), at most 480 lines, small enough to start at once on a phone (about 2 MB; the bitrate
// cap keeps it under 3 MB whatever the picture).
export const CLIP_SECONDS = 18;
export const CLIP_SHARE = 1 / 3;
export const CLIP_MAX_LINES = 480;
const CLIP_VIDEO_KBPS = 900;
const CLIP_AUDIO_KBPS = 96;
const POSTER_MAX_WIDTH = 1920;
export const FFMPEG_QUIET = ['-hide_banner', '-nostdin', '-v', 'error'];

/** Where a file's outputs go: named by the source key's digest, so a rerun overwrites its own outputs. */
export function outputKeys(awsKey: string) {
  const digest = storageKeyDigest(awsKey);
  return {
    // Under previews/: the preview route serves it in every width and format (AVIF/WebP).
    poster: `previews/posters/${digest}.jpg`,
    clip: `clips/${digest}.mp4`,
    stream: `streams/${digest}.mp4`,
  };
}

const WATERMARK_FONTS = [
  '/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf',
  '/usr/share/fonts/truetype/liberation/LiberationSans-Bold.ttf',
];

const exists = (file: string) =>
  access(file).then(
    () => true,
    () => false,
  );

export async function watermarkFont(): Promise<string | undefined> {
  for (const font of WATERMARK_FONTS) if (await exists(font)) return font;
  return undefined; // fontconfig's default
}

export const lastLine = (text: string) =>
  text
    .trim()
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .at(-1) ?? '';

export interface Probe {
  durationSeconds: number;
  width: number;
  height: number;
  videoCodec: string;
  audioCodec: string | null;
  formatName: string;
  /** The picture's pixel format (yuv420p, yuv420p10le...): an 8-bit 4:2:0 H.264 can be streamed as it is. */
  pixelFormat: string | null;
}

export interface FfprobeOutput {
  format?: { duration?: string; format_name?: string };
  streams?: Array<{
    codec_type?: string;
    codec_name?: string;
    pix_fmt?: string;
    width?: number;
    height?: number;
    duration?: string;
    disposition?: { attached_pic?: number };
    tags?: { rotate?: string };
    side_data_list?: Array<{ rotation?: number }>;
  }>;
}

/** Duration, picture size and codecs; refuses what holds no playable picture. */
export function readProbe(output: FfprobeOutput, maxDurationSeconds: number): Probe {
  const streams = output.streams ?? [];
  const picture = streams.find((s) => s.codec_type === 'video' && !s.disposition?.attached_pic);
  const sound = streams.find((s) => s.codec_type === 'audio');
  if (!picture?.width || !picture.height)
    throw new VideoRefused(
      sound
        ? 'The file holds only sound, no picture: upload the video itself.'
        : 'The file holds no video picture that can be played.',
    );
  const durationSeconds = Number(output.format?.duration ?? picture.duration);
  if (!Number.isFinite(durationSeconds) || durationSeconds <= 0)
    throw new VideoRefused(
      'The length of the video cannot be read: the file may be damaged. Export it again.',
    );
  if (durationSeconds > maxDurationSeconds)
    throw new VideoRefused(
      `The video is ${formatDuration(durationSeconds)} long; videos up to ${formatDuration(maxDurationSeconds)} are accepted.`,
    );
  // A phone's portrait video is stored landscape with a rotation: report it as it is shown.
  const rotation = Number(
    picture.side_data_list?.find((d) => d.rotation !== undefined)?.rotation ?? picture.tags?.rotate ?? 0,
  );
  const sideways = Math.abs(rotation) % 180 === 90;
  return {
    durationSeconds,
    width: sideways ? picture.height : picture.width,
    height: sideways ? picture.width : picture.height,
    videoCodec: picture.codec_name ?? 'unknown',
    audioCodec: sound?.codec_name ?? null,
    formatName: output.format?.format_name ?? '',
    pixelFormat: picture.pix_fmt ?? null,
  };
}

/** Reports progress to BullMQ (the jobs screen and the admin videos screen read it), whole percents only. */
export function progressReporter(job: Job) {
  let last = -1;
  return (percent: number) => {
    const rounded = Math.max(0, Math.min(99, Math.floor(percent)));
    if (rounded <= last) return;
    last = rounded;
    void job.updateProgress(rounded).catch(() => {});
  };
}

/** Stage weights of the whole job, in percent: download, poster, clip, fast-start copy, upload. */
const STAGES = {
  download: [0, 20],
  poster: [20, 25],
  clip: [25, 65],
  stream: [65, 92],
  upload: [92, 99],
} as const;
const within = (stage: keyof typeof STAGES, fraction: number) =>
  STAGES[stage][0] + (STAGES[stage][1] - STAGES[stage][0]) * Math.max(0, Math.min(1, fraction));

export interface Run {
  binaries: MediaBinaries;
  dir: string;
  signal: AbortSignal;
  progress: (percent: number) => void;
  /** The share of the source downloaded (0-1); process-video's own stage weights when absent. */
  onDownload?: (fraction: number) => void;
}

export async function download(context: WorkerContext, awsKey: string, run: Run): Promise<string> {
  const head = await context.storage.head(awsKey);
  if (!head) throw new VideoRefused(failureReasons.missing, `no object under ${awsKey}`);
  if (head.size === 0) throw new VideoRefused(failureReasons.empty);
  const { bavail, bsize } = await statfs(run.dir);
  const needed = head.size + context.config.VIDEO_MIN_FREE_MB * 1024 * 1024;
  if (bavail * bsize < needed)
    throw new Error(
      `Not enough free disk space to process the video: ${Math.ceil(needed / 1024 ** 2)} MB needed, ${Math.floor((bavail * bsize) / 1024 ** 2)} MB free`,
    );
  const object = await context.storage.get(awsKey);
  if (!object) throw new VideoRefused(failureReasons.missing, `no object under ${awsKey}`);
  const file = path.join(run.dir, `source${path.extname(awsKey).toLowerCase() || '.bin'}`);
  let received = 0;
  const counted = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      received += chunk.length;
      (run.onDownload ?? ((fraction) => run.progress(within('download', fraction))))(received / head.size);
      done(null, chunk);
    },
  });
  await pipeline(object.body, counted, createWriteStream(file), { signal: run.signal });
  return file;
}

/** An ffmpeg failure on the owner's file is the file's fault (refused); a stop or a timeout is not. */
export async function ffmpeg(
  run: Run,
  args: string[],
  timeoutMs: number,
  what: string,
  onTime?: (s: number) => void,
) {
  try {
    await runMedia(run.binaries.ffmpeg.path, [...FFMPEG_QUIET, ...args], {
      timeoutMs,
      signal: run.signal,
      onTime,
    });
  } catch (error) {
    if (error instanceof MediaCommandError && error.reason === 'failed')
      throw new VideoRefused(
        failureReasons.damaged,
        `ffmpeg (${what}): ${lastLine(error.stderr).slice(0, 500) || error.message}`,
      );
    if (error instanceof MediaCommandError && error.reason === 'timeout')
      throw new VideoRefused(failureReasons.tooSlow, `ffmpeg (${what}) timed out`);
    throw error;
  }
}

/** The clip's window: a third of the video, at most CLIP_SECONDS, from the middle. */
export function clipWindow(durationSeconds: number) {
  const length = Math.min(CLIP_SECONDS, durationSeconds * CLIP_SHARE);
  return { start: Math.max(0, durationSeconds / 2 - length / 2), length };
}

const words = (text: string) => text.split(' ');

/** Each step's arguments (ffmpeg's after FFMPEG_QUIET); bench/video.ts runs the same commands by hand. */
export const mediaCommands = {
  probe: (source: string) => [...words('-v error -print_format json -show_format -show_streams'), source],
  poster: (source: string, out: string, probe: Pick<Probe, 'durationSeconds'>) => [
    ...['-ss', (probe.durationSeconds * 0.1).toFixed(3), '-i', source],
    ...['-frames:v', '1', '-vf', `scale='min(${POSTER_MAX_WIDTH},iw)':-2`, '-q:v', '3', '-y', out],
  ],
  clip: (source: string, out: string, probe: Probe, font: string | undefined) => {
    const { start, length } = clipWindow(probe.durationSeconds);
    const text = business.name.replace(/['\\:%]/g, '');
    const filters = [
      // At most 480 lines on the short side, even sizes for H.264.
      probe.width >= probe.height
        ? `scale=-2:'min(${CLIP_MAX_LINES},ih)'`
        : `scale='min(${CLIP_MAX_LINES},iw)':-2`,
      `drawtext=${font ? `fontfile='${font}':` : ''}text='${text}':expansion=none:fontcolor=white@0.75:` +
        `fontsize=h/12:x=w-tw-h/24:y=h-th-h/24:shadowcolor=black@0.6:shadowx=2:shadowy=2`,
    ];
    return [
      ...['-ss', start.toFixed(3), '-i', source, '-t', length.toFixed(3), '-map', '0:v:0'],
      ...(probe.audioCodec ? ['-map', '0:a:0'] : []),
      ...['-vf', filters.join(',')],
      ...words('-c:v libx264 -preset veryfast -crf 26 -pix_fmt yuv420p -profile:v main'),
      ...['-maxrate', `${CLIP_VIDEO_KBPS}k`, '-bufsize', `${CLIP_VIDEO_KBPS * 2}k`],
      ...(probe.audioCodec ? words(`-c:a aac -b:a ${CLIP_AUDIO_KBPS}k -ac 2`) : ['-an']),
      ...words('-movflags +faststart -map_metadata -1 -progress pipe:1 -nostats -y'),
      out,
    ];
  },
  // A copy (no re-encoding) with the index first.
  stream: (source: string, out: string) => [
    '-i',
    source,
    ...words('-map 0:v -map 0:a? -c copy -movflags +faststart -progress pipe:1 -nostats -y'),
    out,
  ],
};

async function makeClip(run: Run, source: string, probe: Probe): Promise<string> {
  const clip = path.join(run.dir, 'clip.mp4');
  const { length } = clipWindow(probe.durationSeconds);
  await ffmpeg(
    run,
    mediaCommands.clip(source, clip, probe, await watermarkFont()),
    60_000 + length * 10_000,
    'preview clip',
    (seconds) => run.progress(within('clip', seconds / length)),
  );
  return clip;
}

/** ffprobe's findings on a downloaded source; what it cannot read is refused. */
export async function probeSource(run: Run, source: string, maxDurationSeconds: number): Promise<Probe> {
  try {
    const { stdout } = await runMedia(run.binaries.ffprobe.path, mediaCommands.probe(source), {
      timeoutMs: 60_000,
      signal: run.signal,
    });
    return readProbe(JSON.parse(stdout) as FfprobeOutput, maxDurationSeconds);
  } catch (error) {
    if (error instanceof MediaCommandError && error.reason !== 'aborted')
      throw new VideoRefused(
        failureReasons.notVideo,
        `ffprobe: ${lastLine(error.stderr).slice(0, 500) || error.message}`,
      );
    throw error;
  }
}

/** Outputs of a run, made on disk first and uploaded only once all exist (no half sets in storage). */
async function makeOutputs(
  context: WorkerContext,
  video: { awsKey: string; sellsAccess: boolean },
  run: Run,
) {
  const source = await download(context, video.awsKey, run);

  const layout = await readTopLevelLayout(source);
  if (layout?.truncated)
    throw new VideoRefused(
      'The file is cut short (its end is missing): the upload or export did not finish. Upload it again.',
    );

  const probe = await probeSource(run, source, context.config.VIDEO_MAX_DURATION_SECONDS);

  const poster = path.join(run.dir, 'poster.jpg');
  await ffmpeg(run, mediaCommands.poster(source, poster, probe), 60_000, 'poster picture');
  if (!(await stat(poster).catch(() => null))?.size)
    throw new VideoRefused(failureReasons.damaged, 'the poster frame came out empty');
  run.progress(within('poster', 1));

  const clip = video.sellsAccess ? await makeClip(run, source, probe) : null;

  // Streams start at once only with the index first; a copy (no re-encoding) fixes that.
  const mp4Family = /mov|mp4/.test(probe.formatName);
  let stream: string | null = null;
  if (layout && !layout.fastStart && mp4Family) {
    stream = path.join(run.dir, 'stream.mp4');
    await ffmpeg(
      run,
      mediaCommands.stream(source, stream),
      60_000 + probe.durationSeconds * 1_000,
      'fast-start copy',
      (seconds) => run.progress(within('stream', seconds / probe.durationSeconds)),
    );
  }
  const sizeBytes = (await stat(source)).size;
  return { probe, poster, clip, stream, fastStart: layout?.fastStart ?? true, sizeBytes };
}

/**
 * Probes a video's file, makes its poster frame, a watermarked preview clip (paid and protected videos)
 * and a fast-start copy when the original has its index at the end, and stores them with what the probe
 * found (docs/decisions/022). Outputs are named by the file, so a rerun leaves one set.
 */
export const processVideo: JobHandler<'process-video'> = async ({ videoId, awsKey }, context) => {
  const { db, storage, job, videoTools } = context;
  const matches = and(eq(videos.id, videoId), eq(videos.awsKey, awsKey));
  const [video] = await db
    .select({ priceCents: videos.priceCents, passwordProtected: videos.passwordProtected })
    .from(videos)
    .where(matches);
  if (!video) return { status: 'skipped', reason: 'The video was deleted or has another file now' };

  const fail = (state: 'failed' | 'queued', reason: string | null) =>
    db.update(videos).set({ processingState: state, processingError: reason }).where(matches);

  const binaries = await videoTools.prepare();
  if (!binaries) {
    await fail('failed', 'Videos cannot be processed: ffmpeg is not installed on the worker.');
    throw new UnrecoverableError(videoTools.unavailable() ?? 'ffmpeg is not available');
  }
  await db.update(videos).set({ processingState: 'processing', processingError: null }).where(matches);

  const keys = outputKeys(awsKey);
  const uploaded: string[] = [];
  const dir = await videoTools.makeTempDir();
  const run: Run = { binaries, dir, signal: videoTools.signal, progress: progressReporter(job) };
  try {
    const made = await makeOutputs(
      context,
      { awsKey, sellsAccess: video.priceCents > 0 || video.passwordProtected },
      run,
    );
    const uploads = [
      { key: keys.poster, file: made.poster, type: 'image/jpeg' },
      ...(made.clip ? [{ key: keys.clip, file: made.clip, type: 'video/mp4' }] : []),
      ...(made.stream ? [{ key: keys.stream, file: made.stream, type: 'video/mp4' }] : []),
    ];
    for (const [index, upload] of uploads.entries()) {
      uploaded.push(upload.key);
      // The poster is small: read whole (S3 takes a Buffer in one request).
      await storage.put(
        upload.key,
        upload.type.startsWith('image/') ? await readFile(upload.file) : createReadStream(upload.file),
        upload.type,
      );
      run.progress(within('upload', (index + 1) / uploads.length));
    }
    const media: VideoMedia = {
      durationSeconds: made.probe.durationSeconds,
      width: made.probe.width,
      height: made.probe.height,
      videoCodec: made.probe.videoCodec,
      audioCodec: made.probe.audioCodec,
      sizeBytes: made.sizeBytes,
      fastStart: made.fastStart,
      posterKey: keys.poster,
      clipKey: made.clip ? keys.clip : null,
      streamKey: made.stream ? keys.stream : null,
      hls: { state: 'queued', error: null, prefix: null, renditions: [] },
    };
    // Ready and, for a bulk upload on sale once ready, on sale in one commit: nobody sees one without the other.
    const { saved, released } = await db.transaction(async (tx) => {
      const saved = await tx
        .update(videos)
        .set({ processingState: 'ready', processingError: null, media })
        .where(matches)
        .returning({ id: videos.id });
      return { saved, released: saved.length > 0 && (await releaseBulkUpload(tx, videoId)) };
    });
    if (saved.length === 0) {
      // The owner gave the video another file meanwhile: these outputs belong to nothing.
      await removeUnused(context, awsKey, uploaded);
      return { status: 'skipped', reason: 'The video has another file now' };
    }
    await job.updateProgress(100).catch(() => {});
    if (released) await alertsAfterPublish(context);
    await markPublicContentChanged(context.redis, context.config.QUEUE_PREFIX);
    await queueVideoStream(context, { videoId, awsKey });
    return { status: 'done', ...media };
  } catch (error) {
    await removeUnused(context, awsKey, uploaded);
    if (videoTools.signal.aborted) {
      // The worker is stopping: the job goes back to the queue, without counting as a failed attempt.
      await fail('queued', null);
      await job.moveToWait(context.token);
      throw new WaitingError();
    }
    const attempts = job.opts.attempts ?? 1;
    const final = error instanceof UnrecoverableError || job.attemptsMade + 1 >= attempts;
    const reason =
      error instanceof VideoRefused
        ? error.message
        : final
          ? failureReasons.ourSide
          : failureReasons.retrying;
    // The raw detail (temporary paths, the tool's own words) goes to the logs, not to the owner's screen.
    context.logger.warn(
      {
        videoId,
        attempt: job.attemptsMade + 1,
        reason,
        detail: error instanceof VideoRefused ? error.detail : undefined,
        err: error instanceof VideoRefused ? undefined : error,
      },
      'video processing failed',
    );
    await fail(final ? 'failed' : 'queued', reason);
    throw error;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
};

/**
 * Queues the adaptive stream of a file just processed; a finished stream job of the same file is removed
 * first, so processing again makes the stream again.
 */
export async function queueVideoStream(context: WorkerContext, payload: { videoId: string; awsKey: string }) {
  const previous = await context.producer.queue('make-video-stream').getJob(videoStreamJobId(payload));
  const state = await previous?.getState();
  if (state === 'completed' || state === 'failed') await previous!.remove();
  await context.producer.enqueue('make-video-stream', payload);
}

/**
 * Deletes what this run uploaded, except outputs a finished run of the same file still uses (this
 * video's earlier run, or another video with the same file).
 */
async function removeUnused(context: WorkerContext, awsKey: string, keys: string[]) {
  if (keys.length === 0) return;
  const users = await context.db
    .select({ media: videos.media })
    .from(videos)
    .where(and(eq(videos.awsKey, awsKey), isNotNull(videos.media)));
  const inUse = new Set(users.flatMap(({ media }) => [media?.posterKey, media?.clipKey, media?.streamKey]));
  await Promise.all(
    keys.filter((key) => !inUse.has(key)).map((key) => context.storage.delete(key).catch(() => {})),
  );
}

/** The audit log's reason for a bulk upload's video put on sale by this job. */
export const BULK_RELEASE_REASON = 'On sale once ready, as chosen when its competition upload was confirmed';

/**
 * A video of a bulk upload whose owner chose "on sale once ready" goes on sale the first time it is
 * ready (decision 033); a failed one never does, and one she hid since stays hidden. The audit log
 * says so in the same statement, as it does for the owner's own publishing. Resolves true if it went on sale.
 */
async function releaseBulkUpload(db: Pick<Db, 'execute'>, videoId: string): Promise<boolean> {
  const released = await db.execute(sql`
    with released as (
      update upload_files f set released_at = now()
      from upload_batches b
      where b.id = f.batch_id and f.video_id = ${videoId} and f.state = 'uploaded'
        and b.publish and f.released_at is null
      returning f.video_id
    ), published as (
      update videos set published = true
      where id in (select video_id from released) and withdrawn_at is null
      returning id, title
    )
    insert into audit_log (actor, action, subject_kind, subject_id, subject_name, reason)
    select 'system', 'unhide', 'video', id, title, ${BULK_RELEASE_REASON} from published`);
  return (released.rowCount ?? 0) > 0;
}
