import { describe, expect, it } from 'vitest';
import { pdfText } from '../../../../test/support/pdf-text.ts';
import { invoiceContent } from './document.ts';
import { renderDocumentPdf } from './pdf.ts';

const settings = {
  registered: true,
  gstNumber: '49091850',
  legalName: 'Whānau Dance Studio Limited',
  address: '12 Example Street\nŌtautahi Christchurch 8011',
  rateBasisPoints: 1500,
};

const invoice = (buyerName: string, description: string) =>
  invoiceContent({
    number: 7,
    issuedAt: new Date('2026-03-02T01:00:00Z'),
    settings,
    buyer: { name: buyerName, email: 'maia@example.nz', address: '5 Stage Lane\nTaupō 3330' },
    paymentMethod: 'card',
    lines: [{ description, amountCents: 120_000 }],
    totalCents: 120_000,
  }).content;

describe('document PDF', () => {
  it('prints te reo Māori macrons and other diacritics as typed', async () => {
    const text = await pdfText(await renderDocumentPdf(invoice('Māia Ngata', 'Solo for Zoë')));
    for (const expected of [
      'Whānau Dance Studio Limited',
      'Ōtautahi Christchurch 8011',
      'Māia Ngata',
      'Taupō 3330',
      'Solo for Zoë: NZ$1,200.00',
      'Tax invoice INV-000007',
    ])
      expect(text).toContain(expected);
  });

  it('composes a macron typed as a combining mark, and marks only what the font truly lacks', async () => {
    const text = await pdfText(await renderDocumentPdf(invoice('Ma\u0304ia Ngata', 'Duet 漢字 ✓')));
    expect(text).toContain('Māia Ngata');
    // DejaVu Sans has the check mark but no Chinese characters.
    expect(text).toContain('Duet ?? ✓');
  });
});
