import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { stripePayouts, taxDocuments } from '@app/shared/db';
import { transitionPurchase } from '@app/shared/sales';
import { openPage } from '../support/browser.ts';
import { createPurchase, createVideo } from '../support/factories.ts';
import { pdfText } from '../support/pdf-text.ts';
import { TEST_ADMIN_PASSWORD } from '../support/test-env.ts';
import { useTestWorld } from '../support/world.ts';

// GST with the built api and worker (decision 029): the documents' font, and Stripe's payouts on the
// owner's GST screen.

const { env, api, producer, smtp, stripe, browser } = useTestWorld({
  processes: { api: true, worker: true },
  producer: true,
  smtp: true,
  stripe: true,
  browser: true,
});

const gst = {
  registered: true,
  gstNumber: '49091850',
  legalName: 'Whānau Dance Studio Limited',
  address: 'Ōtautahi Christchurch',
  rateBasisPoints: 1500,
};

// The PDF's font ships in an npm package and is found by resolving it (shared/src/server/gst/pdf.ts): the
// bundles, which run from their dist folders, must find it as the source does.
describe('document PDFs from the built servers', () => {
  it('print macrons in the api’s download and in the worker’s e-mail', async () => {
    const video = await createVideo(env.database.db, { priceCents: 120_000, title: 'Solo for Zoë' });
    const id = randomUUID();
    const sessionId = `cs_test_${id}`;
    const email = `${id.slice(0, 8)}@example.nz`;
    await createPurchase(env.database.db, {
      id,
      videoId: video.id,
      checkoutSessionId: sessionId,
      buyerName: 'Māia Ngata',
      buyerEmail: email,
      amountCents: 120_000,
    });
    await transitionPurchase(env.database.db, id, 'paid', { transactionId: `t_${id}` }, { gst });
    const [invoice] = await env.database.db
      .select()
      .from(taxDocuments)
      .where(eq(taxDocuments.purchaseId, id));

    const download = await fetch(`${api.url}/api/purchases/${sessionId}/documents/${invoice!.id}.pdf`);
    expect(download.status).toBe(200);
    const downloaded = await pdfText(Buffer.from(await download.arrayBuffer()));
    for (const text of ['Whānau Dance Studio Limited', 'Māia Ngata', 'Solo for Zoë: NZ$1,200.00'])
      expect(downloaded).toContain(text);

    await producer.enqueue('tax-document-mail', { documentId: invoice!.id });
    const mail = await smtp.waitFor((message) => JSON.stringify(message.to).includes(email));
    const attached = await pdfText(mail.attachments[0]!.content);
    expect(attached).toContain('Māia Ngata');
    expect(attached).toContain('Ōtautahi Christchurch');
  });
});

describe('Stripe payouts on the GST screen', () => {
  it('are read by the worker from Stripe and shown beside the period’s figures', async () => {
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Pacific/Auckland' }).format(new Date());
    const paid = stripe.payout({ amount: 123_456, arrival: today, status: 'paid' });
    stripe.payout({ amount: 20_000, arrival: today, status: 'in_transit' });
    await producer.enqueue('read-stripe-payouts', {});
    await expect
      .poll(() => env.database.db.$count(stripePayouts, eq(stripePayouts.id, paid.id)), { timeout: 20_000 })
      .toBe(1);

    const { page, errors } = await openPage(browser);
    await page.goto(`${api.url}/admin/gst`);
    await page.getByLabel('Password').fill(TEST_ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Login' }).click();
    const payouts = page.getByRole('table', { name: 'Stripe payouts arriving in the period' });
    await expect.poll(() => payouts.isVisible()).toBe(true);
    const rows = (await payouts.getByRole('row').allInnerTexts()).map((row) =>
      row.replace(/\s+/g, ' ').trim(),
    );
    expect(rows[0]).toBe('ARRIVES STATUS AMOUNT');
    // Both arrive today; their order within the day is Stripe's creation order.
    expect(
      rows
        .slice(1, 3)
        .map((row) => row.replace(/^\d{1,2} [A-Z][a-z]+ 20\d\d /, ''))
        .sort(),
    ).toEqual(['On its way NZ$200.00', 'Paid NZ$1,234.56']);
    expect(rows.slice(3)).toEqual(['Paid or on the way NZ$1,434.56']);
    expect(await page.getByText(/^Read from Stripe /).isVisible()).toBe(true);
    expect(errors).toEqual([]);
  });
});
