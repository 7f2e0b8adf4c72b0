// Bench: adaptive-stream segments served by the api (decision 031). One 2 s segment as a 10 Mbit/s 1080p
// copy makes it (about 2.5 MB) in local storage, fetched over and over by 20 connections for 10 s: through the
// api (the segment token's HMAC and expiry, the folder check, the storage read) and from a raw node:http
// server in its own process streaming the same bytes. Target: the api at ≥ 60 % of raw (MB/s), RSS flat.
//   node --import tsx bench/segments.ts
import { randomBytes, randomUUID } from 'node:crypto';
import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import autocannon from 'autocannon';
import { parseConfig } from '@app/shared/config';
import { createStorage } from '@app/shared/storage';
import { issueSegmentToken } from '../api/src/features/video-streaming/stream-tokens.ts';
import { startApi } from '../test/support/processes.ts';
import { MB, prepareBenchEnv, printTable, root, rssMb, startRawServer, verdict } from './lib.ts';

const SEGMENT_BYTES = Math.round(2.5 * MB);
const CONNECTIONS = 20;
const SECONDS = 10;

const env = await prepareBenchEnv('segments');
const segment = randomBytes(SEGMENT_BYTES);
const digest = randomUUID().replaceAll('-', '').slice(0, 24);
const work = path.join(root, 'data', `bench-segments-raw-${process.pid}`);
const { raw, rawPort } = await startRawServer(work);
await writeFile(work, segment);
const api = await startApi(env);
try {
  const storage = createStorage(parseConfig({ ...env, PUBLIC_URL: api.url }));
  await storage.put(`streams/${digest}/1080p/seg00001.m4s`, segment, 'video/iso.segment');
  const videoId = randomUUID();

  const run = async (url: string) => {
    const result = await autocannon({ url, connections: CONNECTIONS, duration: SECONDS });
    if (result.non2xx > 0 || result.errors > 0)
      throw new Error(`${url}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
    return { mbPerSecond: result.throughput.average / MB, p99: result.latency.p99 };
  };
  const idle = rssMb(api.child.pid!);
  // Raw first and last, the api between: a machine that slows down during the run shows in the two raws.
  const rawBefore = await run(`http://127.0.0.1:${rawPort}/seg00001.m4s`);
  // A token lives a minute (SEGMENT_TOKEN_SECONDS): one per run, as a player refreshes it.
  const token = issueSegmentToken(env.SESSION_SECRET!, { videoId, grantId: 'bench', digest }, Date.now());
  let peak = idle;
  const sampler = setInterval(() => (peak = Math.max(peak, rssMb(api.child.pid!))), 100);
  const viaApi = await run(
    `${api.url}/api/hls/${videoId}/1080p/seg00001.m4s?t=${encodeURIComponent(token)}`,
  ).finally(() => clearInterval(sampler));
  const rawAfter = await run(`http://127.0.0.1:${rawPort}/seg00001.m4s`);
  const rawMb = (rawBefore.mbPerSecond + rawAfter.mbPerSecond) / 2;
  const ratio = viaApi.mbPerSecond / rawMb;
  printTable(
    `HLS segments of ${(SEGMENT_BYTES / MB).toFixed(1)} MB, ${CONNECTIONS} connections for ${SECONDS} s`,
    [
      {
        'raw MB/s (before, after)': `${rawMb.toFixed(0)} (${rawBefore.mbPerSecond.toFixed(0)}, ${rawAfter.mbPerSecond.toFixed(0)})`,
        'api MB/s': viaApi.mbPerSecond.toFixed(0),
        'api/raw': `${Math.round(ratio * 100)} % (≥ 60 %: ${verdict(ratio >= 0.6)})`,
        'p99 ms raw / api': `${rawBefore.p99} / ${viaApi.p99}`,
        'api RSS MB idle / peak': `${idle} / ${peak} (≤ 200: ${verdict(peak <= 200)})`,
      },
    ],
  );
} finally {
  await api.stop();
  raw.kill();
  await rm(work, { force: true });
}
