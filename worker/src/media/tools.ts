import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Config } from '@app/shared/config';
import type { Logger } from '@app/shared/logger';
import { findMediaBinaries, type MediaBinaries } from './ffmpeg.ts';

/** What the process-video job needs from the worker process: binaries, a temp folder, a stop signal. */
export interface VideoTools {
  /**
   * Finds ffmpeg and ffprobe (once) and empties the temp folders of processes that no longer run.
   * Resolves with the binaries, or null when none runs here (`unavailable` then says why).
   */
  prepare(): Promise<MediaBinaries | null>;
  unavailable(): string | null;
  /** A fresh folder for one job's files, under this process's own folder. */
  makeTempDir(): Promise<string>;
  /** Aborted when the worker stops: running ffmpeg children are killed and their jobs go back to the queue. */
  signal: AbortSignal;
  stop(): void;
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * Temp files live under `<VIDEO_TMP_DIR>/stagelight-video/<pid>/`: a crashed or killed worker's folder
 * is removed by the next worker to start on the machine; those of other running workers are left alone.
 */
export function createVideoTools(config: Config, logger: Logger): VideoTools {
  const root = path.join(path.resolve(config.VIDEO_TMP_DIR ?? tmpdir()), 'stagelight-video');
  const own = path.join(root, String(process.pid));
  let unavailable: string | null = null;
  let prepared: Promise<MediaBinaries | null> | undefined;

  async function prepare(): Promise<MediaBinaries | null> {
    await mkdir(root, { recursive: true });
    for (const entry of await readdir(root)) {
      const pid = Number(entry);
      if (!Number.isInteger(pid) || pid === process.pid || !alive(pid))
        await rm(path.join(root, entry), { recursive: true, force: true });
    }
    await mkdir(own, { recursive: true });
    try {
      const binaries = await findMediaBinaries(config);
      logger.info(
        { ffmpeg: binaries.ffmpeg, ffprobe: binaries.ffprobe },
        `video processing with ${binaries.ffmpeg.version} (${binaries.ffmpeg.path})`,
      );
      return binaries;
    } catch (error) {
      unavailable = `ffmpeg could not be found or run: ${(error as Error).message}`;
      logger.error({ err: error }, 'video processing unavailable: no ffmpeg');
      return null;
    }
  }

  const controller = new AbortController();
  const tools: VideoTools = {
    prepare: () => (prepared ??= prepare()),
    unavailable: () => unavailable,
    async makeTempDir() {
      await tools.prepare();
      return mkdtemp(path.join(own, 'job-'));
    },
    signal: controller.signal,
    stop: () => controller.abort(),
  };
  return tools;
}
