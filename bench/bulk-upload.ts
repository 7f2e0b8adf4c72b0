// Bench: one competition file through the bulk upload's S3 requests on the local driver (decision 033),
// with the connection dropped halfway through a part at 50 %, then resumed as Uppy does (list the
// stored parts, send the others, complete). Against a raw node:http server (its own process, the same
// parts in the same order, no disconnect) in the same run. Targets: bytes sent <= 1.1 x the file,
// throughput >= 60 % of the raw PUTs, the api's RSS <= 200 MB throughout.
//   npm run bench -- bulk-upload                       (2048 MB, 64 MB parts)
//   node --import tsx bench/bulk-upload.ts --mb 512    (smaller, while the machine is shared)
import { createReadStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { bulkPartSize } from '@app/shared/schemas';
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

const args = process.argv.slice(2);
const flag = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);

let bytesSent = 0;

/**
 * PUTs bytes [start, end) of `file`, counting what leaves; with `dropAfter`, the connection is cut once
 * that many bytes have gone (a venue's Wi-Fi), and the promise resolves with null.
 */
function put(
  url: string,
  file: string,
  start: number,
  end: number,
  headers: Record<string, string>,
  dropAfter?: number,
) {
  return new Promise<string | null>((resolve, reject) => {
    let sent = 0;
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
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        if (dropAfter !== undefined && sent + chunk.length > dropAfter) {
          const last = chunk.subarray(0, dropAfter - sent);
          sent += last.length;
          bytesSent += last.length;
          this.push(last);
          setImmediate(() => {
            request.destroy();
            resolve(null);
          });
          return done();
        }
        sent += chunk.length;
        bytesSent += chunk.length;
        done(null, chunk);
      },
    });
    request.on('error', (error) => (dropAfter === undefined ? reject(error) : resolve(null)));
    pipeline(createReadStream(file, { start, end: end - 1 }), counter, request).catch(() => {});
  });
}

const sizeMb = Number(flag('--mb') ?? 2048);
const size = sizeMb * MB;
const partSize = bulkPartSize(size);
const partCount = Math.ceil(size / partSize);
const env = await prepareBenchEnv('bulk-upload');
const { work, source, sourceHash } = await randomSourceFile('bench-bulk-upload-work', size);

// The raw baseline: bench/files.ts's server (PUT /part?offset=n writes the body at n).
const rawFile = path.join(work, 'raw.bin');
const { raw, rawPort } = await startRawServer(rawFile);

const api = await startApi(env);
const pid = api.child.pid!;
try {
  const login = await fetch(`${api.url}/api/admin/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: api.url },
    body: JSON.stringify({ password: BENCH_ADMIN_PASSWORD }),
  });
  const admin = { Cookie: (login.headers.get('set-cookie') ?? '').split(';')[0]!, Origin: api.url };
  const call = async (method: string, route: string, body?: string, type = 'application/json') => {
    const response = await fetch(route.startsWith('http') ? route : `${api.url}${route}`, {
      method,
      headers: { ...admin, ...(body !== undefined && { 'Content-Type': type }) },
      body,
    });
    if (!response.ok)
      throw new Error(`${method} ${route} answered ${response.status}: ${await response.text()}`);
    return response.text();
  };
  const post = async <T>(route: string, body: object) =>
    JSON.parse(await call('POST', route, JSON.stringify(body))) as T;

  const showcase = await post<{ id: string }>('/api/admin/showcases', {
    name: 'Bench Champs',
    description: 'bench',
  });
  const batch = await post<{ id: string }>(`/api/admin/showcases/${showcase.id}/upload-batches`, {});
  const files = `/api/admin/upload-batches/${batch.id}/files`;

  let peakRss = rssMb(pid);
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, rssMb(pid))), 100);

  // Raw first: the same parts in the same order, one connection each.
  let begun = performance.now();
  const rawCpu = cpuSeconds(raw.pid!);
  for (let start = 0; start < size; start += partSize)
    await put(
      `http://127.0.0.1:${rawPort}/part?offset=${start}`,
      source,
      start,
      Math.min(start + partSize, size),
      {},
    );
  const rawSeconds = (performance.now() - begun) / 1000;
  const rawCpuSeconds = cpuSeconds(raw.pid!) - rawCpu;
  bytesSent = 0;

  begun = performance.now();
  const apiCpu = cpuSeconds(pid);
  const file = await post<{ id: string; awsKey: string }>(files, {
    fileName: 'C0047.MP4',
    size,
    contentType: 'video/mp4',
  });
  const sign = (body: object) =>
    post<{ url: string }>(`${files}/${file.id}/sign`, body).then(({ url }) => url);
  const sendPart = async (partNumber: number, dropAfter?: number) => {
    const start = (partNumber - 1) * partSize;
    const url = await sign({ action: 'part', partNumber });
    return put(url, source, start, Math.min(start + partSize, size), admin, dropAfter);
  };
  // Up to the part holding the halfway byte, which is cut off in its middle.
  const halfway = Math.floor(size / 2 / partSize) + 1;
  for (let partNumber = 1; partNumber < halfway; partNumber++) await sendPart(partNumber);
  const dropped = await sendPart(halfway, Math.floor(partSize / 2));
  if (dropped !== null) throw new Error('the disconnect did not happen');

  // Resumed as Uppy does: the stored parts, then the others, then complete.
  const listing = await call('GET', await sign({ action: 'list' }));
  const stored = new Map(
    [...listing.matchAll(/<PartNumber>(\d+)<\/PartNumber><ETag>([^<]+)<\/ETag>/g)].map((m) => [
      Number(m[1]),
      m[2]!,
    ]),
  );
  for (let partNumber = 1; partNumber <= partCount; partNumber++)
    if (!stored.has(partNumber)) stored.set(partNumber, (await sendPart(partNumber))!);
  const xml = `<CompleteMultipartUpload>${[...stored]
    .sort(([a], [b]) => a - b)
    .map(([number, etag]) => `<Part><PartNumber>${number}</PartNumber><ETag>${etag}</ETag></Part>`)
    .join('')}</CompleteMultipartUpload>`;
  await call('POST', await sign({ action: 'complete' }), xml, 'application/xml');
  await post(`${files}/${file.id}/uploaded`, {});
  const apiSeconds = (performance.now() - begun) / 1000;
  const apiCpuSeconds = cpuSeconds(pid) - apiCpu;
  clearInterval(sampler);
  peakRss = Math.max(peakRss, rssMb(pid));

  const identical = (await sha256Of(path.resolve(root, env.STORAGE_DIR!, file.awsKey))) === sourceHash;
  const rate = (seconds: number) => Math.round(size / MB / seconds);
  const ratio = rawSeconds / apiSeconds;
  const perGb = (seconds: number) => (seconds / (size / 1024 / MB)).toFixed(2);
  printTable(`Bulk upload of ${sizeMb} MB in ${partCount} parts of ${partSize / MB} MB, dropped at 50 %`, [
    {
      'raw MB/s': rate(rawSeconds),
      'api MB/s (with the drop)': rate(apiSeconds),
      'api/raw': `${(ratio * 100).toFixed(0)} % (target ≥ 60 %: ${verdict(ratio >= 0.6)})`,
      'bytes sent / file': `${(bytesSent / size).toFixed(3)} (target ≤ 1.1: ${verdict(bytesSent / size <= 1.1)})`,
      'bytes identical': String(identical),
      'api peak RSS MB': `${peakRss} (target ≤ 200: ${verdict(peakRss <= 200)})`,
      // The server's CPU per GB received (the api's includes the resent half part and the requests).
      'CPU s/GB raw | api': `${perGb(rawCpuSeconds)} | ${perGb(apiCpuSeconds)}`,
    },
  ]);
} finally {
  await api.stop();
  raw.kill();
  await rm(work, { recursive: true, force: true });
  // The uploaded copy (a file as big as the source) is not kept between runs.
  await rm(path.resolve(root, env.STORAGE_DIR!), { recursive: true, force: true });
}
