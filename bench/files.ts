// Bench: big files through the api on the local storage driver. A multipart upload (16 MB parts,
// one after another as the admin page sends them) and 8 concurrent downloads of the result, each
// against a raw node:http server (its own process) doing the same disk I/O, in the same run; bytes
// checked, and the api's resident memory sampled during and after.
//   npm run bench -- files                       (1024 MB)
//   node --import tsx bench/files.ts --mb 256    (smaller, while the machine is shared)
import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { parseConfig } from '@app/shared/config';
import { createStorage } from '@app/shared/storage';
import { startApi } from '../test/support/processes.ts';
import {
  BENCH_ADMIN_PASSWORD,
  cpuSeconds,
  MB,
  prepareBenchEnv,
  printTable,
  randomSourceFile,
  root,
  rssMb,
  sha256Of,
  startRawServer,
  verdict,
} from './lib.ts';

const DOWNLOADS = 8;
const args = process.argv.slice(2);
const flag = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);

/** The raw baseline: PUT /<part>?offset=<n> writes the body at that offset; GET streams the file. */
function rawServer(file: string): void {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://raw');
    if (req.method === 'PUT') {
      const target = createWriteStream(file, { flags: 'r+', start: Number(url.searchParams.get('offset')) });
      pipeline(req, target).then(
        () => res.writeHead(200, { ETag: `"${randomUUID()}"` }).end(),
        () => res.destroy(),
      );
      return;
    }
    stat(file).then((info) => {
      res.writeHead(200, { 'Content-Type': 'video/mp4', 'Content-Length': info.size });
      createReadStream(file).pipe(res);
    });
  });
  server.listen(0, '127.0.0.1', () => console.info((server.address() as AddressInfo).port));
}

if (args[0] === '--raw-server') {
  rawServer(args[1]!);
} else {
  await main();
}

/** Samples a process's resident memory every 100 ms; `stop()` returns the highest seen. */
function sampleRss(pid: number) {
  let peak = rssMb(pid);
  const timer = setInterval(() => (peak = Math.max(peak, rssMb(pid))), 100);
  return () => {
    clearInterval(timer);
    return Math.max(peak, rssMb(pid));
  };
}

function put(url: string, file: string, start: number, end: number, headers: Record<string, string>) {
  return new Promise<string>((resolve, reject) => {
    const request = http.request(
      url,
      { method: 'PUT', headers: { ...headers, 'Content-Type': 'video/mp4', 'Content-Length': end - start } },
      (response) => {
        response.resume();
        response.on('end', () =>
          response.statusCode === 200
            ? resolve(String(response.headers.etag))
            : reject(new Error(`PUT ${url} answered ${response.statusCode}`)),
        );
      },
    );
    request.on('error', reject);
    createReadStream(file, { start, end: end - 1 }).pipe(request);
  });
}

/** Downloads `url`, counting bytes (and hashing them when asked). */
function download(url: string, hash = false) {
  return new Promise<{ bytes: number; sha256?: string }>((resolve, reject) => {
    http
      .get(url, (response) => {
        if (response.statusCode !== 200) reject(new Error(`GET ${url} answered ${response.statusCode}`));
        const digest = hash ? createHash('sha256') : undefined;
        let bytes = 0;
        response.on('data', (chunk: Buffer) => {
          bytes += chunk.length;
          digest?.update(chunk);
        });
        response.on('end', () => resolve({ bytes, sha256: digest?.digest('hex') }));
        response.on('error', reject);
      })
      .on('error', reject);
  });
}

async function main(): Promise<void> {
  const sizeMb = Number(flag('--mb') ?? 1024);
  const size = sizeMb * MB;
  const env = await prepareBenchEnv('files');
  const { work, source, sourceHash } = await randomSourceFile('bench-files-work', size);

  const rawFile = path.join(work, 'raw.bin');
  const { raw, rawPort } = await startRawServer(rawFile);
  const rawUrl = `http://127.0.0.1:${rawPort}`;

  const api = await startApi(env);
  const pid = api.child.pid!;
  try {
    const login = await fetch(`${api.url}/api/admin/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: api.url },
      body: JSON.stringify({ password: BENCH_ADMIN_PASSWORD }),
    });
    const admin = { Cookie: (login.headers.get('set-cookie') ?? '').split(';')[0]!, Origin: api.url };
    const post = async (route: string, body: object) => {
      const response = await fetch(`${api.url}${route}`, {
        method: 'POST',
        headers: { ...admin, 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
      if (!response.ok) throw new Error(`${route} answered ${response.status}: ${await response.text()}`);
      return response.json() as Promise<Record<string, unknown>>;
    };
    const idleBefore = rssMb(pid);

    // Uploads, alternating api and raw, best of two each (the machine is shared): the same parts in
    // the same order, as the admin page sends them. The api plans, takes the parts, completes.
    const uploadToApi = async () => {
      const begun = performance.now();
      const plan = (await post('/api/admin/videos/upload-url', {
        fileName: 'bench.mp4',
        contentType: 'video/mp4',
        size,
      })) as {
        awsKey: string;
        uploadId: string;
        partSize: number;
        parts: Array<{ partNumber: number; url: string }>;
      };
      const parts = [];
      for (const part of plan.parts) {
        const start = (part.partNumber - 1) * plan.partSize;
        const etag = await put(part.url, source, start, Math.min(start + plan.partSize, size), admin);
        parts.push({ partNumber: part.partNumber, etag });
      }
      await post('/api/admin/videos/upload-complete', {
        awsKey: plan.awsKey,
        uploadId: plan.uploadId,
        parts,
      });
      return { seconds: (performance.now() - begun) / 1000, awsKey: plan.awsKey, partSize: plan.partSize };
    };
    const uploadToRaw = async (partSize: number) => {
      const begun = performance.now();
      for (let start = 0; start < size; start += partSize)
        await put(`${rawUrl}/part?offset=${start}`, source, start, Math.min(start + partSize, size), {});
      return (performance.now() - begun) / 1000;
    };
    const stopUploadRss = sampleRss(pid);
    const rawUploads: number[] = [];
    const apiUploads: Array<Awaited<ReturnType<typeof uploadToApi>>> = [];
    // CPU seconds each server spent on its uploads (all rounds), steadier than the wall time.
    let apiUploadCpu = 0;
    let rawUploadCpu = 0;
    for (let round = 0; round < 2; round++) {
      let cpu = cpuSeconds(pid);
      const upload = await uploadToApi();
      apiUploadCpu += cpuSeconds(pid) - cpu;
      apiUploads.push(upload);
      cpu = cpuSeconds(raw.pid!);
      rawUploads.push(await uploadToRaw(upload.partSize));
      rawUploadCpu += cpuSeconds(raw.pid!) - cpu;
    }
    const plan = apiUploads[1]!;
    const partCount = Math.ceil(size / plan.partSize);
    const rawUploadS = Math.min(...rawUploads);
    const apiUploadS = Math.min(...apiUploads.map((upload) => upload.seconds));
    const uploadRss = stopUploadRss();
    const stored = path.resolve(root, env.STORAGE_DIR!, plan.awsKey);
    const uploadIdentical =
      (await sha256Of(stored)) === sourceHash && (await sha256Of(rawFile)) === sourceHash;

    // Downloads: 8 at once from each, bytes counted; one more through the api, hashed, untimed.
    // The signed link a buyer's download gets (the api's /api/files route).
    const storage = createStorage(parseConfig({ ...env, PUBLIC_URL: api.url }));
    const downloadUrl = await storage.signedDownloadUrl(plan.awsKey, { expiresInSeconds: 3600 });
    const all = async (url: string) => {
      const begun = performance.now();
      const results = await Promise.all(Array.from({ length: DOWNLOADS }, () => download(url)));
      if (results.some((result) => result.bytes !== size))
        throw new Error(`a download from ${url} was short`);
      return (performance.now() - begun) / 1000;
    };
    // Alternating, best of two each: the machine is shared, and its speed swings between runs.
    const rawRuns: number[] = [];
    const apiRuns: number[] = [];
    const stopDownloadRss = sampleRss(pid);
    for (let round = 0; round < 2; round++) {
      rawRuns.push(await all(`${rawUrl}/file`));
      apiRuns.push(await all(downloadUrl));
    }
    const downloadRss = stopDownloadRss();
    const rawDownloadS = Math.min(...rawRuns);
    const apiDownloadS = Math.min(...apiRuns);
    const downloadIdentical = (await download(downloadUrl, true)).sha256 === sourceHash;

    // Afterwards: how soon the api is back under 160 MB (at most a minute).
    const settled = performance.now();
    let idleAfter = rssMb(pid);
    while (idleAfter >= 160 && performance.now() - settled < 60_000) {
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      idleAfter = rssMb(pid);
    }
    const settledS = (performance.now() - settled) / 1000;

    const rate = (bytes: number, seconds: number) => Math.round(bytes / MB / seconds);
    const perGb = (seconds: number) => (seconds / ((2 * size) / 1024 / MB)).toFixed(2);
    const rows = [
      {
        transfer: `upload ${sizeMb} MB (${partCount} parts of ${plan.partSize / MB} MB) + complete (best of 2)`,
        'raw MB/s': rate(size, rawUploadS),
        'api MB/s': rate(size, apiUploadS),
        'api/raw': `${((rawUploadS / apiUploadS) * 100).toFixed(0)} % (target ≥ 60 %: ${verdict(rawUploadS / apiUploadS >= 0.6)})`,
        'bytes identical': String(uploadIdentical),
        'api peak RSS MB': `${uploadRss} (target ≤ 200: ${verdict(uploadRss <= 200)})`,
        'CPU s/GB raw | api': `${perGb(rawUploadCpu)} | ${perGb(apiUploadCpu)}`,
      },
      {
        transfer: `${DOWNLOADS} concurrent downloads of ${sizeMb} MB (best of 2)`,
        'raw MB/s': rate(DOWNLOADS * size, rawDownloadS),
        'api MB/s': rate(DOWNLOADS * size, apiDownloadS),
        'api/raw': `${((rawDownloadS / apiDownloadS) * 100).toFixed(0)} % (target ≥ 60 %: ${verdict(rawDownloadS / apiDownloadS >= 0.6)})`,
        'bytes identical': String(downloadIdentical),
        'api peak RSS MB': `${downloadRss} (target ≤ 200: ${verdict(downloadRss <= 200)})`,
        'CPU s/GB raw | api': '',
      },
    ];
    printTable('Big files through the api (local storage) against raw node:http, same run', rows);
    console.info(
      `api RSS: ${idleBefore} MB idle before; ${idleAfter} MB ${settledS.toFixed(0)} s after the transfers (target < 160 MB within 60 s: ${verdict(idleAfter < 160)})`,
    );
  } finally {
    await api.stop();
    raw.kill();
    await rm(work, { recursive: true, force: true });
    await rm(path.resolve(root, env.STORAGE_DIR!), { recursive: true, force: true });
  }
}
