// Bench: the video library at a season's scale (issue 15). A production build on a catalogue of
// --videos routines (50,000): Lighthouse (mobile, median of --runs) on /videos, a showcase page and a
// search page with each page's HTML size and DOM count; search throughput through the api against the
// same queries run straight on a pg pool of the api's size (the database's own ceiling); showcase
// page 2..N reads against raw node:http answering the same bytes; api and worker peak RSS. Search is
// measured twice: as visitors ask (first pages of a search are kept, decision 020) and read afresh
// each time, which is what the api adds to the database's own work.
//   node --import tsx bench/catalogue.ts [--videos 50000] [--runs 5] [--seconds 5]
import { spawnSync } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import { gzipSync } from 'node:zlib';
import autocannon from 'autocannon';
import { createDatabase } from '@app/shared/db';
import { purposeKey } from '@app/shared/signing';
import { listVideos } from '../api/src/features/videos/library.service.ts';
import { startApi, startWorker } from '../test/support/processes.ts';
import {
  load,
  numberFlags,
  prepareBenchEnv,
  printFootprint,
  printTable,
  root,
  timedLoop,
  verdict,
  workerIdle,
} from './lib.ts';
import { launchChrome, medianRun } from './lighthouse-runs.ts';

const { videos: VIDEOS, runs: RUNS, seconds: SECONDS } = numberFlags({ videos: 50_000, runs: 5, seconds: 5 });
const CONNECTIONS = 50;
/** What parents type: styles, sections, ages, studios, places, a few misspellings and routine numbers. */
const TERMS = [
  'jazz',
  'tap',
  'ballet',
  'contemporary',
  'lyrical',
  'hip hop',
  'musical theatre',
  'acro',
  'character',
  'neoclassical',
  'solo',
  'duo',
  'trio',
  'group',
  'troupe',
  'junior',
  'senior',
  'intermediate',
  'under 8',
  'under 10',
  'open age',
  'junior solo jazz',
  'senior group ballet',
  'under 10 duo tap',
  'arabesque academy',
  'centre stage',
  'pointe perfect',
  'southern lights',
  'tui dance',
  'kowhai',
  'rhythm nation',
  'studio 51',
  'encore',
  'mana movement',
  'christchurch',
  'auckland',
  'wellington',
  'dunedin festival',
  'nelson',
  'balet',
  'contmporary',
  'lyricl',
  'hiphop',
  'routine 214',
  'routine 12 jazz',
  'jaz',
  'bal',
  'senior solo lyrical',
  'eisteddfod',
  'recital 2026',
];

const env = await prepareBenchEnv('catalogue');
// The searches read afresh come from many addresses, as parents' phones do (X-Forwarded-For from
// loopback): one address may make 30 api requests a second (load shedding, issue 14).
env.TRUST_PROXY = 'loopback';
const started = performance.now();
const seeded = spawnSync(
  process.execPath,
  ['--import', 'tsx', 'scripts/seed.ts', '--videos', String(VIDEOS)],
  {
    cwd: root,
    env: { ...process.env, ...env },
    encoding: 'utf8',
  },
);
if (seeded.status !== 0) throw new Error(`seed failed: ${seeded.stderr}`);
console.info(
  `Seeded the catalogue in ${((performance.now() - started) / 1000).toFixed(1)} s (load average ${loadavg()[0]!.toFixed(2)}): ${seeded.stdout.trim()}`,
);

// One after the other: on a busy machine two cold starts at once can miss their start deadline.
const api = await startApi(env);
const worker = await startWorker(env);
await workerIdle(env);
const showcases = (await (await fetch(`${api.url}/api/showcases`)).json()) as Array<{
  slug: string;
  videoCount: number;
}>;
const largest = showcases.reduce((a, b) => (b.videoCount > a.videoCount ? b : a));
const pages = ['/videos', `/videos/${largest.slug}`, '/videos?q=junior%20jazz'];

try {
  // Page weight and Lighthouse.
  const chrome = await launchChrome();
  const pageRows: Array<Record<string, string | number>> = [];
  try {
    for (const page of pages) {
      const html = Buffer.from(await (await fetch(`${api.url}${page}`)).arrayBuffer());
      const gzipKb = gzipSync(html).length / 1024;
      const { lhr, scores } = await medianRun(chrome.port, `${api.url}${page}`, RUNS);
      const score = (id: string) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
      const audit = (id: string) => lhr.audits[id]?.numericValue ?? 0;
      const dom = audit('dom-size');
      pageRows.push({
        page: page.replace(largest.slug, '<largest showcase>'),
        performance: `${score('performance')} (≥ 95: ${verdict(score('performance') >= 95)}; runs ${Math.min(...scores)}-${Math.max(...scores)})`,
        accessibility: `${score('accessibility')} (${verdict(score('accessibility') === 100)})`,
        seo: `${score('seo')} (${verdict(score('seo') === 100)})`,
        'LCP s': `${(audit('largest-contentful-paint') / 1000).toFixed(2)} (≤ 2.0: ${verdict(audit('largest-contentful-paint') <= 2000)})`,
        'TBT ms': `${Math.round(audit('total-blocking-time'))} (≤ 150: ${verdict(audit('total-blocking-time') <= 150)})`,
        'HTML KB gzip': `${gzipKb.toFixed(1)} (≤ 60: ${verdict(gzipKb <= 60)})`,
        'DOM elements': `${dom} (≤ 1,500: ${verdict(dom <= 1500)})`,
      });
    }
  } finally {
    chrome.kill();
  }
  printTable(`Library pages at ${VIDEOS} videos: Lighthouse mobile, median of ${RUNS} runs`, pageRows);

  // Search: the api against the same queries on a pg pool of the api's size, in the same run.
  const database = createDatabase(env.DATABASE_URL!, { max: 20 });
  const key = purposeKey(env.SESSION_SECRET!, 'video-list-cursor');
  const direct = await timedLoop(SECONDS, CONNECTIONS, async (index) => {
    await listVideos(database.db, key, { q: TERMS[index % TERMS.length], limit: 100 });
  });
  await database.pool.end();
  // The first pages of these searches are kept as visitors fill them (decision 020); filled first,
  // as the showcase pages below are, so the run measures a popular search rather than its first read.
  for (const term of TERMS) await fetch(`${api.url}/api/videos?q=${encodeURIComponent(term)}`);
  const searched = await autocannon({
    url: api.url,
    connections: CONNECTIONS,
    duration: SECONDS,
    requests: TERMS.map((term) => ({
      method: 'GET' as const,
      path: `/api/videos?q=${encodeURIComponent(term)}`,
    })),
  });
  // A parameter the list does not know is never kept, so each of these is read from PostgreSQL.
  const afresh = await autocannon({
    url: api.url,
    connections: CONNECTIONS,
    duration: SECONDS,
    requests: TERMS.flatMap((term, t) =>
      Array.from({ length: 20 }, (_, k) => ({
        method: 'GET' as const,
        path: `/api/videos?q=${encodeURIComponent(term)}&afresh=${k}`,
        headers: { 'X-Forwarded-For': `10.0.${t}.${k + 1}` },
      })),
    ),
  });
  const searchRow = (label: string, result: autocannon.Result) => {
    const ratio = result.requests.average / direct.perSecond;
    return {
      requests: label,
      'api req/s': Math.round(result.requests.average),
      // autocannon reports p90 and p97.5, not p95: p95 lies between them.
      'api p90-p97.5 ms': `${result.latency.p90}-${result.latency.p97_5} (target p95 ≤ 30: ${verdict(result.latency.p97_5 <= 30)})`,
      'pg pool queries/s': Math.round(direct.perSecond),
      'pg pool p95 ms': direct.p95.toFixed(1),
      'api/pg': `${(ratio * 100).toFixed(1)} % (target ≥ 60 %: ${verdict(ratio >= 0.6)})`,
      'non-2xx': result.non2xx,
    };
  };
  printTable(
    `Search: GET /api/videos?q= over ${TERMS.length} terms, ${CONNECTIONS} connections, ${SECONDS} s`,
    [searchRow('as asked (first pages kept)', searched), searchRow('read afresh each time', afresh)],
  );

  // Showcase pages 2..N against raw node:http answering one page's bytes.
  const pageCount = Math.ceil(largest.videoCount / 24);
  const paths = Array.from(
    { length: pageCount - 1 },
    (_, index) => `/api/showcases/${largest.slug}/videos?page=${index + 2}`,
  );
  for (const path of paths) await fetch(`${api.url}${path}`); // fills the kept copies, as visitors would
  const body = Buffer.from(await (await fetch(`${api.url}${paths[0]}`)).arrayBuffer());
  const raw = http.createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': body.length });
    res.end(body);
  });
  await new Promise<void>((resolve) => raw.listen(0, '127.0.0.1', resolve));
  const rawResult = await load(`http://127.0.0.1:${(raw.address() as AddressInfo).port}${paths[0]}`, {
    seconds: SECONDS,
  });
  raw.close();
  const pageResult = await autocannon({
    url: api.url,
    connections: CONNECTIONS,
    duration: SECONDS,
    requests: paths.map((path) => ({ method: 'GET' as const, path })),
  });
  const pageRatio = pageResult.requests.average / rawResult.requestsPerSecond;
  printTable(
    `Showcase page reads: pages 2..${pageCount} of the largest showcase (${largest.videoCount} videos)`,
    [
      {
        'raw req/s': rawResult.requestsPerSecond,
        'api req/s': Math.round(pageResult.requests.average),
        'api/raw': `${(pageRatio * 100).toFixed(1)} % (target ≥ 50 %: ${verdict(pageRatio >= 0.5)})`,
        'api p99 ms': pageResult.latency.p99,
        'non-2xx': pageResult.non2xx,
      },
    ],
  );

  printFootprint(api.child.pid!, worker.child.pid!);
} finally {
  await Promise.all([api.stop(), worker.stop()]);
}
