// Drill 1: the worker is SIGKILLed while it runs a backlog of 1,000 count-stat and 50 record-sale
// jobs; a new worker takes over. Every job ends completed, the counters are exact and every payment
// has exactly one sale: nothing lost, nothing doubled.
import { eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { purchaseItems, purchases, sales, videos, videoStatEvents } from '@app/shared/db';
import { createStripe } from '@app/shared/stripe';
import { createProducer, createRedis, type Producer } from '@app/shared/queue';
import { createTestEnv, type TestEnv } from '../support/test-env.ts';
import { startWorker, type RunningProcess } from '../support/processes.ts';
import { createPurchase, createVideo } from '../support/factories.ts';
import { startFakeStripe, type FakeStripe } from '../support/fake-stripe.ts';

let env: TestEnv;
let producer: Producer;
let redis: ReturnType<typeof createRedis>;
let stripe: FakeStripe;
const started: RunningProcess[] = [];

beforeAll(async () => {
  // A short lock, so the killed worker's active jobs are found stalled and retried within the test.
  stripe = await startFakeStripe();
  env = await createTestEnv({
    JOB_LOCK_MS: '2000',
    STRIPE_SECRET_KEY: stripe.secretKey,
    STRIPE_WEBHOOK_SECRET: stripe.webhookSecret,
    STRIPE_API_URL: stripe.url,
  });
  redis = createRedis(env.config.REDIS_URL, 'client');
  producer = createProducer(redis, env.config.QUEUE_PREFIX);
});
afterAll(async () => {
  await Promise.all(started.map((process) => process.stop('SIGKILL')));
  await producer?.close();
  redis?.disconnect();
  await env?.cleanup();
  await stripe?.close();
});

describe('a worker killed mid-run', () => {
  it(
    'leaves every job completed and every counter exact once another worker takes over',
    { timeout: 90_000 },
    async () => {
      const clips = await Promise.all([createVideo(env.database.db), createVideo(env.database.db)]);
      const events = await env.database.db
        .insert(videoStatEvents)
        .values(
          Array.from({ length: 1_000 }, (_, index) => ({
            videoId: clips[index % 2]!.id,
            kind: index % 3 === 0 ? ('download' as const) : ('view' as const),
          })),
        )
        .returning({ id: videoStatEvents.id });
      // 50 paid Checkout Sessions whose record-sale jobs wait in the same backlog.
      const paidVideo = await createVideo(env.database.db, { priceCents: 1500 });
      const client = createStripe(env.config)!;
      const sessions: string[] = [];
      for (let index = 0; index < 50; index++) {
        const purchase = await createPurchase(env.database.db, {
          videoId: paidVideo.id,
          checkoutSessionId: null,
          buyerName: `B${index}`,
          buyerEmail: `b${index}@example.nz`,
          amountCents: 1500,
        });
        const session = await client.checkout.sessions.create({
          mode: 'payment',
          line_items: [],
          metadata: { purchaseId: purchase.id, videoId: paidVideo.id },
        });
        await env.database.db
          .update(purchases)
          .set({ checkoutSessionId: session.id })
          .where(eq(purchases.id, purchase.id));
        stripe.pay(session.id);
        sessions.push(session.id);
      }
      for (const [index, sessionId] of sessions.entries()) {
        await producer.enqueue('record-sale', {
          kind: 'checkout',
          checkoutSessionId: sessionId,
          eventId: `evt_drill_${index}`,
        });
      }
      const saleQueue = producer.queue('record-sale');

      const queue = producer.queue('count-video-stat');
      await queue.addBulk(
        events.map(({ id }) => ({
          name: 'count-video-stat',
          data: { eventId: id },
          opts: { jobId: `stat-${id}`, attempts: 10 },
        })),
      );

      const doomed = await startWorker(env.env);
      started.push(doomed);
      await expect
        .poll(() => queue.getCompletedCount(), { timeout: 20_000, interval: 10 })
        .toBeGreaterThan(0);
      await doomed.stop('SIGKILL');
      // The kill really landed mid-backlog.
      expect(await queue.getCompletedCount()).toBeLessThan(events.length);

      const successor = await startWorker(env.env);
      started.push(successor);
      const unfinished = async () => {
        const counts = await queue.getJobCounts('waiting', 'active', 'prioritized', 'failed');
        return Object.values(counts).reduce((sum, count) => sum + count, 0);
      };
      await expect.poll(unfinished, { timeout: 60_000, interval: 200 }).toBe(0);
      await expect
        .poll(
          async () => {
            const counts = await saleQueue.getJobCounts(
              'waiting',
              'active',
              'delayed',
              'prioritized',
              'failed',
            );
            return Object.values(counts).reduce((sum, count) => sum + count, 0);
          },
          { timeout: 60_000, interval: 200 },
        )
        .toBe(0);
      const settled = await env.database.db
        .select()
        .from(purchases)
        .innerJoin(purchaseItems, eq(purchaseItems.purchaseId, purchases.id))
        .where(eq(purchaseItems.videoId, paidVideo.id))
        .then((rows) => rows.map((row) => row.purchases));
      expect(settled.filter((purchase) => purchase.status !== 'paid')).toEqual([]);
      expect(await env.database.db.$count(sales, eq(sales.videoId, paidVideo.id))).toBe(50);

      const rows = await Promise.all(
        clips.map((clip) => env.database.db.select().from(videos).where(eq(videos.id, clip.id))),
      );
      const totals = rows.map(([row]) => ({ views: row!.views, downloads: row!.downloads }));
      const expected = clips.map((_, clipIndex) => {
        const mine = events.map((_e, index) => index).filter((index) => index % 2 === clipIndex);
        const downloads = mine.filter((index) => index % 3 === 0).length;
        return { views: mine.length - downloads, downloads };
      });
      expect(totals).toEqual(expected);
      expect(await env.database.db.$count(videoStatEvents, isNull(videoStatEvents.appliedAt))).toBe(0);
    },
  );
});
