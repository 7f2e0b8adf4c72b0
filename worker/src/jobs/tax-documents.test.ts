import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { documentCounters, gstSettings, purchases, taxDocuments } from '@app/shared/db';
import { formatEventDate } from '@app/shared/format';
import { nzCalendarDay, saveGstSettings, type DocumentContent } from '@app/shared/gst';
import { createStripe } from '@app/shared/stripe';
import { createPurchase, createVideo } from '../../../test/support/factories.ts';
import { openCheckoutSession } from '../../../test/support/fake-stripe.ts';
import { pdfText } from '../../../test/support/pdf-text.ts';
import { useTestWorld } from '../../../test/support/world.ts';
import { purchaseReceipt } from './purchase-receipt.ts';
import { readPaymentFee } from './read-payment-fee.ts';
import { recordSale } from './record-sale.ts';
import { taxDocumentMail } from './tax-document-mail.ts';

const { env, stripe, smtp, context } = useTestWorld({ stripe: true, smtp: true, context: true });

const registered = {
  registered: true,
  gstNumber: '49091850',
  legalName: 'Stagelight Studio Limited',
  address: '12 Example Street\nChristchurch 8011',
  rateBasisPoints: 1500,
};

beforeEach(async () => {
  await saveGstSettings(env.database.db, registered);
});

/** A paid Checkout purchase of one video at `priceCents`, settled and its receipt sent. */
async function paidPurchase(priceCents: number, customer?: Parameters<typeof stripe.pay>[1]) {
  // A title and (at NZ$1,200) a buyer with diacritics: the PDF prints them as typed.
  const title = `Solo for Zoë ${randomUUID().slice(0, 6)}`;
  const video = await createVideo(env.database.db, { priceCents, title });
  const id = randomUUID();
  const email = `${id.slice(0, 8)}@example.nz`;
  await createPurchase(env.database.db, {
    id,
    videoId: video.id,
    checkoutSessionId: null,
    buyerName: 'Mere Parata',
    buyerEmail: email,
    amountCents: priceCents,
  });
  const sessionId = await openCheckoutSession(env, { id, amountCents: priceCents }, { productName: title });
  stripe.pay(sessionId, customer);
  await recordSale(
    { kind: 'checkout', checkoutSessionId: sessionId, eventId: `evt_${randomUUID()}`, eventType: 'x' },
    context,
  );
  expect(await purchaseReceipt({ purchaseId: id }, context)).toBe('done');
  const mail = await smtp.waitFor(
    (message) => message.to !== undefined && JSON.stringify(message.to).includes(email),
  );
  const [document] = await env.database.db.select().from(taxDocuments).where(eq(taxDocuments.purchaseId, id));
  const attachment = mail.attachments.find((file) => file.contentType === 'application/pdf');
  expect(attachment).toBeDefined();
  const pdf = await pdfText(attachment!.content);
  return { id, title, email, mail, document: document!, pdf, sessionId };
}

const GST_NUMBER = '49-091-850';

describe('taxable supply information', () => {
  it('NZ$150: seller, date, what was sold and the amount; no GST number, GST amount or buyer', async () => {
    const { pdf, mail, title, document } = await paidPurchase(15_000);
    for (const text of [pdf, mail.text!]) {
      expect(text).toContain('Stagelight Studio Limited');
      expect(text).toMatch(/Date: \d{1,2} [A-Z][a-z]+ 20\d\d/);
      expect(text).toContain(`${title}: NZ$150.00`);
      expect(text).toContain('Total: NZ$150.00');
      expect(text).not.toContain(GST_NUMBER);
      expect(text).not.toMatch(/GST/);
      expect(text).not.toContain('Mere Parata\n');
    }
    expect(pdf).toContain('Receipt INV-');
    // Recorded for the report all the same: 3/23 of 150.00.
    expect(document.gstCents).toBe(1957);
  });

  it('NZ$500: also the GST number and the GST, with the total stated as GST-inclusive', async () => {
    const { pdf, mail, document } = await paidPurchase(50_000);
    for (const text of [pdf, mail.text!]) {
      expect(text).toContain(`Tax invoice ${(document.content as DocumentContent).reference}`);
      expect(text).toContain(`GST number: ${GST_NUMBER}`);
      expect(text).toContain('Total (includes GST): NZ$500.00');
      expect(text).toContain('GST included (15%): NZ$65.22');
      expect(text).not.toContain('To:');
    }
  });

  it('NZ$1,200: also the buyer’s name and address, as Stripe Checkout collected them', async () => {
    const { pdf, mail, title } = await paidPurchase(120_000, {
      customer: {
        email: null,
        name: 'Māia Ngata',
        address: {
          line1: '5 Stage Lane',
          line2: null,
          city: 'Blenheim',
          state: null,
          postal_code: '7201',
          country: 'NZ',
        },
      },
    });
    for (const text of [pdf, mail.text!]) {
      expect(text).toContain(`GST number: ${GST_NUMBER}`);
      expect(text).toContain('GST included (15%): NZ$156.52');
      expect(text).toContain('To:');
      expect(text).toContain('Māia Ngata');
      expect(text).toContain(`${title}: NZ$1,200.00`);
      expect(text).toContain('5 Stage Lane');
      expect(text).toContain('Blenheim 7201');
    }
  });

  it('not registered: a receipt without any GST wording, whatever the amount', async () => {
    await saveGstSettings(env.database.db, { ...registered, registered: false, gstNumber: null });
    const { pdf, mail, document } = await paidPurchase(120_000);
    for (const text of [pdf, mail.text!, mail.html || '']) {
      expect(text).not.toMatch(/GST|tax invoice/i);
    }
    expect(pdf).toContain('Receipt INV-');
    expect(document.gstCents).toBe(0);
    expect(document.registered).toBe(false);
  });

  it('uses the settings as saved when each payment settles, and the environment’s until they are', async () => {
    await env.database.db.delete(gstSettings);
    const defaults = (await paidPurchase(50_000)).document.content as DocumentContent;
    // The test environment: not registered.
    expect(defaults).toMatchObject({
      title: 'Receipt',
      gst: null,
      seller: { name: env.config.GST_LEGAL_NAME },
    });
    await saveGstSettings(env.database.db, { ...registered, legalName: 'Renamed Studio Limited' });
    const saved = (await paidPurchase(50_000)).document.content as DocumentContent;
    expect(saved).toMatchObject({
      title: 'Tax invoice',
      seller: { name: 'Renamed Studio Limited', gstNumber: GST_NUMBER },
    });
  });

  it('numbers documents one after another and issues one invoice per purchase however often it runs', async () => {
    const first = await paidPurchase(2_000);
    const second = await paidPurchase(3_000);
    expect(second.document.number).toBe(first.document.number + 1);
    await recordSale(
      { kind: 'checkout', checkoutSessionId: second.sessionId, eventId: `evt_${randomUUID()}` },
      context,
    );
    expect(await env.database.db.$count(taxDocuments, eq(taxDocuments.purchaseId, second.id))).toBe(1);
  });
});

describe('credit notes', () => {
  it('a partial refund issues a credit note for that amount, GST reversed, e-mailed once', async () => {
    const { id, sessionId, email } = await paidPurchase(50_000);
    const charge = stripe.refund(sessionId, 11_500);
    const refund = {
      kind: 'refund',
      paymentIntentId: charge.payment_intent,
      eventId: `evt_${randomUUID()}`,
    } as const;
    await recordSale(refund, context);
    // The same event again, and another delivery for the same refund: nothing more.
    await recordSale(refund, context);
    await recordSale({ ...refund, eventId: `evt_${randomUUID()}` }, context);
    const notes = await env.database.db
      .select()
      .from(taxDocuments)
      .where(eq(taxDocuments.purchaseId, id))
      .then((rows) => rows.filter((row) => row.kind === 'credit-note'));
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatchObject({ totalCents: 11_500, gstCents: 1500 });
    const [purchase] = await env.database.db.select().from(purchases).where(eq(purchases.id, id));
    expect(purchase!.status).toBe('paid');

    expect(await taxDocumentMail({ documentId: notes[0]!.id }, context)).toBe('done');
    expect(await taxDocumentMail({ documentId: notes[0]!.id }, context)).toBe('skipped');
    const mail = await smtp.waitFor(
      (message) =>
        JSON.stringify(message.to).includes(email) && Boolean(message.subject?.startsWith('Credit note')),
    );
    const pdf = await pdfText(mail.attachments[0]!.content);
    for (const text of [pdf, mail.text!]) {
      expect(text).toContain('Total refunded (includes GST): NZ$115.00');
      expect(text).toContain('GST refunded (15%): NZ$15.00');
      expect(text).toMatch(/Corrects: INV-\d{6}/);
    }

    // The rest refunded later: a second note for the difference, and the purchase ends refunded.
    stripe.refund(sessionId);
    await recordSale({ ...refund, eventId: `evt_${randomUUID()}` }, context);
    const all = await env.database.db.select().from(taxDocuments).where(eq(taxDocuments.purchaseId, id));
    expect(
      all
        .filter((row) => row.kind === 'credit-note')
        .map((row) => row.totalCents)
        .sort(),
    ).toEqual([11_500, 38_500]);
  });

  it('two refund deliveries at once for one purchase issue one note, with no number skipped', async () => {
    const { id, sessionId } = await paidPurchase(40_000);
    const charge = stripe.refund(sessionId, 10_000);
    const before = await env.database.db.$count(taxDocuments);
    await Promise.all(
      [1, 2, 3].map(() =>
        recordSale(
          { kind: 'refund', paymentIntentId: charge.payment_intent, eventId: `evt_${randomUUID()}` },
          context,
        ),
      ),
    );
    const notes = (
      await env.database.db.select().from(taxDocuments).where(eq(taxDocuments.purchaseId, id))
    ).filter((row) => row.kind === 'credit-note');
    expect(notes).toHaveLength(1);
    expect(await env.database.db.$count(taxDocuments)).toBe(before + 1);
    // Every number this file issued, from 1 up, each once.
    const numbers = (await env.database.db.select({ number: taxDocuments.number }).from(taxDocuments))
      .map((row) => row.number)
      .sort((a, b) => a - b);
    expect(numbers).toEqual(numbers.map((_, index) => index + 1));
  });

  it('a refund of a purchase paid before documents existed issues its invoice late, then the note', async () => {
    // Paid by card in June 2025, before this shop issued documents: no invoice.
    const title = `Duet ${randomUUID().slice(0, 6)}`;
    const video = await createVideo(env.database.db, { priceCents: 60_000, title });
    const id = randomUUID();
    const email = `${id.slice(0, 8)}@example.nz`;
    const session = await createStripe(env.config)!.checkout.sessions.create({
      mode: 'payment',
      line_items: [
        { quantity: 1, price_data: { currency: 'nzd', unit_amount: 60_000, product_data: { name: title } } },
      ],
      metadata: { purchaseId: id },
      payment_intent_data: { metadata: { purchaseId: id } },
    });
    const paidOn = new Date('2025-06-10T02:00:00Z');
    stripe.pay(session.id);
    await createPurchase(env.database.db, {
      id,
      videoId: video.id,
      checkoutSessionId: session.id,
      paymentIntentId: stripe.sessions.get(session.id)!.payment_intent,
      buyerName: 'Māia Ngata',
      buyerEmail: email,
      amountCents: 60_000,
      status: 'paid',
      paidAt: paidOn,
    });
    const [{ last }] = (await env.database.db
      .select({ last: documentCounters.lastNumber })
      .from(documentCounters)) as [{ last: number }];

    const charge = stripe.refund(session.id, 23_000);
    await recordSale(
      { kind: 'refund', paymentIntentId: charge.payment_intent, eventId: `evt_${randomUUID()}` },
      context,
    );
    const documents = await env.database.db
      .select()
      .from(taxDocuments)
      .where(eq(taxDocuments.purchaseId, id))
      .orderBy(taxDocuments.number);
    expect(documents.map((row) => [row.kind, row.number, row.totalCents, row.gstCents])).toEqual([
      ['invoice', last + 1, 60_000, 7826],
      ['credit-note', last + 2, 23_000, 3000],
    ]);
    const [invoice, note] = documents as [typeof taxDocuments.$inferSelect, typeof taxDocuments.$inferSelect];
    // Dated (and reported) on the payment's day; numbered, and said to be issued, today.
    expect(invoice.issuedAt.toISOString()).toBe(paidOn.toISOString());
    const today = nzCalendarDay(new Date());
    expect(invoice.content).toMatchObject({ issuedOn: '2025-06-10', issuedLateOn: today });
    expect(note.creditedDocumentId).toBe(invoice.id);
    expect((note.content as DocumentContent).corrects).toEqual({
      reference: (invoice.content as DocumentContent).reference,
      issuedOn: '2025-06-10',
    });

    // The e-mail carries the note and, since the buyer never had it, the invoice it corrects.
    expect(await taxDocumentMail({ documentId: note.id }, context)).toBe('done');
    const mail = await smtp.waitFor((message) => JSON.stringify(message.to).includes(email));
    expect(mail.attachments).toHaveLength(2);
    const [notePdf, invoicePdf] = await Promise.all(mail.attachments.map((file) => pdfText(file.content)));
    expect(notePdf).toMatch(/Corrects: INV-\d{6} of 10 June 2025/);
    for (const text of [invoicePdf!, mail.text!]) {
      expect(text).toContain(`Tax invoice ${(invoice.content as DocumentContent).reference}`);
      expect(text).toContain('Date: 10 June 2025');
      expect(text).toContain(
        `Issued late, on ${formatEventDate(today)}: paid before this shop issued invoices`,
      );
      expect(text).toContain(`${title}: NZ$600.00`);
    }

    // A second refund credits the same late invoice: no second invoice.
    stripe.refund(session.id);
    await recordSale(
      { kind: 'refund', paymentIntentId: charge.payment_intent, eventId: `evt_${randomUUID()}` },
      context,
    );
    const after = await env.database.db.select().from(taxDocuments).where(eq(taxDocuments.purchaseId, id));
    expect(after.map((row) => [row.kind, row.totalCents]).sort()).toEqual([
      ['credit-note', 23_000],
      ['credit-note', 37_000],
      ['invoice', 60_000],
    ]);
  });

  it('a refund of a charge that is not ours issues nothing', async () => {
    const before = await env.database.db.$count(taxDocuments);
    const result = await recordSale(
      { kind: 'refund', paymentIntentId: 'pi_unknown', eventId: `evt_${randomUUID()}` },
      context,
    ).catch((error: unknown) => error);
    expect(result).toBeDefined();
    expect(await env.database.db.$count(taxDocuments)).toBe(before);
  });
});

describe('read-payment-fee', () => {
  it('records Stripe’s fee from the balance transaction, once', async () => {
    const { id } = await paidPurchase(10_000, { method: 'afterpay_clearpay' });
    expect(await readPaymentFee({ purchaseId: id }, context)).toBe('done');
    expect(await readPaymentFee({ purchaseId: id }, context)).toBe('skipped');
    const { paymentFees } = await import('@app/shared/db');
    const [fee] = await env.database.db.select().from(paymentFees).where(eq(paymentFees.purchaseId, id));
    expect(fee).toMatchObject({ feeCents: 300, netCents: 9_700, methodType: 'afterpay_clearpay' });
  });
});
