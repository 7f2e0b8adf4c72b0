// Bench: video processing. A generated N-minute 1080p file with its index at the end (as cameras write
// it) is processed end to end by the real worker (production bundle), and the same ffmpeg commands are
// run by hand in the same run, before and after. Targets: wall time within 10 % of the commands by hand;
// worker RSS ≤ 250 MB (ffmpeg's own memory reported apart). Also: upload complete → preview ready.
// Then the adaptive stream (make-video-stream, queued by the job) against its one ffmpeg command by hand:
// target 1.1 × by hand, worker RSS ≤ 200 MB (issue 32).
// Flags: --minutes N (default 10), --height H (default 1080).
import { execFile } from 'node:child_process';
import { createReadStream } from 'node:fs';
import { mkdir, mkdtemp, readFile, rename, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs, promisify } from 'node:util';
import pg from 'pg';
import { parseConfig } from '@app/shared/config';
import { createProducer, createRedis, videoStreamJobId } from '@app/shared/queue';
import { createStorage } from '@app/shared/storage';
import { findMediaBinaries, runMedia } from '../worker/src/media/ffmpeg.ts';
import { readTopLevelLayout } from '../worker/src/media/mp4-boxes.ts';
import {
  FFMPEG_QUIET,
  mediaCommands,
  readProbe,
  watermarkFont,
  type Probe,
} from '../worker/src/jobs/process-video.ts';
import { hlsCommand, planRenditions } from '../worker/src/media/renditions.ts';
import { startWorker } from '../test/support/processes.ts';
import { peakRssMb, prepareBenchEnv, printTable, verdict, workerIdle } from './lib.ts';

const { values: flags } = parseArgs({
  options: { minutes: { type: 'string', default: '10' }, height: { type: 'string', default: '1080' } },
});
const minutes = Number(flags.minutes);
const height = Number(flags.height);
const width = Math.round((height * 16) / 9 / 2) * 2;

const env = await prepareBenchEnv('video');
const config = parseConfig(env);
const binaries = await findMediaBinaries(config);
const run = promisify(execFile);
const quiet = new AbortController().signal;

/** A 10 s segment encoded once, looped (stream copy) to the length asked for: minutes of 1080p in seconds. */
async function sourceFile(): Promise<string> {
  const dir = path.join(os.tmpdir(), 'stagelight-bench-video');
  await mkdir(dir, { recursive: true });
  const segment = path.join(dir, `segment-${height}.mp4`);
  if (!(await stat(segment).catch(() => null))) {
    await run(binaries.ffmpeg.path, [
      ...FFMPEG_QUIET,
      ...['-f', 'lavfi', '-i', `testsrc2=size=${width}x${height}:rate=25`],
      ...['-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000', '-t', '10'],
      ...['-c:v', 'libx264', '-preset', 'ultrafast', '-crf', '30', '-g', '50', '-pix_fmt', 'yuv420p'],
      ...['-c:a', 'aac', '-b:a', '128k', '-y', `${segment}.tmp.mp4`],
    ]);
    await rename(`${segment}.tmp.mp4`, segment);
  }
  const file = path.join(dir, `source-${height}-${minutes}min.mp4`);
  if (!(await stat(file).catch(() => null))) {
    const loops = Math.ceil((minutes * 60) / 10) - 1;
    await run(binaries.ffmpeg.path, [
      ...FFMPEG_QUIET,
      ...['-stream_loop', String(loops), '-i', segment, '-c', 'copy', '-y', `${file}.tmp.mp4`],
    ]);
    await rename(`${file}.tmp.mp4`, file);
  }
  return file;
}

/** The worker's ffmpeg steps as plain commands: probe, poster, clip, fast-start copy. */
async function byHand(source: string): Promise<number> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'stagelight-bench-hand-'));
  try {
    const started = performance.now();
    const { stdout } = await runMedia(binaries.ffprobe.path, mediaCommands.probe(source), {
      timeoutMs: 600_000,
      signal: quiet,
    });
    const probe: Probe = readProbe(JSON.parse(stdout), config.VIDEO_MAX_DURATION_SECONDS);
    const font = await watermarkFont();
    for (const args of [
      mediaCommands.poster(source, path.join(dir, 'poster.jpg'), probe),
      mediaCommands.clip(source, path.join(dir, 'clip.mp4'), probe, font),
      mediaCommands.stream(source, path.join(dir, 'stream.mp4')),
    ])
      await runMedia(binaries.ffmpeg.path, [...FFMPEG_QUIET, ...args], { timeoutMs: 900_000, signal: quiet });
    return performance.now() - started;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The adaptive stream's command by hand: probe, then the one ffmpeg run that writes every rendition. */
async function streamByHand(source: string): Promise<number> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'stagelight-bench-hls-'));
  try {
    const started = performance.now();
    const { stdout } = await runMedia(binaries.ffprobe.path, mediaCommands.probe(source), {
      timeoutMs: 600_000,
      signal: quiet,
    });
    const probe: Probe = readProbe(JSON.parse(stdout), config.VIDEO_MAX_DURATION_SECONDS);
    const out = path.join(dir, 'hls');
    await runMedia(
      binaries.ffmpeg.path,
      [...FFMPEG_QUIET, ...hlsCommand(source, out, probe, planRenditions(probe))],
      {
        timeoutMs: 3_600_000,
        signal: quiet,
      },
    );
    return performance.now() - started;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Resident memory (MB) of a process's ffmpeg/ffprobe children right now, the largest one. */
async function childRssMb(pid: number): Promise<number> {
  const children = await readFile(`/proc/${pid}/task/${pid}/children`, 'utf8').catch(() => '');
  let largest = 0;
  for (const child of children.trim().split(/\s+/).filter(Boolean)) {
    const status = await readFile(`/proc/${child}/status`, 'utf8').catch(() => '');
    largest = Math.max(largest, Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024);
  }
  return Math.round(largest);
}

async function endToEnd(source: string) {
  const pool = new pg.Pool({ connectionString: env.DATABASE_URL, max: 2 });
  const redis = createRedis(config.REDIS_URL, 'client');
  const producer = createProducer(redis, config.QUEUE_PREFIX);
  const worker = await startWorker(env);
  await workerIdle(env);
  try {
    const awsKey = `videos/bench-${minutes}min-${height}p.mp4`;
    const { rows } = await pool.query<{ id: string }>(
      `insert into videos (id, title, description, aws_key, price_cents) values (gen_random_uuid(), 'Bench', 'Bench', $1, 2500) returning id`,
      [awsKey],
    );
    await createStorage(config).put(awsKey, createReadStream(source), 'video/mp4');
    // Upload complete: the api queues the job now.
    const uploaded = performance.now();
    const { jobId } = await producer.enqueue('process-video', { videoId: rows[0]!.id, awsKey });
    const queue = producer.queue('process-video');
    let ffmpegPeak = 0;
    for (;;) {
      ffmpegPeak = Math.max(ffmpegPeak, await childRssMb(worker.child.pid!));
      const job = await queue.getJob(jobId);
      const state = await job?.getState();
      if (state === 'failed') throw new Error(`processing failed: ${job?.failedReason}`);
      if (state === 'completed') break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const job = (await queue.getJob(jobId))!;
    const ready = performance.now() - uploaded;
    const processed = {
      processingMs: job.finishedOn! - job.processedOn!,
      readyMs: ready,
      workerPeakRssMb: peakRssMb(worker.child.pid!),
      ffmpegPeakRssMb: ffmpegPeak,
    };
    // The adaptive stream the job queued on success.
    const streamQueue = producer.queue('make-video-stream');
    const streamJobId = videoStreamJobId({ videoId: rows[0]!.id, awsKey });
    let streamFfmpegPeak = 0;
    for (;;) {
      streamFfmpegPeak = Math.max(streamFfmpegPeak, await childRssMb(worker.child.pid!));
      const streamJob = await streamQueue.getJob(streamJobId);
      const state = await streamJob?.getState();
      if (state === 'failed') throw new Error(`stream failed: ${streamJob?.failedReason}`);
      if (state === 'completed')
        return {
          ...processed,
          streamMs: streamJob!.finishedOn! - streamJob!.processedOn!,
          streamWorkerPeakRssMb: peakRssMb(worker.child.pid!),
          streamFfmpegPeakRssMb: streamFfmpegPeak,
        };
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  } finally {
    await worker.stop();
    await producer.close();
    redis.disconnect();
    await pool.end();
    await rm(path.resolve(config.STORAGE_DIR), { recursive: true, force: true });
  }
}

const source = await sourceFile();
const layout = await readTopLevelLayout(source);
console.info(
  `bench/video: ${minutes} min ${width}x${height} H.264/AAC, ${Math.round((await stat(source)).size / 1024 ** 2)} MB, ` +
    `fast start: ${layout?.fastStart}; ${binaries.ffmpeg.version} (${binaries.ffmpeg.source}); ${os.cpus().length} cores, load ${os.loadavg()[0]!.toFixed(1)}`,
);
const handBefore = await byHand(source);
const streamBefore = await streamByHand(source);
const pipeline = await endToEnd(source);
const handAfter = await byHand(source);
const streamAfter = await streamByHand(source);
const streamHand = (streamBefore + streamAfter) / 2;
const streamRatio = pipeline.streamMs / streamHand;
const hand = (handBefore + handAfter) / 2;
const overhead = pipeline.processingMs / hand - 1;
printTable('Video processing (one job, one ffmpeg at a time)', [
  {
    measure: 'ffmpeg commands by hand (mean of before and after)',
    value: `${(hand / 1000).toFixed(1)} s (${(handBefore / 1000).toFixed(1)} s, ${(handAfter / 1000).toFixed(1)} s)`,
    target: '',
  },
  {
    measure: 'worker job, start to finish',
    value: `${(pipeline.processingMs / 1000).toFixed(1)} s`,
    target: '',
  },
  {
    measure: 'overhead over the commands by hand',
    value: `${(overhead * 100).toFixed(1)} %`,
    target: `≤ 10 %: ${verdict(overhead <= 0.1)}`,
  },
  {
    measure: 'upload complete → preview ready',
    value: `${(pipeline.readyMs / 1000).toFixed(1)} s`,
    target: '',
  },
  {
    measure: 'worker peak RSS',
    value: `${pipeline.workerPeakRssMb} MB`,
    target: `≤ 250 MB: ${verdict(pipeline.workerPeakRssMb <= 250)}`,
  },
  { measure: 'ffmpeg peak RSS (sampled, apart)', value: `${pipeline.ffmpegPeakRssMb} MB`, target: '' },
]);
printTable('Adaptive stream (renditions of the same file, one job)', [
  {
    measure: 'ffmpeg command by hand (mean of before and after)',
    value: `${(streamHand / 1000).toFixed(1)} s (${(streamBefore / 1000).toFixed(1)} s, ${(streamAfter / 1000).toFixed(1)} s)`,
    target: '',
  },
  {
    measure: 'make-video-stream job, start to finish',
    value: `${(pipeline.streamMs / 1000).toFixed(1)} s`,
    target: '',
  },
  {
    measure: 'job / by hand',
    value: `${streamRatio.toFixed(2)} ×`,
    target: `≤ 1.1 ×: ${verdict(streamRatio <= 1.1)}`,
  },
  {
    measure: 'worker peak RSS (whole run)',
    value: `${pipeline.streamWorkerPeakRssMb} MB`,
    target: `≤ 200 MB: ${verdict(pipeline.streamWorkerPeakRssMb <= 200)}`,
  },
  { measure: 'ffmpeg peak RSS (sampled, apart)', value: `${pipeline.streamFfmpegPeakRssMb} MB`, target: '' },
]);
