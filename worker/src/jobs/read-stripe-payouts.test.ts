import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { stripePayouts } from '@app/shared/db';
import { useTestWorld } from '../../../test/support/world.ts';
import { schedulesFor } from '../schedules.ts';
import { PAYOUTS_FIRST_READ_DAYS, PAYOUTS_REREAD_DAYS, readStripePayouts } from './read-stripe-payouts.ts';

const { env, stripe, context } = useTestWorld({ stripe: true, context: true });

/** The UTC calendar day `days` from today (a payout's arrival_date is that day's midnight UTC). */
const day = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

describe('read-stripe-payouts', () => {
  it('stores every page of payouts by arrival date, then reads the recent ones again for their status', async () => {
    // 120 payouts over the last 120 days: more than Stripe's page of 100.
    const daily = Array.from({ length: 120 }, (_, index) =>
      stripe.payout({ amount: 10_000 + index, arrival: day(-index - 1), status: 'paid' }),
    );
    const coming = stripe.payout({ amount: 55_500, arrival: day(2) });
    const ancient = stripe.payout({
      amount: 999,
      arrival: day(-PAYOUTS_FIRST_READ_DAYS - 5),
      status: 'paid',
    });

    expect(await readStripePayouts({}, context)).toMatchObject({
      status: 'done',
      payouts: 121,
      days: PAYOUTS_FIRST_READ_DAYS,
    });
    // Two pages (newest first: the coming one, then the daily ones from the latest made), both
    // asking for arrivals from the same day on.
    expect(stripe.payoutLists).toHaveLength(2);
    expect(stripe.payoutLists[1]!.get('starting_after')).toBe(daily[21]!.id);
    expect(stripe.payoutLists[1]!.get('arrival_date[gte]')).toBe(
      stripe.payoutLists[0]!.get('arrival_date[gte]'),
    );
    const since = Number(stripe.payoutLists[0]!.get('arrival_date[gte]'));
    expect(Math.abs(since - (Date.now() / 1000 - PAYOUTS_FIRST_READ_DAYS * 86_400))).toBeLessThan(60);

    const { db } = env.database;
    expect(await db.$count(stripePayouts)).toBe(121);
    expect(await db.$count(stripePayouts, eq(stripePayouts.id, ancient.id))).toBe(0);
    const [stored] = await db.select().from(stripePayouts).where(eq(stripePayouts.id, coming.id));
    // Midnight UTC is midday in New Zealand: the same calendar day.
    expect(stored).toMatchObject({
      amountCents: 55_500,
      currency: 'nzd',
      status: 'pending',
      arrivalOn: day(2),
    });

    // The coming one is paid; one from long ago was sent back by the bank (outside the re-read window).
    coming.status = 'paid';
    daily[100]!.status = 'failed';
    expect(await readStripePayouts({}, context)).toMatchObject({ status: 'done', days: PAYOUTS_REREAD_DAYS });
    const [paid] = await db.select().from(stripePayouts).where(eq(stripePayouts.id, coming.id));
    expect(paid!.status).toBe('paid');
    expect(paid!.readAt.getTime()).toBeGreaterThan(stored!.readAt.getTime());
    const [old] = await db.select().from(stripePayouts).where(eq(stripePayouts.id, daily[100]!.id));
    expect(old!.status).toBe('paid');
    expect(await db.$count(stripePayouts)).toBe(121);
  });

  it('does nothing without a Stripe key, and runs hourly', async () => {
    expect(await readStripePayouts({}, { ...context, stripe: null })).toMatchObject({ status: 'skipped' });
    expect(schedulesFor(env.config)).toContainEqual(
      expect.objectContaining({ id: 'read-stripe-payouts', job: 'read-stripe-payouts', every: 3600_000 }),
    );
  });
});
