// Bench 3, fulfilment latency: 200 carts of 5 videos paid through signed webhooks on the production api
// and worker; time from the webhook being accepted to GET /api/purchases/{id} showing the purchase paid
// with a download link for every one of its 5 videos and its tax invoice numbered (decision 029).
// The target is read at a steady rate of payments; the same 200 paid 10 at a time, each buyer paying
// again as soon as the last sale shows, keep both cores busy and measure capacity (decision 012).
// Each phase also reports the api's and the worker's CPU per payment, counted until the jobs a payment
// leaves behind (receipt e-mail, Stripe fee) are done: steadier than latency on a shared machine.
import { eq } from 'drizzle-orm';
import { createDatabase, purchases, taxDocuments, videos } from '@app/shared/db';
import { writePurchase } from '@app/shared/sales';
import { createProducer } from '@app/shared/queue';
import { createRedis } from '@app/shared/redis';
import { createStripe } from '@app/shared/stripe';
import { parseConfig } from '@app/shared/config';
import { startApi, startWorker } from '../test/support/processes.ts';
import { startFakeStripe } from '../test/support/fake-stripe.ts';
import { cpuSeconds, numberFlags, prepareBenchEnv, printTable, verdict, workerIdle } from './lib.ts';

const PURCHASES = 200;
/**
 * Videos in each cart (issue 16: a dancer's routines of one competition); `--items=1` measures the
 * one-video purchase on the same machine, for comparison.
 */
const CART_SIZE = Math.max(1, Math.min(50, numberFlags({ items: 5 }).items || 5));
/** 90,000 payments an hour: far beyond the shop's busiest night, below this machine's capacity. */
const PAYMENTS_PER_SECOND = 25;
const CONCURRENCY = 10;
// Paid one at a time first: the same pipeline on an otherwise idle machine, as the baseline.
const BASELINE_PURCHASES = 50;
/** The success page's own long poll (web/src/pages/shop/purchase-success.tsx). */
const WAIT_SECONDS = 20;

const stripe = await startFakeStripe();
const env: Record<string, string> = {
  ...(await prepareBenchEnv('fulfilment')),
  STRIPE_SECRET_KEY: stripe.secretKey,
  STRIPE_WEBHOOK_SECRET: stripe.webhookSecret,
  STRIPE_API_URL: stripe.url,
  // Each buyer is its own visitor (the limits are per address), named as a proxy would name it.
  TRUST_PROXY: 'loopback',
  // Registered: every payment issues a numbered tax invoice in its fulfilment's transaction.
  GST_REGISTERED: 'true',
  GST_NUMBER: '49-091-850',
};
const redis = createRedis(env.REDIS_URL!, 'client');
const producer = createProducer(redis, env.QUEUE_PREFIX!);
// The seed queues its demo videos' processing (posters, clips, adaptive streams): a few minutes of
// ffmpeg on this machine's two cores, which would run beside every phase below. Payments are what is
// measured here, so that work is dropped before the worker starts.
await Promise.all(
  (['process-video', 'make-video-stream'] as const).map((name) => producer.queue(name).drain(true)),
);
const [api, worker] = await Promise.all([startApi(env), startWorker(env)]);
await workerIdle(env);
const { db, pool } = createDatabase(env.DATABASE_URL!, { max: 4 });
try {
  const [template] = await db.select().from(videos).where(eq(videos.title, 'Senior Contemporary Group'));
  if (!template) throw new Error('the seed has no paid sample video');
  // A dancer's routines of one competition, each its own video (the seed has too few paid ones).
  const cart = await db
    .insert(videos)
    .values(
      Array.from({ length: CART_SIZE }, (_, index) => ({
        title: `Bench Routine ${index + 1}`,
        description: template.description,
        awsKey: template.awsKey,
        showcaseId: template.showcaseId,
        priceCents: 1500 + index * 100,
      })),
    )
    .returning();
  const totalCents = cart.reduce((sum, video) => sum + video.priceCents, 0);
  const client = createStripe(parseConfig(env))!;
  const sessions: string[] = [];
  for (let index = 0; index < BASELINE_PURCHASES + 2 * PURCHASES; index++) {
    // Written as POST /api/cart/checkout writes a cart: the purchase, then an item per video.
    const purchase = await writePurchase(
      db,
      {
        buyerName: `Bench ${index}`,
        buyerEmail: `bench${index}@example.nz`,
        amountCents: totalCents,
        currency: 'nzd',
      },
      cart.map((video) => ({
        videoId: video.id,
        bundleShowcaseId: null,
        title: video.title,
        priceCents: video.priceCents,
      })),
    );
    const session = await client.checkout.sessions.create({
      mode: 'payment',
      line_items: cart.map((video) => ({
        quantity: 1,
        price_data: { currency: 'nzd', unit_amount: video.priceCents, product_data: { name: video.title } },
      })),
      metadata: { purchaseId: purchase.id },
    });
    await db.update(purchases).set({ checkoutSessionId: session.id }).where(eq(purchases.id, purchase.id));
    sessions.push(session.id);
  }

  /** Pays a session through a signed webhook; the ms from webhook accepted to every item paid with a link. */
  async function pay(sessionId: string): Promise<number> {
    const event = stripe.signedEvent('checkout.session.completed', stripe.pay(sessionId));
    const response = await fetch(`${api.url}/api/stripe/webhook`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Stripe-Signature': event.signature },
      body: event.body,
    });
    if (!response.ok) throw new Error(`webhook answered ${response.status}`);
    const accepted = performance.now();
    // As the success page asks: each request is answered the moment the sale is recorded.
    for (;;) {
      const buyer = sessions.indexOf(sessionId) + 1;
      const response = await fetch(`${api.url}/api/purchases/${sessionId}?wait=${WAIT_SECONDS}`, {
        headers: { 'X-Forwarded-For': `10.1.${buyer >> 8}.${buyer & 255}` },
      });
      const status = (await response.json()) as {
        status: string;
        items: Array<{ downloadUrl?: string }>;
        documents?: unknown[];
      };
      if (
        status.status === 'paid' &&
        status.items.length === CART_SIZE &&
        status.items.every((item) => item.downloadUrl) &&
        status.documents?.length === 1
      )
        return performance.now() - accepted;
    }
  }

  /** `concurrency` buyers paying one after another, each as soon as the previous sale shows. */
  async function settle(sessionIds: string[], concurrency: number): Promise<number[]> {
    const latencies: number[] = [];
    const queue = [...sessionIds];
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        for (let sessionId = queue.shift(); sessionId; sessionId = queue.shift()) {
          latencies.push(await pay(sessionId));
        }
      }),
    );
    return latencies;
  }

  /** Payments arriving at a steady rate, whether or not earlier ones have settled. */
  async function settleAtRate(sessionIds: string[], perSecond: number): Promise<number[]> {
    const start = performance.now();
    return Promise.all(
      sessionIds.map(async (sessionId, index) => {
        await new Promise((resolve) =>
          setTimeout(resolve, start + (index * 1_000) / perSecond - performance.now()),
        );
        return pay(sessionId);
      }),
    );
  }

  /** Until the jobs a payment leaves behind (its receipt e-mail, reading Stripe's fee) are done. */
  async function drained() {
    for (const deadline = Date.now() + 30_000; Date.now() < deadline;) {
      const counts = await Promise.all(
        (['purchase-receipt', 'read-payment-fee'] as const).map((name) =>
          producer.queue(name).getJobCountByTypes('waiting', 'active', 'delayed', 'prioritized'),
        ),
      );
      if (counts.every((count) => count === 0)) return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
  /** Where the machine's time goes: each server's CPU per payment, including what a payment leaves behind. */
  const cpu = () => ({
    api: cpuSeconds(api.child.pid!) * 1_000,
    worker: cpuSeconds(worker.child.pid!) * 1_000,
  });
  const timed = async (sessionIds: string[], run: () => Promise<number[]>) => {
    const before = cpu();
    const started = performance.now();
    const latencies = await run();
    const seconds = (performance.now() - started) / 1_000;
    await drained();
    const after = cpu();
    const perPayment = (ms: number) => Math.round((10 * ms) / sessionIds.length) / 10;
    return {
      sessionIds: new Set(sessionIds),
      latencies,
      seconds,
      cpu: { api: perPayment(after.api - before.api), worker: perPayment(after.worker - before.worker) },
    };
  };
  const baselineIds = sessions.slice(0, BASELINE_PURCHASES);
  const steadyIds = sessions.slice(BASELINE_PURCHASES, BASELINE_PURCHASES + PURCHASES);
  const saturatedIds = sessions.slice(BASELINE_PURCHASES + PURCHASES);
  const baseline = await timed(baselineIds, () => settle(baselineIds, 1));
  const steady = await timed(steadyIds, () => settleAtRate(steadyIds, PAYMENTS_PER_SECOND));
  const saturated = await timed(saturatedIds, () => settle(saturatedIds, CONCURRENCY));

  // Where the time goes: the webhooks' record-sale jobs, queued → started → done.
  const webhookJobs = (await producer.queue('record-sale').getJobs(['completed'])).filter((job) =>
    job.id?.startsWith('stripe-'),
  );

  const percentile = (values: number[], fraction: number) => {
    const sorted = [...values].sort((a, b) => a - b);
    return Math.round(sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))]!);
  };
  const row = (payments: string, phase: Awaited<ReturnType<typeof timed>>, target = false) => {
    const jobs = webhookJobs.filter((job) => phase.sessionIds.has(job.data.checkoutSessionId));
    const p95 = percentile(phase.latencies, 0.95);
    return {
      payments,
      'p50 / p95 ms': `${percentile(phase.latencies, 0.5)} / ${p95}${target ? ` (${verdict(p95 <= 100)})` : ''}`,
      'max ms': percentile(phase.latencies, 1),
      'paid per s': Math.round(phase.latencies.length / phase.seconds),
      'record-sale queued / run p50 ms': `${percentile(
        jobs.map((job) => job.processedOn! - job.timestamp),
        0.5,
      )} / ${percentile(
        jobs.map((job) => job.finishedOn! - job.processedOn!),
        0.5,
      )}`,
      'CPU ms per payment api / worker': `${phase.cpu.api} / ${phase.cpu.worker}`,
    };
  };
  // Every payment numbered once, in one unbroken run (two record-sale workers would share one row lock).
  const numbers = (await db.select({ number: taxDocuments.number }).from(taxDocuments))
    .map((document) => document.number)
    .sort((a, b) => a - b);
  const gapFree = numbers.every((number, index) => number === index + 1);
  console.log(
    `Documents: ${numbers.length} for ${sessions.length} payments, numbered 1-${numbers.at(-1) ?? 0} ${verdict(
      gapFree && numbers.length === sessions.length,
    )} (gap-free, none repeated)`,
  );
  printTable(
    `Fulfilment, ${CART_SIZE}-video carts: webhook accepted → every item paid with a link and its invoice numbered (p95 target ≤ 100 ms)`,
    [
      row(`${BASELINE_PURCHASES}, one at a time (baseline)`, baseline),
      row(`${PURCHASES}, ${PAYMENTS_PER_SECOND} arriving per s (target)`, steady, true),
      row(`${PURCHASES}, ${CONCURRENCY} buyers back to back (capacity)`, saturated),
    ],
  );
} finally {
  await producer.close();
  await pool.end();
  await Promise.all([api.stop(), worker.stop()]);
  // The run's queues (its own prefix, about 2,000 keys) are of no use once it is over.
  for (let cursor = '0'; ;) {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${env.QUEUE_PREFIX}:*`, 'COUNT', 1_000);
    if (keys.length > 0) await redis.unlink(...keys);
    cursor = next;
    if (cursor === '0') break;
  }
  redis.disconnect();
  await stripe.close();
}
