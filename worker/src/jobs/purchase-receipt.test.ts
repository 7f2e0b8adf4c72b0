import { randomUUID } from 'node:crypto';
import { UnrecoverableError, type Job } from 'bullmq';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { purchases, type PurchaseStatus } from '@app/shared/db';
import { createLogger } from '@app/shared/logger';
import { createTestEnv, type TestEnv } from '../../../test/support/test-env.ts';
import { createPurchase, createVideo } from '../../../test/support/factories.ts';
import { startSmtpCapture, type CapturedMail } from '../../../test/support/smtp.ts';
import { createMailer, type Mailer } from '../clients/mailer.ts';
import type { WorkerContext } from '../context.ts';
import { purchaseReceipt } from './purchase-receipt.ts';

let env: TestEnv;
let smtp: CapturedMail;
let mailer: Mailer;
let context: WorkerContext & { job: Job };

beforeAll(async () => {
  smtp = await startSmtpCapture();
  env = await createTestEnv({ SMTP_URL: smtp.url });
  const logger = createLogger({ name: 't', level: 'silent' });
  mailer = createMailer(env.config, logger);
  context = { db: env.database.db, config: env.config, logger, mailer } as unknown as WorkerContext & {
    job: Job;
  };
});
afterAll(async () => {
  mailer.close();
  await env.cleanup();
  await smtp.close();
});

async function purchase(status: PurchaseStatus, title: string) {
  const video = await createVideo(env.database.db, { priceCents: 2200, title });
  const id = randomUUID();
  const sessionId = `cs_test_${randomUUID()}`;
  await createPurchase(env.database.db, {
    id,
    videoId: video.id,
    checkoutSessionId: sessionId,
    buyerName: 'Aroha',
    buyerEmail: 'aroha@example.nz',
    amountCents: 2200,
    status,
  });
  return { id, sessionId, videoId: video.id };
}

const mailsAbout = (title: string) => smtp.messages.filter((mail) => mail.subject === `Your video: ${title}`);

describe('purchase-receipt', () => {
  it('e-mails the buyer a link back to their download, once, and again when the owner resends', async () => {
    const { id, sessionId, videoId } = await purchase('paid', 'Receipt Once');
    expect(await purchaseReceipt({ purchaseId: id }, context)).toBe('done');
    expect(await purchaseReceipt({ purchaseId: id }, context)).toBe('skipped');
    const mail = await smtp.waitFor((message) => message.subject === 'Your video: Receipt Once');
    expect(mail.to).toMatchObject({ text: 'aroha@example.nz' });
    expect(mail.text).toContain(`http://localhost:3000/video/${videoId}/download?session_id=${sessionId}`);
    expect(mail.text).toContain('NZ$22.00');
    expect(mailsAbout('Receipt Once')).toHaveLength(1);
    const [row] = await env.database.db.select().from(purchases).where(eq(purchases.id, id));
    expect(row!.receiptSentAt).not.toBeNull();

    expect(await purchaseReceipt({ purchaseId: id, resend: true }, context)).toBe('done');
    await expect.poll(() => mailsAbout('Receipt Once').length).toBe(2);
  });

  it('lists every video of a cart with its own link, in text and in HTML a phone shows, and the library', async () => {
    const videos = await Promise.all(
      ['Cart <One>', 'Cart "Two"'].map((title) => createVideo(env.database.db, { priceCents: 1000, title })),
    );
    const sessionId = `cs_test_${randomUUID()}`;
    const purchase = await createPurchase(env.database.db, {
      videoIds: videos.map((video) => video.id),
      checkoutSessionId: sessionId,
      buyerName: 'Aroha & Co',
      buyerEmail: 'aroha@example.nz',
      amountCents: 2000,
      status: 'paid',
    });
    expect(await purchaseReceipt({ purchaseId: purchase.id }, context)).toBe('done');
    const mail = await smtp.waitFor(
      (message) =>
        message.subject === 'Your 2 videos from Stagelight Studio' && message.text!.includes('Aroha & Co'),
    );
    for (const video of videos) {
      const link = `http://localhost:3000/video/${video.id}/download?session_id=${sessionId}`;
      expect(mail.text).toContain(link);
      expect(mail.html).toContain(`href="${link}"`);
    }
    expect(mail.text).toContain('NZ$20.00 in total');
    expect(mail.text).toContain('All your videos, any time: http://localhost:3000/my-videos');
    // Titles and names are the owner's and the buyer's words: escaped, never markup.
    expect(mail.html).toContain('Cart &#60;One&#62;');
    expect(mail.html).toContain('Aroha &#38; Co');
    expect(mail.html).toContain('name="viewport" content="width=device-width');
    expect(mail.html).toContain('href="http://localhost:3000/my-videos"');
  });

  it('sends nothing for a purchase that is not paid, or is gone', async () => {
    for (const status of ['pending', 'refunded', 'failed', 'expired'] as const) {
      const { id } = await purchase(status, `Unpaid ${status}`);
      expect(await purchaseReceipt({ purchaseId: id, resend: true }, context)).toBe('skipped');
    }
    expect(await purchaseReceipt({ purchaseId: randomUUID() }, context)).toBe('skipped');
    expect(smtp.messages.filter((mail) => mail.subject?.startsWith('Your video: Unpaid'))).toEqual([]);
  });

  it('gives up at once when the mail server refuses the message for good', async () => {
    const { id } = await purchase('paid', 'Refused');
    const refusing = {
      ...context,
      mailer: {
        send: () =>
          Promise.reject(Object.assign(new Error('550 mailbox unavailable'), { responseCode: 550 })),
        close() {},
      },
    };
    await expect(purchaseReceipt({ purchaseId: id }, refusing)).rejects.toBeInstanceOf(UnrecoverableError);
    const [row] = await env.database.db.select().from(purchases).where(eq(purchases.id, id));
    expect(row!.receiptSentAt).toBeNull();
  });
});
