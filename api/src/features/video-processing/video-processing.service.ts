import { and, eq, isNotNull, sql } from 'drizzle-orm';
import { videos } from '@app/shared/db';
import { processVideoJobId, storageKeyDigest, videoStreamJobId, type QueuedJob } from '@app/shared/queue';
import { streamPrefix } from '@app/shared/storage';
import { withRedisTimeout } from '@app/shared/redis';
import type { VideoMedia, VideoProcessing } from '@app/shared/schemas';
import type { Deps } from '../../deps.ts';
import { HttpError, notFound } from '../../http/errors.ts';

/** A storage key as one path segment of our routes (/api/video-preview/..., /api/video-clips/...). */
const keySegment = (json: ReturnType<typeof sql>) => sql`replace(${json}, '/', '%2F')`;

/** The poster frame as an image URL (every width and AVIF/WebP through the preview route). */
export const posterUrlColumn = sql<
  string | null
>`'/api/video-preview/' || ${keySegment(sql`${videos.media}->>'posterKey'`)}`;

/**
 * What visitors see: the owner's preview picture, else the poster frame the worker made; never the
 * frame of a password-protected video (it shows what the password keeps private).
 */
export const previewUrlColumn = sql<
  string | null
>`coalesce(${videos.previewUrl}, case when not ${videos.passwordProtected} then ${posterUrlColumn} end)`;

/**
 * The watermarked preview clip of a paid video. A protected video's clip is served only to a request
 * carrying its token (unlockedMedia), so the public answers leave it out.
 */
export const previewClipUrlColumn = sql<
  string | null
>`case when ${videos.priceCents} > 0 and not ${videos.passwordProtected}
  then '/api/video-clips/' || ${keySegment(sql`${videos.media}->>'clipKey'`)} end`;

const keyPath = (key: string) => key.replaceAll('/', '%2F');
const withToken = (url: string, token: string) => `${url}?token=${encodeURIComponent(token)}`;

/** A protected video's poster and clip addresses for a request that carries its valid token. */
export function unlockedMedia(
  video: { previewUrl: string | null; priceCents: number; media: VideoMedia | null },
  token: string,
) {
  const poster = video.media?.posterKey;
  const clip = video.media?.clipKey;
  return {
    previewUrl: video.previewUrl ?? (poster ? withToken(`/api/video-preview/${keyPath(poster)}`, token) : null),
    previewClipUrl: clip ? withToken(`/api/video-clips/${keyPath(clip)}`, token) : null,
  };
}

/** The owner's poster link: a protected video's frame needs a token, so her list carries one. */
export const ownerPosterUrl = (url: string | null, protectedVideo: boolean, token: () => string) =>
  url && protectedVideo ? withToken(url, token()) : url;

/**
 * The poster and clip keys of password-protected videos, with the videos that use each: such a key is
 * served only with a token of one of them (a file shared with an open video stays behind the password).
 */
export async function protectedMediaKeys(db: Pick<Deps, 'db'>['db']): Promise<Record<string, string[]>> {
  const rows = await db
    .select({ id: videos.id, media: videos.media })
    .from(videos)
    .where(and(eq(videos.passwordProtected, true), sql`${videos.media} is not null`));
  const keys: Record<string, string[]> = {};
  for (const { id, media } of rows)
    for (const key of [media?.posterKey, media?.clipKey])
      if (key) keys[key] = [...(keys[key] ?? []), id];
  return keys;
}

export const needsClip = (video: { priceCents: number; passwordProtected: boolean }) =>
  video.priceCents > 0 || video.passwordProtected;

/**
 * Marks the video queued and queues its process-video job (after the write, so the worker finds the
 * state). `again` removes a finished job of the same file first, so it runs anew; one in hand is a 409.
 */
export async function queueProcessing(
  { db, producer }: Pick<Deps, 'db' | 'producer'>,
  video: { id: string; awsKey: string },
  { again = false } = {},
): Promise<QueuedJob> {
  const payload = { videoId: video.id, awsKey: video.awsKey };
  if (again) {
    const job = await producer.queue('process-video').getJob(processVideoJobId(payload));
    const state = await job?.getState();
    if (state === 'active') throw new HttpError(409, 'This video is being processed now');
    if (state === 'completed' || state === 'failed') await job!.remove();
  }
  await db
    .update(videos)
    .set({ processingState: 'queued', processingError: null })
    .where(and(eq(videos.id, video.id), eq(videos.awsKey, video.awsKey)));
  return producer.enqueue('process-video', payload);
}

/** The owner's "Process again": the video's file, processed anew. */
export async function processAgain(deps: Pick<Deps, 'db' | 'producer'>, id: string): Promise<QueuedJob> {
  const [video] = await deps.db
    .select({ id: videos.id, awsKey: videos.awsKey })
    .from(videos)
    .where(eq(videos.id, id));
  if (!video) throw notFound('Video not found');
  return queueProcessing(deps, video, { again: true });
}

/**
 * Queues processing after the owner saved a video, without failing the save when Redis is away:
 * the video shows as queued and "Process again" queues it once Redis is back.
 */
export async function queueProcessingAfterSave(
  deps: Pick<Deps, 'db' | 'producer' | 'logger'>,
  video: { id: string; awsKey: string },
  options: { again?: boolean } = {},
): Promise<void> {
  await queueProcessing(deps, video, options).catch((error: unknown) =>
    deps.logger.warn({ err: error, videoId: video.id }, 'could not queue video processing'),
  );
}

/** The owner's view of each video's processing: the percentage comes from the running job. */
export async function describeProcessing(
  { producer, redis }: Pick<Deps, 'producer' | 'redis'>,
  video: {
    id: string;
    awsKey: string;
    processingState: VideoProcessing['state'];
    processingError: string | null;
    media: VideoMedia | null;
  },
): Promise<VideoProcessing> {
  let progress: number | null = null;
  if (video.processingState === 'processing') {
    const job = await withRedisTimeout(redis, () =>
      producer.queue('process-video').getJob(processVideoJobId({ videoId: video.id, awsKey: video.awsKey })),
    ).catch(() => undefined);
    progress = typeof job?.progress === 'number' ? job.progress : 0;
  }
  let streamProgress: number | null = null;
  if (video.media?.hls?.state === 'processing') {
    const job = await withRedisTimeout(redis, () =>
      producer
        .queue('make-video-stream')
        .getJob(videoStreamJobId({ videoId: video.id, awsKey: video.awsKey })),
    ).catch(() => undefined);
    streamProgress = typeof job?.progress === 'number' ? job.progress : 0;
  }
  return {
    state: video.processingState,
    progress,
    error: video.processingError,
    media: video.media,
    streamProgress,
  };
}

/** Deletes a file's outputs once no video uses that file any more. */
export async function removeOutputsIfUnused(
  { db, storage }: Pick<Deps, 'db' | 'storage'>,
  awsKey: string,
  media: VideoMedia | null,
) {
  if (!media || (await db.$count(videos, eq(videos.awsKey, awsKey))) > 0) return;
  await Promise.all([
    ...[media.posterKey, media.clipKey, media.streamKey]
      .filter((key): key is string => key !== null)
      .map((key) => storage.delete(key).catch(() => {})),
    // The adaptive stream's folder (decision 031), named by the file like the rest.
    storage.deletePrefix(streamPrefix(storageKeyDigest(awsKey))).catch(() => {}),
  ]);
}

/** How many older videos one press of the sweep queues (the next press queues the next ones). */
export const STREAM_SWEEP_BATCH = 200;

/**
 * The owner's sweep: queues the adaptive stream of every ready video without one (older videos, and
 * those whose stream failed), at low priority so new uploads go first; the stream queue runs one at a time.
 */
export async function sweepVideoStreams(deps: Pick<Deps, 'db' | 'producer'>): Promise<{ queued: number }> {
  const rows = await deps.db
    .select({ id: videos.id, awsKey: videos.awsKey })
    .from(videos)
    .where(
      and(
        eq(videos.processingState, 'ready'),
        isNotNull(videos.media),
        // Queued too: a job Redis lost is queued again (one still waiting is left alone below).
        sql`coalesce(${videos.media}->'hls'->>'state', 'none') in ('none', 'failed', 'queued')`,
      ),
    )
    .orderBy(videos.createdAt)
    .limit(STREAM_SWEEP_BATCH);
  let queued = 0;
  for (const row of rows) {
    const payload = { videoId: row.id, awsKey: row.awsKey };
    const job = await deps.producer.queue('make-video-stream').getJob(videoStreamJobId(payload));
    const state = await job?.getState();
    if (state && state !== 'completed' && state !== 'failed' && state !== 'unknown') continue;
    if (job) await job.remove();
    queued += 1;
    await deps.db
      .update(videos)
      .set({
        media: sql`jsonb_set(${videos.media}, '{hls}', ${JSON.stringify({ state: 'queued', error: null, prefix: null, renditions: [] })}::jsonb)`,
      })
      .where(and(eq(videos.id, row.id), eq(videos.awsKey, row.awsKey)));
    await deps.producer.enqueue('make-video-stream', { ...payload, sweep: true });
  }
  return { queued };
}
