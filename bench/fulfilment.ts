// Bench 3, fulfilment latency: 200 purchases paid through signed webhooks on the production api and
// worker; time from the webhook being accepted to GET /api/purchases/{id} showing paid with a link.
import { eq } from 'drizzle-orm';
import { createDatabase, purchases, videos } from '@app/shared/db';
import { createProducer } from '@app/shared/queue';
import { createRedis } from '@app/shared/redis';
import { createStripe } from '@app/shared/stripe';
import { parseConfig } from '@app/shared/config';
import { startApi, startWorker } from '../test/support/processes.ts';
import { startFakeStripe } from '../test/support/fake-stripe.ts';
import { prepareBenchEnv, printTable, verdict } from './lib.ts';

const PURCHASES = 200;
const CONCURRENCY = 10;
// Paid one at a time first: the same pipeline on an otherwise idle machine, as the baseline.
const BASELINE_PURCHASES = 50;

const stripe = await startFakeStripe();
const env: Record<string, string> = {
  ...(await prepareBenchEnv('fulfilment')),
  STRIPE_SECRET_KEY: stripe.secretKey,
  STRIPE_WEBHOOK_SECRET: stripe.webhookSecret,
  STRIPE_API_URL: stripe.url,
};
const [api, worker] = await Promise.all([startApi(env), startWorker(env)]);
const { db, pool } = createDatabase(env.DATABASE_URL!, { max: 4 });
try {
  const [video] = await db.select().from(videos).where(eq(videos.title, 'Senior Contemporary Group'));
  if (!video) throw new Error('the seed has no paid sample video');
  const client = createStripe(parseConfig(env))!;
  const sessions: string[] = [];
  for (let index = 0; index < BASELINE_PURCHASES + PURCHASES; index++) {
    const [purchase] = await db
      .insert(purchases)
      .values({
        videoId: video.id,
        buyerName: `Bench ${index}`,
        buyerEmail: `bench${index}@example.nz`,
        amountCents: video.priceCents,
        currency: 'nzd',
      })
      .returning();
    const session = await client.checkout.sessions.create({
      mode: 'payment',
      line_items: [],
      metadata: { purchaseId: purchase!.id, videoId: video.id },
    });
    await db.update(purchases).set({ checkoutSessionId: session.id }).where(eq(purchases.id, purchase!.id));
    sessions.push(session.id);
  }

  /** Pays each session through a signed webhook; the ms from webhook accepted to paid with a link. */
  async function settle(sessionIds: string[], concurrency: number): Promise<number[]> {
    const latencies: number[] = [];
    const queue = [...sessionIds];
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        for (let sessionId = queue.shift(); sessionId; sessionId = queue.shift()) {
          const event = stripe.signedEvent('checkout.session.completed', stripe.pay(sessionId));
          const response = await fetch(`${api.url}/api/stripe/webhook`, {
            method: 'POST',
            headers: { 'Content-Type': 'application/json', 'Stripe-Signature': event.signature },
            body: event.body,
          });
          if (!response.ok) throw new Error(`webhook answered ${response.status}`);
          const accepted = performance.now();
          for (;;) {
            const status = (await (await fetch(`${api.url}/api/purchases/${sessionId}`)).json()) as {
              status: string;
              downloadUrl?: string;
            };
            if (status.status === 'paid' && status.downloadUrl) break;
            await new Promise((resolve) => setTimeout(resolve, 5));
          }
          latencies.push(performance.now() - accepted);
        }
      }),
    );
    return latencies;
  }
  const baseline = await settle(sessions.slice(0, BASELINE_PURCHASES), 1);
  const loaded = await settle(sessions.slice(BASELINE_PURCHASES), CONCURRENCY);

  // Where the time goes under load: the webhooks' record-sale jobs, queued → started → done.
  const redis = createRedis(env.REDIS_URL!, 'client');
  const producer = createProducer(redis, env.QUEUE_PREFIX!);
  const loadedSessions = new Set(sessions.slice(BASELINE_PURCHASES));
  const jobs = (await producer.queue('record-sale').getJobs(['completed'])).filter(
    (job) => job.id?.startsWith('stripe-') && loadedSessions.has(job.data.checkoutSessionId),
  );
  await producer.close();
  redis.disconnect();

  const percentile = (values: number[], fraction: number) => {
    const sorted = [...values].sort((a, b) => a - b);
    return Math.round(sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))]!);
  };
  const spread = (values: number[]) => `${percentile(values, 0.5)} / ${percentile(values, 0.95)}`;
  printTable(`Fulfilment: webhook accepted → purchase shows paid with a link (p95 target ≤ 100 ms)`, [
    {
      payments: `${BASELINE_PURCHASES}, one at a time (baseline)`,
      'p50 / p95 ms': spread(baseline),
      'max ms': percentile(baseline, 1),
    },
    {
      payments: `${PURCHASES}, ${CONCURRENCY} at a time`,
      'p50 / p95 ms': `${spread(loaded)} (${verdict(percentile(loaded, 0.95) <= 100)})`,
      'max ms': percentile(loaded, 1),
      'record-sale queued / run p50 ms': `${percentile(
        jobs.map((job) => job.processedOn! - job.timestamp),
        0.5,
      )} / ${percentile(
        jobs.map((job) => job.finishedOn! - job.processedOn!),
        0.5,
      )}`,
    },
  ]);
} finally {
  await pool.end();
  await Promise.all([api.stop(), worker.stop()]);
  await stripe.close();
}
