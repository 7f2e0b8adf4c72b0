// A worker stopped while ffmpeg runs: the child is killed, the job goes back to the queue without
// counting as a failed attempt, the temp files go, and the next worker finishes the video.
import { execFile } from 'node:child_process';
import { createReadStream } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { eq } from 'drizzle-orm';
import { afterAll, expect, it } from 'vitest';
import { videos } from '@app/shared/db';
import { createStorage } from '@app/shared/storage';
import { createVideo } from '../support/factories.ts';
import { makeTestVideo } from '../support/media.ts';
import { startWorker, type RunningProcess } from '../support/processes.ts';
import { useTestWorld } from '../support/world.ts';

const {
  dir: tmp,
  env,
  producer,
} = useTestWorld({ producer: true, env: ({ dir }) => ({ VIDEO_TMP_DIR: dir }) });
const started: RunningProcess[] = [];
afterAll(() => Promise.all(started.map((process) => process.stop('SIGKILL'))));

const children = async (pid: number) => {
  const { stdout } = await promisify(execFile)('ps', ['-o', 'pid=,comm=', '--ppid', String(pid)]).catch(
    () => ({ stdout: '' }),
  );
  return stdout
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [child, command] = line.trim().split(/\s+/);
      return { pid: Number(child), command: command ?? '' };
    });
};
const running = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

it('kills ffmpeg on SIGTERM, hands the job back to the queue, and the next worker finishes it', async () => {
  const video = await createVideo(env.database.db, { priceCents: 1500, awsKey: 'videos/stopped-midway.mp4' });
  await createStorage(env.config).put(
    video.awsKey,
    createReadStream(await makeTestVideo({ seconds: 60, rate: '10' })),
    'video/mp4',
  );

  const first = await startWorker(env.env);
  started.push(first);
  const { jobId } = await producer.enqueue('process-video', { videoId: video.id, awsKey: video.awsKey });
  const queue = producer.queue('process-video');
  // Into the preview clip: ffmpeg is encoding.
  await expect
    .poll(async () => Number((await queue.getJob(jobId))?.progress ?? 0), { timeout: 60_000, interval: 100 })
    .toBeGreaterThanOrEqual(30);
  const ffmpeg = (await children(first.child.pid!)).filter((child) => child.command.startsWith('ff'));
  expect(ffmpeg).toHaveLength(1);

  expect(await first.stop('SIGTERM')).toBe(0);
  expect(running(ffmpeg[0]!.pid)).toBe(false);
  const job = (await queue.getJob(jobId))!;
  expect(await job.getState()).toBe('waiting');
  expect(job.attemptsMade).toBe(0);
  const [handedBack] = await env.database.db.select().from(videos).where(eq(videos.id, video.id));
  expect(handedBack).toMatchObject({ processingState: 'queued', media: null });
  const leftovers = path.join(tmp, 'stagelight-video', String(first.child.pid));
  expect(await readdir(leftovers)).toEqual([]);

  const second = await startWorker(env.env);
  started.push(second);
  await expect
    .poll(async () => (await queue.getJob(jobId))?.getState(), { timeout: 120_000 })
    .toBe('completed');
  const [finished] = await env.database.db.select().from(videos).where(eq(videos.id, video.id));
  expect(finished?.processingState).toBe('ready');
  // The stopped worker's folder was cleared by the next one to start.
  expect(await readdir(path.join(tmp, 'stagelight-video'))).toEqual([String(second.child.pid)]);
}, 240_000);
