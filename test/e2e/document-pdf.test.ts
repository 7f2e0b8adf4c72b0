import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { taxDocuments } from '@app/shared/db';
import { transitionPurchase } from '@app/shared/sales';
import { createPurchase, createVideo } from '../support/factories.ts';
import { pdfText } from '../support/pdf-text.ts';
import { useTestWorld } from '../support/world.ts';

// The document PDF's font ships in an npm package and is found by resolving it (shared/src/gst/pdf.ts):
// the built api and worker bundles, which run from their dist folders, must find it as the source does.

const { env, api, producer, smtp } = useTestWorld({
  processes: { api: true, worker: true },
  producer: true,
  smtp: true,
});

const gst = {
  registered: true,
  gstNumber: '49091850',
  legalName: 'Whānau Dance Studio Limited',
  address: 'Ōtautahi Christchurch',
  rateBasisPoints: 1500,
};

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
