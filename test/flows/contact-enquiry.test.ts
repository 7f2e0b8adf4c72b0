import { eq } from 'drizzle-orm';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { contacts } from '@app/shared/db';
import { drain } from '../support/worker.ts';
import { useTestWorld } from '../support/world.ts';

// An enquiry sent through the api's form, e-mailed to the owner by the worker.
const { env, api, smtp, worker } = useTestWorld({
  api: true,
  smtp: true,
  worker: true,
  env: { OWNER_EMAIL: 'owner@stagelight.test' },
});

describe('an enquiry from the contact form', () => {
  it('e-mails the owner about a new enquiry, with reply-to the visitor, and marks it notified', async () => {
    const response = await request(api.app)
      .post('/api/contacts')
      .send({
        firstName: 'Tama',
        lastName: 'Ngata',
        email: 'tama@example.nz',
        eventType: 'recital',
        message: 'Could you film our end-of-year recital?',
      })
      .expect(201);
    const mail = await smtp.waitFor((message) => message.subject?.includes('Tama Ngata') ?? false);
    expect(mail.subject).toBe('New enquiry from Tama Ngata (Recital)');
    expect(mail.to).toMatchObject({ text: 'owner@stagelight.test' });
    expect(mail.replyTo?.value[0]?.address).toBe('tama@example.nz');
    expect(mail.text).toContain('Could you film our end-of-year recital?');
    await drain(worker.producer, 'contact-notification');
    const [row] = await env.database.db.select().from(contacts).where(eq(contacts.id, response.body.id));
    expect(row!.notifiedAt).not.toBeNull();
  });
});
