import { and, desc, eq, isNull, lt, sql } from 'drizzle-orm';
import { contacts } from '@app/shared/db';
import { contactEventTypeLabel } from '@app/shared/constants';
import { formatDateTime } from '@app/shared/format';
import type { JobHandler, WorkerContext } from '../context.ts';
import { sendMail } from '../clients/mailer.ts';

/**
 * E-mails the owner about one contact, then marks it notified. With a contact id it sends that one
 * (its deterministic job id keeps it to one job); without, it is the sweep, queuing every contact
 * the queue never heard about.
 */
export const contactNotification: JobHandler<'contact-notification'> = async (payload, context) => {
  const { contactId } = payload;
  if (contactId === undefined) return sweep(context);
  // The row lock is the claim: a second run of the same contact (a stalled job handed out again while
  // the first still runs) waits here, then finds notified_at set and skips; if the first failed, it
  // sends instead. So the owner gets one e-mail however often the job runs. A crash after sending and
  // before the commit still sends twice: a repeated e-mail beats a lost enquiry.
  return context.db.transaction(async (tx) => {
    await tx.execute(sql`set local lock_timeout = '30s'`);
    const [contact] = await tx.select().from(contacts).where(eq(contacts.id, contactId)).for('update');
    if (!contact || contact.notifiedAt) return 'skipped';
    await sendToOwner(contact, context);
    await tx.update(contacts).set({ notifiedAt: new Date() }).where(eq(contacts.id, contact.id));
    return 'done';
  });
};

async function sendToOwner(contact: typeof contacts.$inferSelect, { mailer, config }: WorkerContext) {
  const label = contactEventTypeLabel(contact.eventType);
  const name = `${contact.firstName} ${contact.lastName}`;
  await sendMail(mailer, {
    kind: 'enquiry',
    to: config.OWNER_EMAIL,
    replyTo: `"${name.replaceAll(/["\\\r\n]/g, '')}" <${contact.email}>`,
    subject: `New enquiry from ${name} (${label})`,
    text: [
      `${name} sent an enquiry through the website on ${formatDateTime(contact.createdAt)}.`,
      '',
      `Email: ${contact.email}`,
      `Event type: ${label}`,
      '',
      contact.message,
      '',
      `Reply to this e-mail to answer ${contact.firstName}. All enquiries: ${config.PUBLIC_URL}/admin/contacts`,
    ].join('\n'),
  });
}

/** A contact saved a sweep interval ago and still not notified was missed by the queue (Redis was down). */
async function sweep({ db, producer, config }: Parameters<typeof contactNotification>[1]) {
  const missed = await db
    .select({ id: contacts.id })
    .from(contacts)
    .where(
      and(
        isNull(contacts.notifiedAt),
        lt(contacts.createdAt, new Date(Date.now() - config.SWEEP_INTERVAL_MS)),
      ),
    )
    // Newest first: contacts whose mail was refused for good stay unnotified and must not crowd out new ones.
    .orderBy(desc(contacts.createdAt))
    .limit(500);
  for (const { id } of missed) await producer.enqueue('contact-notification', { contactId: id });
  return missed.length ? { status: 'done' as const, queued: missed.length } : 'skipped';
}
