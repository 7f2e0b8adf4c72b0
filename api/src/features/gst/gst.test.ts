import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { purchases, stripePayouts, taxDocuments } from '@app/shared/db';
import { saveGstSettings } from '@app/shared/gst';
import { transitionPurchase } from '@app/shared/sales';
import { gstReportSchema, gstSettingsSchema, purchaseStatusSchema } from '@app/shared/schemas';
import { binaryBody } from '../../../../test/support/app.ts';
import { createPurchase, createVideo } from '../../../../test/support/factories.ts';
import { pdfText } from '../../../../test/support/pdf-text.ts';
import { useTestWorld } from '../../../../test/support/world.ts';

const { env, api, agent } = useTestWorld({ admin: true });
const origin = 'http://localhost:3000';
const gst = {
  registered: true,
  gstNumber: '49091850',
  legalName: 'Stagelight Studio Limited',
  address: 'Christchurch',
  rateBasisPoints: 1500,
};

/** A purchase paid now (through the one fulfilment function), with its invoice issued. */
async function paid(amountCents: number, values: { source?: 'stripe' | 'offline'; buyerName?: string } = {}) {
  const video = await createVideo(env.database.db, { priceCents: amountCents, title: `Solo ${amountCents}` });
  const id = randomUUID();
  const sessionId = values.source === 'offline' ? `offline_${id}` : `cs_test_${id}`;
  await createPurchase(env.database.db, {
    id,
    videoId: video.id,
    checkoutSessionId: sessionId,
    buyerName: values.buyerName ?? 'Aroha',
    buyerEmail: `${id.slice(0, 8)}@example.nz`,
    amountCents,
    source: values.source ?? 'stripe',
  });
  await transitionPurchase(env.database.db, id, 'paid', { transactionId: `t_${id}` }, { gst });
  const [invoice] = await env.database.db.select().from(taxDocuments).where(eq(taxDocuments.purchaseId, id));
  return { id, sessionId, invoice: invoice! };
}

const today = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'Pacific/Auckland' }).format(new Date());

describe('GST settings', () => {
  it('are the owner’s only', async () => {
    const anyone = request(api.app);
    await anyone.get('/api/admin/gst/settings').expect(401);
    await anyone.put('/api/admin/gst/settings').set('Origin', origin).send(gst).expect(401);
    await anyone.get(`/api/admin/gst/report?from=2026-01-01&to=2026-12-31`).expect(401);
    await anyone.get(`/api/admin/gst/xero.csv?from=2026-01-01&to=2026-12-31`).expect(401);
    await anyone.get(`/api/admin/documents/${randomUUID()}.pdf`).expect(401);
    await anyone
      .post(`/api/admin/purchases/${randomUUID()}/refund`)
      .set('Origin', origin)
      .send({ amountCents: 1 })
      .expect(401);
  });

  it('start from the environment and are saved with a checked GST number', async () => {
    const before = gstSettingsSchema.parse((await agent.get('/api/admin/gst/settings').expect(200)).body);
    expect(before).toMatchObject({
      registered: false,
      legalName: 'Stagelight Studio',
      rateBasisPoints: 1500,
    });

    const bad = await agent
      .put('/api/admin/gst/settings')
      .set('Origin', origin)
      .send({ ...gst, gstNumber: '49-091-851' })
      .expect(400);
    expect(bad.body.message).toMatch(/not a valid GST number/);
    await agent
      .put('/api/admin/gst/settings')
      .set('Origin', origin)
      .send({ ...gst, gstNumber: null })
      .expect(400);

    await agent
      .put('/api/admin/gst/settings')
      .set('Origin', origin)
      .send({ ...gst, gstNumber: '49-091-850' })
      .expect(200);
    const after = await agent.get('/api/admin/gst/settings').expect(200);
    expect(after.body).toEqual({ ...gst, gstNumber: '49091850' });
  });
});

describe('documents', () => {
  it('the buyer opens their own with the purchase’s proof; nobody opens another’s', async () => {
    await saveGstSettings(env.database.db, gst);
    const mine = await paid(50_000);
    const theirs = await paid(3_000);
    const status = purchaseStatusSchema.parse(
      (await request(api.app).get(`/api/purchases/${mine.sessionId}`).expect(200)).body,
    );
    expect(status.documents).toHaveLength(1);
    const link = status.documents![0]!;
    expect(link.title).toMatch(/^Tax invoice INV-\d{6}$/);
    const pdf = await request(api.app)
      .get(link.url)
      .buffer(true)
      .parse(binaryBody)
      .expect(200)
      .expect('Content-Type', 'application/pdf');
    expect(await pdfText(pdf.body as Buffer)).toContain('GST number: 49-091-850');

    // Another purchase's document through my session, a made-up id, a wrong session: all 404.
    await request(api.app)
      .get(`/api/purchases/${mine.sessionId}/documents/${theirs.invoice.id}.pdf`)
      .expect(404);
    await request(api.app).get(`/api/purchases/${mine.sessionId}/documents/${randomUUID()}.pdf`).expect(404);
    await request(api.app).get(`/api/purchases/cs_test_guess/documents/${mine.invoice.id}.pdf`).expect(404);
    await request(api.app).get(`/api/purchases/${mine.sessionId}/documents/..%2f..%2fetc.pdf`).expect(404);
    // The owner opens any.
    await agent
      .get(`/api/admin/documents/${theirs.invoice.id}.pdf`)
      .expect(200)
      .expect('Content-Type', 'application/pdf');
    const listed = await agent.get(`/api/admin/purchases/${theirs.id}/documents`).expect(200);
    expect(listed.body).toHaveLength(1);
  });
});

describe('offline refunds', () => {
  it('issue a credit note for the amount, refuse more than was paid, and end refunded in full', async () => {
    await saveGstSettings(env.database.db, gst);
    const { id } = await paid(10_000, { source: 'offline' });
    const part = await agent
      .post(`/api/admin/purchases/${id}/refund`)
      .set('Origin', origin)
      .send({ amountCents: 2_300, reason: 'One video would not play' })
      .expect(201);
    expect(part.body).toMatchObject({ refundedCents: 2_300, status: 'paid' });
    const [note] = await env.database.db
      .select()
      .from(taxDocuments)
      .where(eq(taxDocuments.id, part.body.creditNoteId));
    expect(note).toMatchObject({ kind: 'credit-note', totalCents: 2_300, gstCents: 300 });

    const tooMuch = await agent
      .post(`/api/admin/purchases/${id}/refund`)
      .set('Origin', origin)
      .send({ amountCents: 7_701 })
      .expect(400);
    expect(tooMuch.body.message).toContain('NZ$77.00 is left to refund');
    await agent
      .post(`/api/admin/purchases/${id}/refund`)
      .set('Origin', origin)
      .send({ amountCents: -5 })
      .expect(400);

    // Two refunds at once that together exceed the payment: one is issued, the other refused.
    const both = await Promise.all(
      [5_000, 5_000].map((amountCents) =>
        agent.post(`/api/admin/purchases/${id}/refund`).set('Origin', origin).send({ amountCents }),
      ),
    );
    expect(both.map((res) => res.status).sort()).toEqual([201, 400]);
    await agent
      .post(`/api/admin/purchases/${id}/refund`)
      .set('Origin', origin)
      .send({ amountCents: 2_700 })
      .expect(201);
    const [row] = await env.database.db.select().from(purchases).where(eq(purchases.id, id));
    expect(row!.status).toBe('refunded');
    await agent
      .post(`/api/admin/purchases/${id}/refund`)
      .set('Origin', origin)
      .send({ amountCents: 1 })
      .expect(409);

    const card = await paid(5_000);
    await agent
      .post(`/api/admin/purchases/${card.id}/refund`)
      .set('Origin', origin)
      .send({ amountCents: 100 })
      .expect(409);
  });
});

describe('refunds of payments recorded before documents existed', () => {
  it('issue the missing invoice late, dated and reported on the payment’s day, then the credit note', async () => {
    await saveGstSettings(env.database.db, gst);
    const legacy = async () => {
      const video = await createVideo(env.database.db, { priceCents: 8_000, title: 'Trio for Zoë' });
      const id = randomUUID();
      await createPurchase(env.database.db, {
        id,
        videoId: video.id,
        checkoutSessionId: `offline_${id}`,
        source: 'offline',
        status: 'paid',
        paidAt: new Date('2025-03-05T01:00:00Z'),
        amountCents: 8_000,
      });
      return id;
    };
    const documentsOf = (id: string) =>
      env.database.db
        .select()
        .from(taxDocuments)
        .where(eq(taxDocuments.purchaseId, id))
        .orderBy(taxDocuments.number);

    // More than was paid: refused, and the late invoice goes back with its number.
    const refused = await legacy();
    const before = await env.database.db.$count(taxDocuments);
    await agent
      .post(`/api/admin/purchases/${refused}/refund`)
      .set('Origin', origin)
      .send({ amountCents: 8_001 })
      .expect(400);
    expect(await env.database.db.$count(taxDocuments)).toBe(before);

    const id = await legacy();
    const refund = await agent
      .post(`/api/admin/purchases/${id}/refund`)
      .set('Origin', origin)
      .send({ amountCents: 2_300 })
      .expect(201);
    const [invoice, note] = await documentsOf(id);
    expect(invoice).toMatchObject({ kind: 'invoice', totalCents: 8_000, paymentMethod: 'offline' });
    expect(invoice!.content).toMatchObject({ issuedOn: '2025-03-05', issuedLateOn: today() });
    expect(note).toMatchObject({ id: refund.body.creditNoteId, kind: 'credit-note', totalCents: 2_300 });
    expect(note!.number).toBe(invoice!.number + 1);
    const numbers = (await env.database.db.select({ number: taxDocuments.number }).from(taxDocuments))
      .map((row) => row.number)
      .sort((a, b) => a - b);
    expect(numbers).toEqual(numbers.map((_, index) => index + 1));

    // The sale stays in the period it was paid in; the refund is in today's.
    const march = gstReportSchema.parse(
      (await agent.get('/api/admin/gst/report?from=2025-03-05&to=2025-03-05').expect(200)).body,
    );
    expect(march.total).toMatchObject({ salesCents: 8_000, refundsCents: 0, invoices: 1 });
    const pdf = await agent
      .get(`/api/admin/documents/${invoice!.id}.pdf`)
      .buffer(true)
      .parse(binaryBody)
      .expect(200);
    const text = await pdfText(pdf.body as Buffer);
    expect(text).toContain('Date: 5 March 2025');
    expect(text).toMatch(/Issued late, on \d{1,2} [A-Z][a-z]+ 20\d\d: paid before this shop issued invoices/);
  });
});

describe('the GST report and the Xero import', () => {
  it('net refunds against sales, and the Xero CSV’s totals match the report to the cent', async () => {
    await saveGstSettings(env.database.db, gst);
    await env.database.db.delete(taxDocuments);
    await env.database.db.delete(stripePayouts);
    const a = await paid(15_000);
    await paid(50_000, { buyerName: '=HYPERLINK("https://evil.example")' });
    const c = await paid(120_000, { source: 'offline' });
    await paid(999);
    // A partial refund of the offline one, and one of the card payment.
    await agent
      .post(`/api/admin/purchases/${c.id}/refund`)
      .set('Origin', origin)
      .send({ amountCents: 20_000 })
      .expect(201);
    await transitionPurchase(env.database.db, a.id, null, { refundedCents: 4_600 }, { gst });

    const period = `from=${today()}&to=${today()}`;
    const report = gstReportSchema.parse(
      (await agent.get(`/api/admin/gst/report?${period}`).expect(200)).body,
    );
    expect(report.total).toMatchObject({
      salesCents: 15_000 + 50_000 + 120_000 + 999,
      refundsCents: 24_600,
      netCents: 15_000 + 50_000 + 120_000 + 999 - 24_600,
      invoices: 4,
      creditNotes: 2,
    });
    // Each document's GST rounded once: 1957 + 6522 + 15652 + 130; refunds 2609 + 600.
    expect(report.total.salesGstCents).toBe(1957 + 6522 + 15_652 + 130);
    expect(report.total.refundsGstCents).toBe(2609 + 600);
    expect(report.total.netGstCents).toBe(1957 + 6522 + 15_652 + 130 - 2609 - 600);
    expect(report.byMethod.map((row) => row.method).sort()).toEqual(['card', 'offline']);
    expect(report.byMethod.find((row) => row.method === 'offline')).toMatchObject({
      salesCents: 120_000,
      refundsCents: 20_000,
      netCents: 100_000,
    });

    const csv = await agent.get(`/api/admin/gst/report.csv?${period}`).expect(200);
    expect(csv.text).toContain('"Total",4,1859.99,242.61,2,246.00,32.09,1613.99,210.52');
    // No payouts read yet: an empty list and a zero total.
    expect(report).toMatchObject({ payouts: [], payoutsCents: 0, payoutsReadAt: null });
    expect(csv.text).toContain('"Total paid or on the way (NZD)",,,"NZD",0.00');

    const xero = await agent
      .get(`/api/admin/gst/xero.csv?${period}`)
      .expect(200)
      .expect('Content-Type', /text\/csv/);
    const rows = xero.text.trim().split('\r\n');
    expect(rows[0]).toBe(
      '"*ContactName","EmailAddress","POAddressLine1","POAddressLine2","POAddressLine3","POAddressLine4","POCity","PORegion","POPostalCode","POCountry","*InvoiceNumber","Reference","*InvoiceDate","*DueDate","Total","InventoryItemCode","*Description","*Quantity","*UnitAmount","Discount","*AccountCode","*TaxType","TaxAmount","TrackingName1","TrackingOption1","TrackingName2","TrackingOption2","Currency","BrandingTheme"',
    );
    const parsed = rows.slice(1).map((row) => parseCsvRow(row));
    const unit = parsed.reduce((sum, row) => sum + Math.round(Number(row[18]) * 100), 0);
    const tax = parsed.reduce((sum, row) => sum + Math.round(Number(row[22]) * 100), 0);
    expect(unit).toBe(report.total.netCents);
    expect(tax).toBe(report.total.netGstCents);
    expect(parsed).toHaveLength(6);
    expect(parsed.every((row) => row.length === 29)).toBe(true);
    // Credit notes are negative lines; the formula-looking buyer name is escaped.
    expect(parsed.filter((row) => row[10]!.startsWith('CN-')).every((row) => Number(row[18]) < 0)).toBe(true);
    expect(xero.text).toContain(`"'=HYPERLINK(""https://evil.example"")"`);
    expect(
      parsed.every((row) => row[21] === '15% GST on Income' && row[20] === '200' && row[27] === 'NZD'),
    ).toBe(true);
  });

  it('show the period’s Stripe payouts as the worker read them, by arrival day, beside the figures', async () => {
    const yesterday = new Date(Date.now() - 86_400_000);
    const nzDay = (at: Date) => new Intl.DateTimeFormat('en-CA', { timeZone: 'Pacific/Auckland' }).format(at);
    let made = 0;
    // Listed by arrival day, then in the order Stripe made them.
    const payout = (id: string, arrivalOn: string, status: string, amountCents: number) => ({
      id,
      arrivalOn,
      status,
      amountCents,
      currency: 'nzd',
      createdAt: new Date(yesterday.getTime() + ++made * 1000),
    });
    await env.database.db
      .insert(stripePayouts)
      .values([
        payout('po_today_paid', today(), 'paid', 123_456),
        payout('po_today_transit', today(), 'in_transit', 20_000),
        payout('po_today_failed', today(), 'failed', 5_000),
        payout('po_yesterday', nzDay(yesterday), 'paid', 77_700),
      ]);
    const period = `from=${today()}&to=${today()}`;
    const report = gstReportSchema.parse(
      (await agent.get(`/api/admin/gst/report?${period}`).expect(200)).body,
    );
    expect(report.payouts.map((row) => [row.id, row.status, row.amountCents])).toEqual([
      ['po_today_paid', 'paid', 123_456],
      ['po_today_transit', 'in_transit', 20_000],
      ['po_today_failed', 'failed', 5_000],
    ]);
    // A failed payout never reaches the bank (or comes back): left out of the total.
    expect(report.payoutsCents).toBe(143_456);
    expect(Date.now() - Date.parse(report.payoutsReadAt!)).toBeLessThan(60_000);
    const csv = (await agent.get(`/api/admin/gst/report.csv?${period}`).expect(200)).text;
    expect(csv).toContain(
      `"Arrival date","Status","Payout","Currency","Amount"\r\n"${today()}","paid","po_today_paid","NZD",1234.56\r\n`,
    );
    expect(csv).toContain(`"${today()}","failed","po_today_failed","NZD",50.00`);
    expect(csv).not.toContain('po_yesterday');
    expect(csv).toContain('"Total paid or on the way (NZD)",,,"NZD",1434.56');
  });
});

/** One CSV row's cells (quoted cells unquoted). */
function parseCsvRow(row: string): string[] {
  const cells: string[] = [];
  let at = 0;
  while (at <= row.length) {
    if (row[at] === '"') {
      let value = '';
      at++;
      for (;;) {
        const quote = row.indexOf('"', at);
        if (row[quote + 1] === '"') {
          value += row.slice(at, quote + 1);
          at = quote + 2;
        } else {
          value += row.slice(at, quote);
          at = quote + 2;
          break;
        }
      }
      cells.push(value);
    } else {
      const comma = row.indexOf(',', at);
      const end = comma === -1 ? row.length : comma;
      cells.push(row.slice(at, end));
      at = end + 1;
    }
  }
  return cells;
}

describe('the buyer’s library', () => {
  it('lists and opens the signed-in buyer’s own documents only', async () => {
    const { buyerSessions } = await import('@app/shared/db');
    const { hashSecret, newSecret } = await import('@app/shared/buyer-library');
    await saveGstSettings(env.database.db, gst);
    const mine = await paid(2_500);
    const theirs = await paid(2_600);
    const [purchase] = await env.database.db.select().from(purchases).where(eq(purchases.id, mine.id));
    const secret = newSecret();
    await env.database.db.insert(buyerSessions).values({
      idHash: hashSecret(secret),
      email: purchase!.buyerEmail.toUpperCase(),
      expiresAt: new Date(Date.now() + 3_600_000),
    });
    const cookie = `buyer_sid=${secret}`;
    const library = await request(api.app).get('/api/my-videos').set('Cookie', cookie).expect(200);
    expect(library.body.documents).toHaveLength(1);
    expect(library.body.documents[0].url).toBe(`/api/my-videos/documents/${mine.invoice.id}.pdf`);
    await request(api.app)
      .get(library.body.documents[0].url)
      .set('Cookie', cookie)
      .expect(200)
      .expect('Content-Type', 'application/pdf');
    await request(api.app)
      .get(`/api/my-videos/documents/${theirs.invoice.id}.pdf`)
      .set('Cookie', cookie)
      .expect(404);
    await request(api.app).get(`/api/my-videos/documents/${mine.invoice.id}.pdf`).expect(401);
  });
});
