import PDFDocument from 'pdfkit';
import { documentLines, type DocumentContent } from './document.ts';

/**
 * The document as an A4 PDF (pdfkit's built-in Helvetica: nothing to load). The standard fonts cover
 * Windows-1252 only, so letters outside it (macrons) print without their accent rather than as junk.
 */
const printable = (text: string) =>
  text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\x20-\x7e\u00a0-\u00ff\u2013\u2014\u2018\u2019\u201c\u201d\u2022\u2026\u20ac]/g, '?');

export function renderDocumentPdf(
  content: DocumentContent,
  options: { compress?: boolean } = {},
): Promise<Buffer> {
  const doc = new PDFDocument({
    size: 'A4',
    margin: 56,
    compress: options.compress ?? true,
    info: { Title: `${content.title} ${content.reference}`, Author: content.seller.name },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  for (const line of documentLines(content)) {
    if (line.style === 'title')
      doc.font('Helvetica-Bold').fontSize(18).text(printable(line.text)).moveDown(0.6);
    else if (line.style === 'head')
      doc.moveDown(0.4).font('Helvetica-Bold').fontSize(11).text(printable(line.text));
    else if (line.style === 'total')
      doc.moveDown(0.4).font('Helvetica-Bold').fontSize(12).text(printable(line.text));
    else doc.font('Helvetica').fontSize(11).text(printable(line.text));
  }
  doc.end();
  return done;
}
