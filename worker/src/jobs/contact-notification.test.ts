import { UnrecoverableError } from 'bullmq';
import { eq } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contacts } from '@app/shared/db';
import { createLogger } from '@app/shared/logger';
import { drain } from '../../../test/support/worker.ts';
import { useTestWorld } from '../../../test/support/world.ts';
import { createMailer } from '../clients/mailer.ts';
import { contactNotification } from './contact-notification.ts';
import { schedulesFor } from '../schedules.ts';

// An enquiry from the api's form to the owner's inbox: test/flows/contact-enquiry.test.ts.
const { env, smtp, worker } = useTestWorld({
  smtp: true,
  worker: true,
  env: { OWNER_EMAIL: 'owner@stagelight.test' },
});
/** A mail server that refuses every recipient with `refusal.code`. */
let refusing: SMTPServer;
const refusal = { code: 550 };
let refusingUrl: string;

beforeAll(async () => {
  refusing = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(_address, _session, callback) {
      callback(Object.assign(new Error('Mailbox unavailable'), { responseCode: refusal.code }));
    },
  });
  await new Promise<void>((resolve) => refusing.listen(0, '127.0.0.1', resolve));
  refusingUrl = `smtp://127.0.0.1:${(refusing.server.address() as { port: number }).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => refusing.close(() => resolve()));
});

/** The handler's context without a queue: sends through `smtpUrl` (the capturing server by default). */
function handlerContext(smtpUrl = smtp.url) {
  const logger = createLogger({ name: 't', level: 'silent' });
  const config = { ...env.config, SMTP_URL: smtpUrl };
  return {
    db: env.database.db,
    config,
    logger,
    producer: worker.producer,
    mailer: createMailer(config, logger),
  } as never;
}

const mailsTo = (firstName: string) =>
  smtp.messages.filter((message) => message.subject?.includes(`${firstName} Ngata`));

const enquiry = (firstName: string) => ({
  firstName,
  lastName: 'Ngata',
  email: `${firstName.toLowerCase()}@example.nz`,
  eventType: 'recital',
  message: 'Could you film our end-of-year recital?',
});

describe('contact-notification', () => {
  it('sends once, however often the job runs, one run after another or both at once', async () => {
    const [contact] = await env.database.db
      .insert(contacts)
      .values({ ...enquiry('Ana'), eventType: null })
      .returning();
    const context = handlerContext();
    expect(await contactNotification({ contactId: contact!.id }, context)).toBe('done');
    expect(await contactNotification({ contactId: contact!.id }, context)).toBe('skipped');
    const mail = await smtp.waitFor((message) => message.subject?.includes('Ana Ngata') ?? false);
    // Left blank by the visitor: not mistaken for a chosen "Other".
    expect(mail.subject).toBe('New enquiry from Ana Ngata (Not given)');
    expect(mailsTo('Ana')).toHaveLength(1);

    // Two runs at the same moment (a stalled job handed out again): the row lock lets one send.
    const [other] = await env.database.db.insert(contacts).values(enquiry('Hemi')).returning();
    const outcomes = await Promise.all([
      contactNotification({ contactId: other!.id }, handlerContext()),
      contactNotification({ contactId: other!.id }, handlerContext()),
    ]);
    expect(outcomes.sort()).toEqual(['done', 'skipped']);
    await smtp.waitFor((message) => message.subject?.includes('Hemi Ngata') ?? false);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(mailsTo('Hemi')).toHaveLength(1);
  });

  it('queues one job per contact, whoever queues it', async () => {
    const [contact] = await env.database.db.insert(contacts).values(enquiry('Rangi')).returning();
    const first = await worker.producer.enqueue('contact-notification', { contactId: contact!.id });
    const second = await worker.producer.enqueue('contact-notification', { contactId: contact!.id });
    expect(first.jobId).toBe(`contact-${contact!.id}`);
    expect(second.jobId).toBe(first.jobId);
    await smtp.waitFor((message) => message.subject?.includes('Rangi Ngata') ?? false);
    await drain(worker.producer, 'contact-notification');
    expect(mailsTo('Rangi')).toHaveLength(1);
  });

  it('gives up at once when the mail server refuses the message for good, and retries a 4xx', async () => {
    const [contact] = await env.database.db.insert(contacts).values(enquiry('Mere')).returning();
    refusal.code = 550;
    const permanent = await contactNotification(
      { contactId: contact!.id },
      handlerContext(refusingUrl),
    ).catch((error: unknown) => error);
    expect(permanent).toBeInstanceOf(UnrecoverableError);
    expect((permanent as Error).message).toMatch(/Mail refused/);

    refusal.code = 451;
    const temporary = await contactNotification(
      { contactId: contact!.id },
      handlerContext(refusingUrl),
    ).catch((error: unknown) => error);
    expect(temporary).toBeInstanceOf(Error);
    expect(temporary).not.toBeInstanceOf(UnrecoverableError);

    const [row] = await env.database.db.select().from(contacts).where(eq(contacts.id, contact!.id));
    expect(row!.notifiedAt).toBeNull();
    // Once the server takes it again, the same contact is sent.
    expect(await contactNotification({ contactId: contact!.id }, handlerContext())).toBe('done');
  });

  it('sweeps up contacts the queue never heard of (saved while Redis was down), not fresh ones', async () => {
    const [missed] = await env.database.db
      .insert(contacts)
      .values({ ...enquiry('Wiremu'), createdAt: new Date(Date.now() - 5 * 60_000) })
      .returning();
    // Saved a moment ago: its own job may still be on the way, so the sweep leaves it alone.
    const [fresh] = await env.database.db.insert(contacts).values(enquiry('Kiri')).returning();
    await worker.producer.enqueue('contact-notification', {});
    await smtp.waitFor((message) => message.subject?.includes('Wiremu Ngata') ?? false);
    await drain(worker.producer, 'contact-notification');
    const [row] = await env.database.db.select().from(contacts).where(eq(contacts.id, missed!.id));
    expect(row!.notifiedAt).not.toBeNull();
    const [freshRow] = await env.database.db.select().from(contacts).where(eq(contacts.id, fresh!.id));
    expect(freshRow!.notifiedAt).toBeNull();
    expect(mailsTo('Kiri')).toHaveLength(0);
  });

  it('runs the sweep on a schedule every SWEEP_INTERVAL_MS', () => {
    const sweep = schedulesFor(env.config).find((schedule) => schedule.job === 'contact-notification');
    expect(sweep).toMatchObject({ every: env.config.SWEEP_INTERVAL_MS, payload: {} });
  });
});
