import { createReadStream } from 'node:fs';
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { UnrecoverableError, WaitingError } from 'bullmq';
import { and, eq, isNotNull, sql } from 'drizzle-orm';
import { videos } from '@app/shared/db';
import { storageKeyDigest } from '@app/shared/queue';
import type { Rendition, VideoStream } from '@app/shared/schemas';
import { contentTypeFor, streamPrefix } from '@app/shared/storage';
import type { JobHandler, WorkerContext } from '../context.ts';
import { avcCodecName, hlsCommand, planRenditions, withCopyCodecs } from '../media/renditions.ts';
import { download, ffmpeg, probeSource, progressReporter, VideoRefused, type Run } from './process-video.ts';

/** Stage weights in percent: download, encode, upload. */
const DOWNLOAD_END = 10;
const ENCODE_END = 90;

/** Files of a finished run, every playlist after the segments it names and the master last. */
async function streamFiles(outDir: string): Promise<string[]> {
  const files: string[] = [];
  for (const folder of await readdir(outDir, { withFileTypes: true })) {
    if (!folder.isDirectory()) continue;
    const names = (await readdir(path.join(outDir, folder.name))).sort((a, b) =>
      a === 'index.m3u8' ? 1 : b === 'index.m3u8' ? -1 : a.localeCompare(b),
    );
    files.push(...names.map((name) => `${folder.name}/${name}`));
  }
  return [...files, 'master.m3u8'];
}

async function nameCopyCodecs(outDir: string, name: string) {
  const init = (await readdir(path.join(outDir, name))).find((file) => file.startsWith('init'));
  const codec = init ? avcCodecName(await readFile(path.join(outDir, name, init))) : null;
  if (!codec) return;
  const master = path.join(outDir, 'master.m3u8');
  await writeFile(master, withCopyCodecs(await readFile(master, 'utf8'), `${name}/index.m3u8`, codec));
}

/** Writes the stream's state into the video's media, only while the video still has this file. */
async function setStream(context: WorkerContext, videoId: string, awsKey: string, stream: VideoStream) {
  return context.db
    .update(videos)
    .set({ media: sql`jsonb_set(${videos.media}, '{hls}', ${JSON.stringify(stream)}::jsonb)` })
    .where(and(eq(videos.id, videoId), eq(videos.awsKey, awsKey), isNotNull(videos.media)))
    .returning({ id: videos.id });
}

/**
 * The adaptive stream of a processed video (decision 031): one ffmpeg run writes fMP4 HLS renditions
 * (the original's picture copied when it can be, 720p and 360p encodes) on the worker's disk; each file is
 * then streamed to storage under `streams/<digest>/`, the master playlist last. A failure leaves the video
 * ready, playing from its fast-start copy, with the reason on the owner's screen.
 */
export const makeVideoStream: JobHandler<'make-video-stream'> = async ({ videoId, awsKey }, context) => {
  const { db, storage, job, videoTools } = context;
  const [video] = await db
    .select({ media: videos.media })
    .from(videos)
    .where(and(eq(videos.id, videoId), eq(videos.awsKey, awsKey)));
  if (!video?.media)
    return { status: 'skipped', reason: 'The video was deleted, has another file, or is not processed' };

  const binaries = await videoTools.prepare();
  if (!binaries) throw new UnrecoverableError(videoTools.unavailable() ?? 'ffmpeg is not available');

  const prefix = streamPrefix(storageKeyDigest(awsKey));
  const progress = progressReporter(job);
  await setStream(context, videoId, awsKey, {
    state: 'processing',
    error: null,
    prefix: null,
    renditions: [],
  });
  const dir = await videoTools.makeTempDir();
  const run: Run = {
    binaries,
    dir,
    signal: videoTools.signal,
    progress,
    onDownload: (fraction) => progress(fraction * DOWNLOAD_END),
  };
  const uploaded: string[] = [];
  try {
    const source = await download(context, awsKey, run);
    const probe = await probeSource(run, source, context.config.VIDEO_MAX_DURATION_SECONDS);
    const plan = planRenditions(probe);
    const outDir = path.join(dir, 'hls');
    await ffmpeg(
      run,
      hlsCommand(source, outDir, probe, plan),
      // Two encodes on a small machine: generous, but a stuck ffmpeg still ends.
      120_000 + probe.durationSeconds * 8_000,
      'adaptive stream',
      (seconds) =>
        progress(DOWNLOAD_END + (ENCODE_END - DOWNLOAD_END) * Math.min(1, seconds / probe.durationSeconds)),
    );
    await rm(source, { force: true });
    const copy = plan.find((rendition) => rendition.copy);
    if (copy) await nameCopyCodecs(outDir, copy.name);
    const files = await streamFiles(outDir);
    for (const [index, file] of files.entries()) {
      const key = `${prefix}${file}`;
      uploaded.push(key);
      // One file at a time from disk: the worker never holds a rendition in memory.
      await storage.put(key, createReadStream(path.join(outDir, file)), contentTypeFor(key));
      progress(ENCODE_END + (99 - ENCODE_END) * ((index + 1) / files.length));
    }
    const renditions: Rendition[] = plan.map(({ name, width, height, copy }) => ({
      name,
      width,
      height,
      copy,
    }));
    const saved = await setStream(context, videoId, awsKey, {
      state: 'ready',
      error: null,
      prefix,
      renditions,
    });
    if (saved.length === 0) {
      await removeStream(context, awsKey, uploaded);
      return { status: 'skipped', reason: 'The video has another file now' };
    }
    await job.updateProgress(100).catch(() => {});
    return { status: 'done', prefix, renditions: renditions.map((r) => r.name) };
  } catch (error) {
    await removeStream(context, awsKey, uploaded);
    if (videoTools.signal.aborted) {
      await setStream(context, videoId, awsKey, {
        state: 'queued',
        error: null,
        prefix: null,
        renditions: [],
      });
      await job.moveToWait(context.token);
      throw new WaitingError();
    }
    const final = error instanceof UnrecoverableError || job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
    const reason =
      error instanceof VideoRefused
        ? error.message
        : `The adaptive stream could not be made${final ? '' : ' and will be tried again'}: ${(error as Error).message}`;
    await setStream(context, videoId, awsKey, {
      state: final ? 'failed' : 'queued',
      error: reason,
      prefix: null,
      renditions: [],
    });
    throw error;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
};

/** Deletes what a failed run uploaded, unless a finished stream of the same file uses that folder. */
async function removeStream(context: WorkerContext, awsKey: string, keys: string[]) {
  if (keys.length === 0) return;
  const users = await context.db
    .select({ media: videos.media })
    .from(videos)
    .where(and(eq(videos.awsKey, awsKey), isNotNull(videos.media)));
  if (users.some(({ media }) => media?.hls?.state === 'ready')) return;
  await context.storage.deletePrefix(streamPrefix(storageKeyDigest(awsKey))).catch(() => {});
}
