// Bench 1, public reads: autocannon on the public lists served by the production api, against a raw
// node:http server answering the same bytes, alternating in the same run so both see the same machine.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startApi } from '../test/support/processes.ts';
import { load, type LoadResult, peakRssMb, prepareBenchEnv, printTable, verdict } from './lib.ts';

function conditionalStatus(url: string, etag: string): Promise<number> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { 'If-None-Match': etag } }, (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      })
      .on('error', reject);
  });
}

const ROUNDS = 2;
const SECONDS = 5;
const paths = ['/api/videos', '/api/portfolio', '/api/events'];

const env = await prepareBenchEnv('api');
const api = await startApi(env);
const rows: Array<Record<string, string | number>> = [];
try {
  for (const path of paths) {
    const response = await fetch(`${api.url}${path}`);
    const body = Buffer.from(await response.arrayBuffer());
    const etag = response.headers.get('etag');
    // node:http, not fetch: fetch marks a request with If-None-Match as a forced reload (Cache-Control: no-cache).
    const revalidated = etag ? await conditionalStatus(`${api.url}${path}`, etag) : 'no ETag';

    const raw = http.createServer((_req, res) => {
      res.writeHead(200, {
        'Content-Type': 'application/json; charset=utf-8',
        'Content-Length': body.length,
      });
      res.end(body);
    });
    await new Promise<void>((resolve) => raw.listen(0, '127.0.0.1', resolve));
    const rawUrl = `http://127.0.0.1:${(raw.address() as AddressInfo).port}${path}`;

    const rawRuns: LoadResult[] = [];
    const apiRuns: LoadResult[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      rawRuns.push(await load(rawUrl, { seconds: SECONDS }));
      apiRuns.push(await load(`${api.url}${path}`, { seconds: SECONDS }));
    }
    raw.close();
    const best = (runs: typeof rawRuns) =>
      runs.reduce((a, b) => (b.requestsPerSecond > a.requestsPerSecond ? b : a));
    const rawBest = best(rawRuns);
    const apiBest = best(apiRuns);
    const ratio = apiBest.requestsPerSecond / rawBest.requestsPerSecond;
    rows.push({
      path,
      bytes: body.length,
      'raw req/s': rawBest.requestsPerSecond,
      'api req/s': apiBest.requestsPerSecond,
      'api/raw': `${(ratio * 100).toFixed(1)} % (target ≥ 25 %: ${verdict(ratio >= 0.25)})`,
      'api p99 ms': `${apiBest.p99Ms} (target ≤ 20: ${verdict(apiBest.p99Ms <= 20)})`,
      'non-2xx': apiBest.non2xx,
      'If-None-Match': String(revalidated),
    });
  }
  printTable(`Public reads (50 connections, best of ${ROUNDS} × ${SECONDS} s, alternating raw/api)`, rows);
  console.info(`api peak RSS: ${peakRssMb(api.child.pid!)} MB (target ≤ 200 MB)`);
} finally {
  await api.stop();
}
