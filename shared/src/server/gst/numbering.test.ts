import { randomUUID } from 'node:crypto';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { createDatabase, documentCounters, purchases, taxDocuments } from '../db/index.ts';
import { transitionPurchase } from '../sales/fulfil.ts';
import { createPurchase, createVideo } from '../../../../test/support/factories.ts';
import { useTestWorld } from '../../../../test/support/world.ts';
import { documentReference, type DocumentContent } from './document.ts';
import { DOCUMENT_SEQUENCE, issueInvoice } from './issue.ts';

const { env } = useTestWorld({});
const gst = {
  registered: true,
  gstNumber: '49091850',
  legalName: 'Stagelight',
  address: '',
  rateBasisPoints: 1500,
};
const pools: Array<ReturnType<typeof createDatabase>> = [];
afterAll(() => Promise.all(pools.map(({ pool }) => pool.end())));

describe('document numbers', () => {
  it('100 payments fulfilled by two workers at once get 100 consecutive numbers', async () => {
    const { db } = env.database;
    // Two workers: two processes' pools on the same database, each fulfilling half at once.
    const workers = [
      createDatabase(env.config.DATABASE_URL, { max: 8 }),
      createDatabase(env.config.DATABASE_URL, { max: 8 }),
    ];
    pools.push(...workers);
    const video = await createVideo(db, { priceCents: 2500 });
    const ids = await Promise.all(
      Array.from({ length: 100 }, async () => {
        const id = randomUUID();
        await createPurchase(db, { id, videoId: video.id, amountCents: 2500 });
        return id;
      }),
    );
    const [{ last }] = (
      await db.execute<{ last: number }>(
        `select last_number as last from document_counters where name = 'tax-documents'`,
      )
    ).rows as [{ last: number }];
    await Promise.all(
      ids.map((id, index) =>
        transitionPurchase(workers[index % 2]!.db, id, 'paid', { transactionId: `t_${id}` }, { gst }),
      ),
    );
    const numbers = (
      await db
        .select({ number: taxDocuments.number })
        .from(taxDocuments)
        .where(inArray(taxDocuments.purchaseId, ids))
    )
      .map((row) => row.number)
      .sort((a, b) => a - b);
    expect(numbers).toEqual(Array.from({ length: 100 }, (_, index) => last + index + 1));
  });

  it('a rolled-back payment gives its number back', async () => {
    const { db } = env.database;
    const video = await createVideo(db, { priceCents: 2500 });
    const [failing, next] = await Promise.all(
      [randomUUID(), randomUUID()].map(async (id) => {
        await createPurchase(db, { id, videoId: video.id, amountCents: 2500 });
        return id;
      }),
    );
    const last = async () =>
      (
        await db
          .select({ number: documentCounters.lastNumber })
          .from(documentCounters)
          .where(eq(documentCounters.name, DOCUMENT_SEQUENCE))
      )[0]!.number;
    const before = await last();
    await expect(
      db.transaction(async (tx) => {
        const [purchase] = await tx.select().from(purchases).where(eq(purchases.id, failing!));
        expect(await issueInvoice(tx, purchase!, 2500, gst)).not.toBeNull();
        throw new Error('the payment failed after numbering');
      }),
    ).rejects.toThrow('the payment failed');
    expect(await last()).toBe(before);
    await transitionPurchase(db, next!, 'paid', { transactionId: `t_${next}` }, { gst });
    const [document] = await db.select().from(taxDocuments).where(eq(taxDocuments.purchaseId, next!));
    expect(document!.number).toBe(before + 1);
    expect((document!.content as DocumentContent).reference).toBe(documentReference('invoice', before + 1));
  });

  it('a number past 999,999 keeps all its digits in the reference', async () => {
    const { db } = env.database;
    const video = await createVideo(db, { priceCents: 2500 });
    const id = randomUUID();
    await createPurchase(db, { id, videoId: video.id, amountCents: 2500 });
    await db
      .update(documentCounters)
      .set({ lastNumber: 999_999 })
      .where(eq(documentCounters.name, DOCUMENT_SEQUENCE));
    await transitionPurchase(db, id, 'paid', { transactionId: `t_${id}` }, { gst });
    const [document] = await db.select().from(taxDocuments).where(eq(taxDocuments.purchaseId, id));
    expect(document!.number).toBe(1_000_000);
    expect((document!.content as DocumentContent).reference).toBe('INV-1000000');
  });
});
