import { UnrecoverableError } from 'bullmq';
import { and, eq, isNull, lt } from 'drizzle-orm';
import { contacts } from '@app/shared/db';
import { contactEventTypes } from '@app/shared/schemas';
import { formatDateTime } from '@app/shared/format';
import type { JobHandler } from '../context.ts';
import { isPermanentMailError } from '../clients/mailer.ts';

/**
 * E-mails the owner about one contact, then marks it notified. With a contact id it sends that one
 * (its deterministic job id keeps it to one job); without, it is the sweep, queuing every contact
 * the queue never heard about.
 */
export const contactNotification: JobHandler<'contact-notification'> = async (payload, context) => {
  if (payload.contactId === undefined) return sweep(context);
  const [contact] = await context.db.select().from(contacts).where(eq(contacts.id, payload.contactId));
  if (!contact || contact.notifiedAt) return 'skipped';

  const label =
    contactEventTypes.find((type) => type.value === contact.eventType)?.label ?? contact.eventType;
  const name = `${contact.firstName} ${contact.lastName}`;
  try {
    await context.mailer.send({
      to: context.config.OWNER_EMAIL,
      replyTo: `"${name.replaceAll('"', '')}" <${contact.email}>`,
      subject: `New enquiry from ${name} (${label})`,
      text: [
        `${name} sent an enquiry through the website on ${formatDateTime(contact.createdAt)}.`,
        '',
        `Email: ${contact.email}`,
        `Event type: ${label}`,
        '',
        contact.message,
        '',
        `Reply to this e-mail to answer ${contact.firstName}. All enquiries: ${context.config.PUBLIC_URL}/admin/contacts`,
      ].join('\n'),
    });
  } catch (error) {
    if (isPermanentMailError(error))
      throw new UnrecoverableError(`Mail refused: ${(error as Error).message}`);
    throw error;
  }
  await context.db.update(contacts).set({ notifiedAt: new Date() }).where(eq(contacts.id, contact.id));
  return 'done';
};

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
    .limit(500);
  for (const { id } of missed) await producer.enqueue('contact-notification', { contactId: id });
  return missed.length ? { status: 'done' as const, queued: missed.length } : 'skipped';
}
