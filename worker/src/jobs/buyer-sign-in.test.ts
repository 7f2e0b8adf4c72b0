import { randomUUID } from 'node:crypto';
import { UnrecoverableError, type Job } from 'bullmq';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashSecret } from '@app/shared/buyer-library';
import { buyerSignInLinks } from '@app/shared/db';
import { createLogger } from '@app/shared/logger';
import { createTestEnv, type TestEnv } from '../../../test/support/test-env.ts';
import { createPurchase, createVideo } from '../../../test/support/factories.ts';
import { startSmtpCapture, type CapturedMail } from '../../../test/support/smtp.ts';
import { createMailer, type Mailer } from '../clients/mailer.ts';
import type { WorkerContext } from '../context.ts';
import { buyerSignIn } from './buyer-sign-in.ts';

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

const address = () => `parent-${randomUUID().slice(0, 8)}@example.nz`;

async function request(email: string, createdAt?: Date) {
  const [row] = await env.database.db
    .insert(buyerSignInLinks)
    .values({ email, ...(createdAt && { createdAt }) })
    .returning();
  return row!;
}

async function paidBy(email: string, status: 'paid' | 'refunded' | 'pending' = 'paid') {
  const video = await createVideo(env.database.db, { priceCents: 1500 });
  await createPurchase(env.database.db, { videoId: video.id, buyerEmail: email, status, paidAt: new Date() });
}

const mailsTo = (email: string) => smtp.messages.filter((mail) => JSON.stringify(mail.to).includes(email));
const row = async (id: string) =>
  (await env.database.db.select().from(buyerSignInLinks).where(eq(buyerSignInLinks.id, id)))[0];

describe('buyer-sign-in', () => {
  it('e-mails a single-use link (text and phone-sized HTML) to an address with paid videos, once', async () => {
    const email = address();
    // Bought with other capitals and stray spaces: the same buyer.
    await paidBy(`  ${email.toUpperCase()} `);
    await paidBy(email);
    const { id } = await request(email);
    expect(await buyerSignIn({ requestId: id }, context)).toBe('done');
    expect(await buyerSignIn({ requestId: id }, context)).toBe('skipped');

    const mail = await smtp.waitFor((message) => JSON.stringify(message.to).includes(email));
    expect(mail.subject).toBe('Your sign-in link for Stagelight Studio videos');
    const link = /http:\/\/localhost:3000\/my-videos\/sign-in#\S+/.exec(mail.text ?? '')?.[0];
    expect(link).toBeDefined();
    const params = new URLSearchParams(new URL(link!).hash.slice(1));
    expect(params.get('email')).toBe(email);
    const token = params.get('token')!;
    expect(token).toMatch(/^[\w-]{43}$/);
    expect(mail.text).toContain('your 2 videos');
    expect(mail.html).toContain('name="viewport"');
    expect(mail.html).toContain('max-width:480px');
    expect(mail.html).toContain(`href="${link!.replaceAll('&', '&#38;')}"`);

    const stored = await row(id);
    // Only the token's hash is kept, with its 30 minutes.
    expect(stored!.tokenHash).toBe(hashSecret(token));
    expect(JSON.stringify(stored)).not.toContain(token);
    const minutes = (stored!.expiresAt!.getTime() - Date.now()) / 60_000;
    expect(minutes).toBeGreaterThan(29);
    expect(minutes).toBeLessThanOrEqual(30);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(mailsTo(email)).toHaveLength(1);
  });

  it('sends nothing to an address without paid videos, and forgets the request', async () => {
    const never = address();
    const refunded = address();
    const pending = address();
    await paidBy(refunded, 'refunded');
    await paidBy(pending, 'pending');
    for (const email of [never, refunded, pending]) {
      const { id } = await request(email);
      expect(await buyerSignIn({ requestId: id }, context)).toBe('skipped');
      expect(await row(id)).toBeUndefined();
    }
    expect(await buyerSignIn({ requestId: randomUUID() }, context)).toBe('skipped');
    await new Promise((resolve) => setTimeout(resolve, 200));
    for (const email of [never, refunded, pending]) expect(mailsTo(email)).toEqual([]);
  });

  it('does not send a link the buyer stopped waiting for, and deletes requests older than a day', async () => {
    const email = address();
    await paidBy(email);
    const late = await request(email, new Date(Date.now() - 31 * 60_000));
    const old = await request(email, new Date(Date.now() - 25 * 3600_000));
    expect(await buyerSignIn({ requestId: late.id }, context)).toBe('skipped');
    expect(await row(late.id)).toBeDefined();
    expect(await row(old.id)).toBeUndefined();
    expect(mailsTo(email)).toEqual([]);
  });

  it('gives up at once when the mail server refuses the message for good, and stores no token', async () => {
    const email = address();
    await paidBy(email);
    const { id } = await request(email);
    const refusing = {
      ...context,
      mailer: {
        send: () =>
          Promise.reject(Object.assign(new Error('550 mailbox unavailable'), { responseCode: 550 })),
        close() {},
      },
    };
    await expect(buyerSignIn({ requestId: id }, refusing)).rejects.toBeInstanceOf(UnrecoverableError);
    expect(await row(id)).toMatchObject({ tokenHash: null, sentAt: null });
  });
});
