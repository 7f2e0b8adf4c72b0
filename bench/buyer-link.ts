// The buyer's library must not tell which addresses have bought videos, in its answer or in its time
// (issue 16, decision 024). POST /api/my-videos/link for addresses with paid purchases and for
// addresses without, one request at a time in a shuffled order, each from its own loopback address
// (so no limit is reached), against the production-mode api with the worker sending the e-mails.
// `npm run bench -- buyer-link` or `node --import tsx bench/buyer-link.ts --requests=200`.
import http from 'node:http';
import pg from 'pg';
import { startApi, startWorker } from '../test/support/processes.ts';
import { numberFlags, prepareBenchEnv, printTable, verdict, workerIdle } from './lib.ts';

const { requests: PER_GROUP } = numberFlags({ requests: 400 });
/** The two groups' medians may differ by at most this much: below what a network path can show. */
const TARGET_MS = 0.5;

const env = await prepareBenchEnv('buyer-link');
const client = new pg.Client({ connectionString: env.DATABASE_URL });
await client.connect();
const [video] = (await client.query<{ id: string }>('select id from videos order by id limit 1')).rows;
const buyers = Array.from({ length: PER_GROUP }, (_, i) => `buyer-${i}@bench.example`);
const strangers = Array.from({ length: PER_GROUP }, (_, i) => `stranger-${i}@bench.example`);
await client.query(
  `insert into purchases (id, checkout_session_id, video_id, buyer_name, buyer_email, amount_cents, currency, status, paid_at)
   select gen_random_uuid()::text, 'cs_bench_' || n, $1, 'Bench', 'buyer-' || n || '@bench.example', 1500, 'nzd', 'paid', now()
   from generate_series(0, $2 - 1) n`,
  [video!.id, PER_GROUP],
);
// Other buyers, so the worker's lookups run against a table of some size.
await client.query(
  `insert into purchases (id, checkout_session_id, video_id, buyer_name, buyer_email, amount_cents, currency, status, paid_at)
   select gen_random_uuid()::text, 'cs_bench_other_' || n, $1, 'Bench', 'other-' || n || '@bench.example', 1500, 'nzd', 'paid', now()
   from generate_series(1, 20000) n`,
  [video!.id],
);
await client.end();

const api = await startApi(env);
const worker = await startWorker(env);
await workerIdle(env);
const agent = new http.Agent({ keepAlive: false });
const { port } = new URL(api.url);

function ask(email: string, index: number): Promise<{ ms: number; status: number; body: string }> {
  const body = JSON.stringify({ email });
  // 127.1.x.y: a fresh visitor for every request, so the per-visitor limit never answers instead.
  const localAddress = `127.1.${Math.floor(index / 250)}.${(index % 250) + 1}`;
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const request = http.request(
      {
        host: '127.0.0.1',
        port,
        path: '/api/my-videos/link',
        method: 'POST',
        agent,
        localAddress,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (response) => {
        let text = '';
        response.on('data', (chunk: Buffer) => (text += chunk.toString()));
        response.on('end', () =>
          resolve({ ms: performance.now() - started, status: response.statusCode ?? 0, body: text }),
        );
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

// Warm-up (JIT, pools), not counted.
for (let i = 0; i < 50; i++) await ask(`warm-${i}@bench.example`, 2 * PER_GROUP + i);

const order = [
  ...buyers.map((email) => ({ email, group: 'buyer' })),
  ...strangers.map((email) => ({ email, group: 'stranger' })),
];
for (let i = order.length - 1; i > 0; i--) {
  const j = Math.floor(Math.random() * (i + 1));
  [order[i], order[j]] = [order[j]!, order[i]!];
}
const times: Record<string, number[]> = { buyer: [], stranger: [] };
const answers = new Set<string>();
for (const [index, { email, group }] of order.entries()) {
  const { ms, status, body } = await ask(email, index);
  answers.add(`${status} ${body}`);
  times[group]!.push(ms);
}

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
};
const row = (group: string) => ({
  addresses: group,
  requests: times[group]!.length,
  'p50 ms': quantile(times[group]!, 0.5).toFixed(2),
  'p95 ms': quantile(times[group]!, 0.95).toFixed(2),
  'mean ms': (times[group]!.reduce((a, b) => a + b, 0) / times[group]!.length).toFixed(2),
});
printTable('POST /api/my-videos/link, one at a time, shuffled', [row('buyer'), row('stranger')]);
const difference = Math.abs(quantile(times.buyer!, 0.5) - quantile(times.stranger!, 0.5));
console.info(`Distinct answers: ${answers.size} (target 1: ${verdict(answers.size === 1)})`);
console.info(
  `Median difference: ${difference.toFixed(2)} ms (target ≤ ${TARGET_MS} ms: ${verdict(difference <= TARGET_MS)})`,
);

await worker.stop();
await api.stop();
