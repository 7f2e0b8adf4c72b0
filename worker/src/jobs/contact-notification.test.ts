import { eq } from 'drizzle-orm';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contacts } from '@app/shared/db';
import { createLogger } from '@app/shared/logger';
import { createTestEnv, type TestEnv } from '../../../test/support/test-env.ts';
import { createTestApp, type TestApp } from '../../../test/support/app.ts';
import { drain, startTestWorker, type TestWorker } from '../../../test/support/worker.ts';
import { startSmtpCapture, type CapturedMail } from '../../../test/support/smtp.ts';
import { createMailer } from '../clients/mailer.ts';
import { contactNotification } from './contact-notification.ts';

let env: TestEnv;
let smtp: CapturedMail;
let api: TestApp;
let worker: TestWorker;

beforeAll(async () => {
  smtp = await startSmtpCapture();
  env = await createTestEnv({ SMTP_URL: smtp.url, OWNER_EMAIL: 'owner@stagelight.test' });
  api = createTestApp(env);
  worker = startTestWorker(env);
});
afterAll(async () => {
  await worker.close();
  await api.close();
  await env.cleanup();
  await smtp.close();
});

const enquiry = (firstName: string) => ({
  firstName,
  lastName: 'Ngata',
  email: `${firstName.toLowerCase()}@example.nz`,
  eventType: 'recital',
  message: 'Could you film our end-of-year recital?',
});

describe('contact-notification', () => {
  it('e-mails the owner about a new enquiry, with reply-to the visitor, and marks it notified', async () => {
    const response = await request(api.app).post('/api/contacts').send(enquiry('Tama')).expect(201);
    const mail = await smtp.waitFor((message) => message.subject?.includes('Tama Ngata') ?? false);
    expect(mail.subject).toBe('New enquiry from Tama Ngata (Recital)');
    expect(mail.to).toMatchObject({ text: 'owner@stagelight.test' });
    expect(mail.replyTo?.value[0]?.address).toBe('tama@example.nz');
    expect(mail.text).toContain('Could you film our end-of-year recital?');
    await drain(worker.producer, 'contact-notification');
    const [row] = await env.database.db.select().from(contacts).where(eq(contacts.id, response.body.id));
    expect(row!.notifiedAt).not.toBeNull();
  });

  it('sends once, however often the job runs', async () => {
    const [contact] = await env.database.db
      .insert(contacts)
      .values({ ...enquiry('Ana'), eventType: 'other' })
      .returning();
    const logger = createLogger({ name: 't', level: 'silent' });
    const context = {
      db: env.database.db,
      config: env.config,
      logger,
      mailer: createMailer(env.config, logger),
    } as never;
    expect(await contactNotification({ contactId: contact!.id }, context)).toBe('done');
    expect(await contactNotification({ contactId: contact!.id }, context)).toBe('skipped');
    await smtp.waitFor((message) => message.subject?.includes('Ana Ngata') ?? false);
    expect(smtp.messages.filter((message) => message.subject?.includes('Ana Ngata'))).toHaveLength(1);
  });

  it('sweeps up contacts the queue never heard of (saved while Redis was down)', async () => {
    const [missed] = await env.database.db
      .insert(contacts)
      .values({ ...enquiry('Wiremu'), createdAt: new Date(Date.now() - 5 * 60_000) })
      .returning();
    await worker.producer.enqueue('contact-notification', {});
    await smtp.waitFor((message) => message.subject?.includes('Wiremu Ngata') ?? false);
    await drain(worker.producer, 'contact-notification');
    const [row] = await env.database.db.select().from(contacts).where(eq(contacts.id, missed!.id));
    expect(row!.notifiedAt).not.toBeNull();
  });
});
