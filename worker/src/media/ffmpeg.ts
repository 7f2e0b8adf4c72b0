import { execFile, spawn } from 'node:child_process';
import { access, constants } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { setPriority } from 'node:os';
import { promisify } from 'node:util';
import type { Config } from '@app/shared/config';

const run = promisify(execFile);

export interface MediaBinary {
  path: string;
  /** The first line of `-version`, e.g. "ffmpeg version 5.1.6-0+deb12u1". */
  version: string;
  /** Where it came from: the FFMPEG_PATH/FFPROBE_PATH setting, the system, or an npm package. */
  source: 'config' | 'system' | 'npm';
}

export interface MediaBinaries {
  ffmpeg: MediaBinary;
  ffprobe: MediaBinary;
}

const executable = (file: string) =>
  access(file, constants.X_OK).then(
    () => true,
    () => false,
  );

async function describe(path: string, source: MediaBinary['source']): Promise<MediaBinary> {
  const { stdout } = await run(path, ['-version'], { timeout: 10_000 });
  return {
    path,
    version:
      stdout
        .split('\n')[0]
        ?.replace(/\s+Copyright.*$/, '')
        .trim() ?? 'unknown',
    source,
  };
}

/**
 * The configured binary, else Debian's (installed with apt like chromium), else the static build an npm
 * package ships (no download at run time: the package holds the file). Throws when none runs.
 */
async function find(
  name: 'ffmpeg' | 'ffprobe',
  configured: string | undefined,
  npmPackage: string,
): Promise<MediaBinary> {
  if (configured) return describe(configured, 'config');
  const system = `/usr/bin/${name}`;
  if (await executable(system)) return describe(system, 'system');
  const require = createRequire(import.meta.url);
  const { path } = require(npmPackage) as { path: string };
  return describe(path, 'npm');
}

export async function findMediaBinaries(config: Config): Promise<MediaBinaries> {
  const [ffmpeg, ffprobe] = await Promise.all([
    find('ffmpeg', config.FFMPEG_PATH, '@ffmpeg-installer/ffmpeg'),
    find('ffprobe', config.FFPROBE_PATH, '@ffprobe-installer/ffprobe'),
  ]);
  return { ffmpeg, ffprobe };
}

export class MediaCommandError extends Error {
  override name = 'MediaCommandError';
  constructor(
    message: string,
    readonly stderr: string,
    readonly reason: 'failed' | 'timeout' | 'aborted',
  ) {
    super(message);
  }
}

// Nice value for ffmpeg: requests and the other jobs on the machine come first.
const LOW_PRIORITY = 10;
const STDERR_KEPT = 8_000;

/**
 * Runs ffmpeg or ffprobe at low CPU priority. `onTime` hears the output position (seconds) from
 * `-progress pipe:1`; the child is killed on timeout or when `signal` aborts (the worker stopping).
 * Resolves with stdout.
 */
export function runMedia(
  binary: string,
  args: string[],
  options: { timeoutMs: number; signal: AbortSignal; onTime?: (seconds: number) => void },
): Promise<{ stdout: string }> {
  return new Promise((resolve, reject) => {
    if (options.signal.aborted) {
      reject(new MediaCommandError('stopped', '', 'aborted'));
      return;
    }
    const child = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      if (child.pid) setPriority(child.pid, LOW_PRIORITY);
    } catch {
      // Not allowed to renice (some containers): it runs at normal priority.
    }
    let stdout = '';
    let stderr = '';
    let ended: 'timeout' | 'aborted' | null = null;
    const stop = (why: 'timeout' | 'aborted') => {
      ended = why;
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), 2_000).unref();
    };
    const timer = setTimeout(() => stop('timeout'), options.timeoutMs);
    const onAbort = () => stop('aborted');
    options.signal.addEventListener('abort', onAbort, { once: true });

    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      if (!options.onTime) {
        stdout += chunk;
        return;
      }
      for (const match of chunk.matchAll(/^out_time_us=(\d+)/gm))
        options.onTime(Number(match[1]) / 1_000_000);
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(-STDERR_KEPT);
    });
    child.on('error', (error) => {
      clearTimeout(timer);
      options.signal.removeEventListener('abort', onAbort);
      reject(new MediaCommandError(`could not start ${binary}: ${error.message}`, '', 'failed'));
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      options.signal.removeEventListener('abort', onAbort);
      if (ended)
        reject(new MediaCommandError(ended === 'timeout' ? 'took too long' : 'stopped', stderr, ended));
      else if (code !== 0) reject(new MediaCommandError(`exited with code ${code}`, stderr, 'failed'));
      else resolve({ stdout });
    });
  });
}
