import { sql } from 'drizzle-orm';
import { stripePayouts } from '@app/shared/db';
import { nzCalendarDay } from '@app/shared/gst';
import type { JobHandler } from '../context.ts';

const DAY_SECONDS = 86_400;
/**
 * Payouts arriving from this many days ago on are read again each run: a payout goes pending →
 * in_transit → paid within days, and the bank may send one back (failed) a few days after.
 */
export const PAYOUTS_REREAD_DAYS = 35;
/** The first read (an empty table) goes back a year and more, so past GST periods show theirs too. */
export const PAYOUTS_FIRST_READ_DAYS = 400;
/** Stripe's largest page. */
const PAGE = 100;

/**
 * Reads Stripe's payouts to the owner's bank into stripe_payouts for the GST report ("the payouts the
 * bank will show"), on a schedule: here in the worker, never on a request. Each run lists the payouts
 * arriving since PAYOUTS_REREAD_DAYS ago (and later: pending ones arrive in the coming days), every
 * page, and updates the rows it knows, so a status change is seen within a run.
 */
export const readStripePayouts: JobHandler<'read-stripe-payouts'> = async (_payload, { db, stripe }) => {
  if (!stripe) return { status: 'skipped', reason: 'no Stripe key' };
  const days = (await db.$count(stripePayouts)) > 0 ? PAYOUTS_REREAD_DAYS : PAYOUTS_FIRST_READ_DAYS;
  const since = Math.floor(Date.now() / 1000) - days * DAY_SECONDS;
  const rows: Array<typeof stripePayouts.$inferInsert> = [];
  for await (const payout of stripe.payouts.list({ arrival_date: { gte: since }, limit: PAGE })) {
    rows.push({
      id: payout.id,
      amountCents: payout.amount,
      currency: payout.currency,
      arrivalOn: nzCalendarDay(new Date(payout.arrival_date * 1000)),
      status: payout.status,
      createdAt: new Date(payout.created * 1000),
    });
  }
  for (let at = 0; at < rows.length; at += 500) {
    await db
      .insert(stripePayouts)
      .values(rows.slice(at, at + 500))
      .onConflictDoUpdate({
        target: stripePayouts.id,
        set: {
          amountCents: sql`excluded.amount_cents`,
          currency: sql`excluded.currency`,
          arrivalOn: sql`excluded.arrival_on`,
          status: sql`excluded.status`,
          readAt: sql`now()`,
        },
      });
  }
  return { status: 'done', payouts: rows.length, days };
};
