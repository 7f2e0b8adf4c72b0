// Load shedding (issue 14): 400 connections from one address flood GET /api/purchases/<unknown> and
// then POST /api/contacts, while a second address reads /api/events at 10 connections. The flood
// runs in its own process (autocannon's CLI) so the reader's latencies are not its event loop's. A bare
// node:http server answering 429 to the same flood first gives this run's ceiling.
// `npm run bench -- flood` or `node --import tsx bench/flood.ts --seconds=5` for a short run.
import { spawn } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startApi } from '../test/support/processes.ts';
import { numberFlags, peakRssMb, prepareBenchEnv, printTable, root, verdict } from './lib.ts';

const { seconds: SECONDS } = numberFlags({ seconds: 15 });
const FLOOD_CONNECTIONS = 400;
const READER_CONNECTIONS = 10;
/** The reader's own loopback address: another visitor as far as the api can tell. */
const READER_ADDRESS = '127.0.0.2';

interface FloodResult {
  responsesPerSecond: number;
  tooMany: number;
  serverErrors: number;
  errors: number;
}

/** autocannon in a child process; its JSON summary on stdout. */
function flood(url: string, options: { method?: string; body?: string } = {}): Promise<FloodResult> {
  const args = [
    'node_modules/autocannon/autocannon.js',
    '-c',
    String(FLOOD_CONNECTIONS),
    '-d',
    String(SECONDS),
    '-j',
  ];
  if (options.method) args.push('-m', options.method);
  if (options.body) args.push('-b', options.body, '-H', 'content-type=application/json');
  const child = spawn(process.execPath, [...args, url], { cwd: root, stdio: ['ignore', 'pipe', 'ignore'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve, reject) =>
    child.on('exit', () => {
      try {
        const result = JSON.parse(output) as {
          requests: { average: number };
          statusCodeStats?: Record<string, { count: number }>;
          '5xx': number;
          errors: number;
        };
        resolve({
          responsesPerSecond: Math.round(result.requests.average),
          tooMany: result.statusCodeStats?.['429']?.count ?? 0,
          serverErrors: result['5xx'],
          errors: result.errors,
        });
      } catch (error) {
        reject(new Error(`autocannon printed no summary: ${(error as Error).message}`));
      }
    }),
  );
}

/** Closed-loop reads from READER_ADDRESS until `stop` resolves; latencies and failures. */
async function read(url: string, stop: Promise<void>) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: READER_CONNECTIONS });
  const latencies: number[] = [];
  let failures = 0;
  let stopped = false;
  void stop.then(() => (stopped = true));
  const once = () =>
    new Promise<void>((resolve) => {
      const started = performance.now();
      http
        .get(url, { agent, localAddress: READER_ADDRESS }, (response) => {
          response.resume();
          response.on('end', () => {
            if (response.statusCode !== 200) failures++;
            latencies.push(performance.now() - started);
            resolve();
          });
        })
        .on('error', () => {
          failures++;
          resolve();
        });
    });
  await Promise.all(
    Array.from({ length: READER_CONNECTIONS }, async () => {
      while (!stopped) await once();
    }),
  );
  agent.destroy();
  latencies.sort((a, b) => a - b);
  return {
    requestsPerSecond: Math.round(latencies.length / SECONDS),
    p99Ms: Math.round(latencies[Math.floor(latencies.length * 0.99)] ?? 0),
    failures,
  };
}

const env = await prepareBenchEnv('flood');
const api = await startApi(env);
const rows: Array<Record<string, string | number>> = [];
try {
  const contact = JSON.stringify({
    firstName: 'Flood',
    lastName: 'Bench',
    email: 'flood@example.nz',
    eventType: 'other',
    message: 'A message from the flood bench.',
  });
  const targets = [
    { route: 'GET /api/purchases/<unknown>', url: `${api.url}/api/purchases/cs_flood_unknown`, options: {} },
    {
      route: 'POST /api/contacts',
      url: `${api.url}/api/contacts`,
      options: { method: 'POST', body: contact },
    },
  ];
  // The machine's ceiling in this run: a bare node:http server answering every request with a 429.
  const raw = http.createServer((_req, res) => {
    res
      .writeHead(429, { 'Content-Type': 'application/json', 'Retry-After': '5' })
      .end('{"message":"Too many"}');
  });
  await new Promise<void>((resolve) => raw.listen(0, '127.0.0.1', resolve));
  const rawResult = await flood(`http://127.0.0.1:${(raw.address() as AddressInfo).port}/api/purchases/x`);
  raw.close();

  // The reader's list is kept in memory after its first read, as on a live site.
  await read(`${api.url}/api/events`, new Promise((resolve) => setTimeout(resolve, 1_000)));
  for (const target of targets) {
    const flooding = flood(target.url, target.options);
    const reading = read(
      `${api.url}/api/events`,
      flooding.then(() => undefined),
    );
    const [floodResult, reader] = await Promise.all([flooding, reading]);
    const rss = peakRssMb(api.child.pid!);
    const ok =
      floodResult.responsesPerSecond >= 5_000 &&
      floodResult.tooMany > 0 &&
      floodResult.serverErrors === 0 &&
      reader.failures === 0 &&
      reader.p99Ms <= 250 &&
      rss <= 250;
    rows.push({
      flood: target.route,
      'flood responses/s': floodResult.responsesPerSecond,
      'raw 429/s': rawResult.responsesPerSecond,
      'api/raw': `${Math.round((floodResult.responsesPerSecond / rawResult.responsesPerSecond) * 100)} %`,
      '429s': floodResult.tooMany,
      '5xx': floodResult.serverErrors,
      'reader req/s': reader.requestsPerSecond,
      'reader p99 ms': reader.p99Ms,
      'reader errors': reader.failures,
      'api peak RSS MB': rss,
      'target (≥ 5,000/s, 0 5xx, reader 0 errors and p99 ≤ 250 ms, RSS ≤ 250 MB)': verdict(ok),
    });
  }
  printTable(`Flood from one address, ${SECONDS} s each, ${FLOOD_CONNECTIONS} connections`, rows);
} finally {
  await api.stop();
}
