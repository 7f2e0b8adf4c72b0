import { describe, expect, it } from 'vitest';
import { invoiceContent, type DocumentContent } from '@app/shared/gst';
import { renderDocumentPdf } from '@app/shared/gst/pdf';
import { pdfText } from '../../../test/support/pdf-text.ts';
import { renderPdf } from './pdf-renderer.ts';

const invoice = (number: number) =>
  invoiceContent({
    number,
    issuedAt: new Date('2026-03-02T01:00:00Z'),
    settings: {
      registered: true,
      gstNumber: '49091850',
      legalName: 'Whānau Dance Studio Limited',
      address: '12 Example Street\nŌtautahi Christchurch 8011',
      rateBasisPoints: 1500,
    },
    buyer: { name: 'Māia Ngata', email: 'maia@example.nz', address: '5 Stage Lane\nTaupō 3330' },
    paymentMethod: 'card',
    lines: [{ description: 'Solo for Zoë', amountCents: 120_000 }],
    totalCents: 120_000,
  }).content;

describe('the worker’s PDF thread', () => {
  it('renders what renderDocumentPdf renders, several at once', async () => {
    const pdfs = await Promise.all([1, 2, 3].map((number) => renderPdf(invoice(number))));
    for (const [index, pdf] of pdfs.entries()) {
      expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
      expect(await pdfText(pdf)).toBe(await pdfText(await renderDocumentPdf(invoice(index + 1))));
    }
    expect(await pdfText(pdfs[2]!)).toContain('Tax invoice INV-000003');
  });

  it('fails a document it cannot render, and renders the next', async () => {
    const broken = { ...invoice(4), lines: null } as unknown as DocumentContent;
    await expect(renderPdf(broken)).rejects.toThrow('PDF rendering failed');
    expect(await pdfText(await renderPdf(invoice(5)))).toContain('Tax invoice INV-000005');
  });
});
