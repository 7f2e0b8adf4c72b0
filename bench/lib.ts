// Shared by the benches: a fresh seeded database, the real api and worker in production mode, autocannon.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, readdirSync, readFileSync } from 'node:fs';
import { mkdir, open, rm } from 'node:fs/promises';
import { loadavg } from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import pg from 'pg';
import { hashPassword } from '@app/shared/password';
import { createProducer, createRedis, jobNames } from '@app/shared/queue';
import { CHECKOUT, databaseUrl, TEST_DATABASE_ADMIN_URL, TEST_REDIS_URL } from '../test/support/services.ts';

/** The bench's `--name N` flags, each a number with its default (a flag that is not a number reads NaN). */
export function numberFlags<K extends string>(defaults: Record<K, number>): Record<K, number> {
  const names = Object.keys(defaults) as K[];
  const { values } = parseArgs({
    options: Object.fromEntries(
      names.map((name) => [name, { type: 'string' as const, default: String(defaults[name]) }]),
    ),
  });
  return Object.fromEntries(names.map((name) => [name, Number(values[name])])) as Record<K, number>;
}

export const root = fileURLToPath(new URL('..', import.meta.url));
export const BENCH_ADMIN_PASSWORD = 'bench-admin-password';

// Figures are for the Node production runs (.node-version, decision 028). On this machine's own Node 20
// the api spent about twice the CPU a search, so a bench there would mislead (the api and worker it
// starts run on the same Node as the bench).
const productionNode = readFileSync(path.join(root, '.node-version'), 'utf8').trim();
if (process.versions.node !== productionNode) {
  console.error(
    `The benches measure Node ${productionNode} (.node-version), and this is Node ${process.versions.node}. ` +
      `Run them with PATH="$PWD/.cache/node/${productionNode}/bin:$PATH" (bash .ci/run installs it there).`,
  );
  process.exit(1);
}

/** Environment for a production-mode api/worker on its own freshly seeded database and queue prefix. */
export async function prepareBenchEnv(name: string): Promise<Record<string, string>> {
  // Named for the checkout too, as test databases are (decision 002): two people bench at once.
  const database = `stagelight_bench_${CHECKOUT}_${name}`;
  const admin = new pg.Client({ connectionString: TEST_DATABASE_ADMIN_URL });
  await admin.connect();
  await admin.query(`drop database if exists "${database}" with (force)`);
  await admin.query(`create database "${database}"`);
  await admin.end();
  const env: Record<string, string> = {
    NODE_ENV: 'production',
    DATABASE_URL: databaseUrl(database),
    REDIS_URL: TEST_REDIS_URL,
    QUEUE_PREFIX: `bench-${name}-${process.pid}`,
    SESSION_SECRET: 'bench-session-secret-0123456789abcdef',
    ADMIN_PASSWORD_HASH: await hashPassword(BENCH_ADMIN_PASSWORD),
    STORAGE_DIR: `data/bench-${name}`,
    // What production requires (shared/src/server/config.ts); mail is only logged.
    PUBLIC_URL: 'http://127.0.0.1',
    OWNER_EMAIL: 'owner@bench.example',
    PUBLIC_CONTACT_EMAIL: 'hello@bench.example',
    MAIL_DISABLED: 'true',
    LOG_LEVEL: 'warn',
  };
  // The api and worker run from their bundles (test/support/processes.ts), made afresh here.
  for (const script of [
    'scripts/build-server.mjs',
    'shared/src/server/db/migrate-cli.ts',
    'scripts/seed.ts',
  ]) {
    const result = spawnSync(process.execPath, ['--import', 'tsx', script], {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    if (result.status !== 0) throw new Error(`${script} failed`);
  }
  return env;
}

/**
 * Resolves once the worker has nothing to do (no job waiting, active or prioritized in any queue; the
 * cron jobs' next runs stay delayed) and says how long that took. The seed leaves demo videos to
 * encode: ffmpeg beside a measurement would make it a measure of the encoding.
 */
export async function workerIdle(env: Record<string, string>, timeoutMs = 180_000): Promise<number> {
  const redis = createRedis(env.REDIS_URL!, 'client');
  const producer = createProducer(redis, env.QUEUE_PREFIX!);
  const started = performance.now();
  try {
    for (let quiet = 0; quiet < 3;) {
      const counts = await Promise.all(
        jobNames.map((name) => producer.queue(name).getJobCountByTypes('waiting', 'active', 'prioritized')),
      );
      quiet = counts.every((count) => count === 0) ? quiet + 1 : 0;
      if (performance.now() - started > timeoutMs) throw new Error('The worker did not go idle');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    return (performance.now() - started) / 1000;
  } finally {
    await producer.close();
    redis.disconnect();
  }
}

export interface LoadResult {
  requestsPerSecond: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
}

/** autocannon with the anchor settings: 50 connections on loopback. */
export async function load(
  url: string,
  options: { seconds?: number; headers?: Record<string, string> } = {},
): Promise<LoadResult> {
  const result = await autocannon({
    url,
    connections: 50,
    duration: options.seconds ?? 5,
    headers: options.headers,
  });
  return {
    requestsPerSecond: Math.round(result.requests.average),
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

/** Peak resident memory of a process so far (VmHWM), in MB. */
export function peakRssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return Math.round(kb / 1024);
}

export function verdict(ok: boolean): string {
  return ok ? 'meets target' : 'MISSES target';
}

export function printTable(title: string, rows: Array<Record<string, string | number>>): void {
  console.info(`\n${title}`);
  console.table(rows);
}

/** Runs `task` from `concurrency` loops for `seconds`: completions per second and the 95th percentile. */
export async function timedLoop(
  seconds: number,
  concurrency: number,
  task: (index: number) => Promise<void>,
) {
  const until = performance.now() + seconds * 1000;
  const times: number[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < until) {
        const start = performance.now();
        await task(next++);
        times.push(performance.now() - start);
      }
    }),
  );
  times.sort((a, b) => a - b);
  return { perSecond: times.length / seconds, p95: times[Math.floor(times.length * 0.95)] ?? 0 };
}

/**
 * Starts `task` at an even `rate` a second for `seconds`, whether or not earlier ones have finished
 * (an open loop, as visitors arrive): the 95th percentile at a given load, where a closed loop of N
 * connections only measures N divided by throughput. autocannon's `overallRate` sends in bursts, so
 * its latencies are the bursts' queues.
 */
export async function atRate(rate: number, seconds: number, task: (index: number) => Promise<void>) {
  const times: number[] = [];
  const running: Array<Promise<void>> = [];
  const start = performance.now();
  for (let index = 0; index < rate * seconds; index++) {
    const wait = start + (index * 1000) / rate - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const begun = performance.now();
    running.push(task(index).then(() => void times.push(performance.now() - begun)));
  }
  await Promise.all(running);
  times.sort((a, b) => a - b);
  return { p95: times[Math.floor(times.length * 0.95)] ?? 0 };
}

export const MB = 1024 * 1024;

/** Resident memory of a process now (VmRSS), in MB. */
export function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024);
}

/**
 * CPU seconds a process has used so far (user + system, all its threads: the disk writes of libuv's
 * pool too). On a shared machine the CPU a transfer costs is steadier than its wall time.
 */
export function cpuSeconds(pid: number): number {
  // The fields after the command name, which is in parentheses and may hold spaces.
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  // utime and stime (fields 14 and 15 of the whole line), in clock ticks of 1/100 s on Linux.
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** CPU seconds used so far by every process whose name starts with `name` (PostgreSQL's backends, Redis). */
export function cpuSecondsOfAll(name: string): number {
  let total = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').startsWith(name)) total += cpuSeconds(Number(entry));
    } catch {
      // The process ended between the listing and the read.
    }
  }
  return total;
}

/**
 * Where a run's CPU goes, per request: the api (when given), PostgreSQL, Redis and this bench process
 * (autocannon, or a raw pool's client). Every one of them shares this machine's cores, so a request
 * the load generator makes costly is one the api cannot answer. `const done = cpuPerRequest(pid)`
 * before the run, `done(requests)` after it: µs a request, rounded.
 */
export function cpuPerRequest(apiPid?: number) {
  const read = () => {
    const own = process.cpuUsage();
    return {
      api: apiPid === undefined ? 0 : cpuSeconds(apiPid),
      postgres: cpuSecondsOfAll('postgres'),
      redis: cpuSecondsOfAll('redis-server'),
      bench: (own.user + own.system) / 1e6,
    };
  };
  const before = read();
  return (requests: number) => {
    const after = read();
    const perRequest = (key: keyof typeof before) =>
      Math.round(((after[key] - before[key]) / Math.max(requests, 1)) * 1e6);
    return {
      api: perRequest('api'),
      postgres: perRequest('postgres'),
      redis: perRequest('redis'),
      bench: perRequest('bench'),
    };
  };
}

export async function sha256Of(file: string): Promise<string> {
  const digest = createHash('sha256');
  await pipeline(createReadStream(file), digest);
  return digest.digest('hex');
}

/**
 * A file bench's working folder (emptied) with `source.bin` of `size` random bytes, made in 16 MB
 * blocks (never the whole file in memory), and its SHA-256.
 */
export async function randomSourceFile(name: string, size: number) {
  const work = path.join(root, 'data', name);
  await rm(work, { recursive: true, force: true });
  await mkdir(work, { recursive: true });
  const source = path.join(work, 'source.bin');
  await pipeline(
    (async function* () {
      for (let written = 0; written < size; written += 16 * MB)
        yield randomBytes(Math.min(16 * MB, size - written));
    })(),
    createWriteStream(source),
  );
  return { work, source, sourceHash: await sha256Of(source) };
}

/**
 * The raw baseline for uploads: bench/files.ts's plain node:http server in its own process
 * (PUT /part?offset=n writes the body at n into `rawFile`, created empty here).
 */
export async function startRawServer(rawFile: string): Promise<{ raw: ChildProcess; rawPort: number }> {
  await (await open(rawFile, 'w')).close();
  const raw = spawn(process.execPath, ['--import', 'tsx', 'bench/files.ts', '--raw-server', rawFile], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const rawPort = await new Promise<number>((resolve) =>
    raw.stdout!.once('data', (chunk: Buffer) => resolve(Number(String(chunk).trim()))),
  );
  return { raw, rawPort };
}

/** The servers' peak resident memory against the 200 MB budget, and the machine's load as the run ends. */
export function printFootprint(apiPid: number, workerPid: number) {
  const apiRss = peakRssMb(apiPid);
  const workerRss = peakRssMb(workerPid);
  console.info(
    `Peak RSS: api ${apiRss} MB, worker ${workerRss} MB (≤ 200 MB: ${verdict(apiRss <= 200 && workerRss <= 200)})`,
  );
  console.info(
    `Load average at the end (1, 5, 15 min): ${loadavg()
      .map((load) => load.toFixed(2))
      .join(', ')}`,
  );
}
