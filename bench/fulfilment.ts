// Bench 3, fulfilment latency: 200 purchases paid through signed webhooks on the production api and
// worker; time from the webhook being accepted to GET /api/purchases/{id} showing paid with a link.
import { eq } from 'drizzle-orm';
import { createDatabase, purchases, videos } from '@app/shared/db';
import { createStripe } from '@app/shared/stripe';
import { parseConfig } from '@app/shared/config';
import { startApi, startWorker } from '../test/support/processes.ts';
import { startFakeStripe } from '../test/support/fake-stripe.ts';
import { prepareBenchEnv, printTable, verdict } from './lib.ts';

const PURCHASES = 200;
const CONCURRENCY = 10;

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
  for (let index = 0; index < PURCHASES; index++) {
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

  const latencies: number[] = [];
  async function settle(sessionId: string) {
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
  const queue = [...sessions];
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      for (let next = queue.shift(); next; next = queue.shift()) await settle(next);
    }),
  );

  latencies.sort((a, b) => a - b);
  const at = (fraction: number) =>
    Math.round(latencies[Math.min(latencies.length - 1, Math.floor(fraction * latencies.length))]!);
  printTable(
    `Fulfilment: ${PURCHASES} purchases, ${CONCURRENCY} at a time, webhook accepted → purchase shows paid`,
    [
      {
        'p50 ms': at(0.5),
        'p95 ms': `${at(0.95)} (target ≤ 100: ${verdict(at(0.95) <= 100)})`,
        'max ms': at(1),
      },
    ],
  );
} finally {
  await pool.end();
  await Promise.all([api.stop(), worker.stop()]);
  await stripe.close();
}
