import { randomUUID } from 'node:crypto';
import { inArray } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { createDatabase, taxDocuments } from '../db/index.ts';
import { transitionPurchase } from '../sales/fulfil.ts';
import { createPurchase, createVideo } from '../../../test/support/factories.ts';
import { useTestWorld } from '../../../test/support/world.ts';
import { nextDocumentNumber } from './issue.ts';

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
    let taken = 0;
    await expect(
      db.transaction(async (tx) => {
        taken = await nextDocumentNumber(tx);
        throw new Error('the payment failed after numbering');
      }),
    ).rejects.toThrow('the payment failed');
    const next = await db.transaction((tx) => nextDocumentNumber(tx));
    expect(next).toBe(taken);
  });
});
