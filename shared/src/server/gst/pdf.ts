import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { create as parseFont, type Font } from 'fontkit';
import PDFDocument from 'pdfkit';
import { documentLines, type DocumentContent } from './document.ts';

// The document as an A4 PDF in DejaVu Sans, embedded (pdfkit keeps only the glyphs used). pdfkit's
// built-in Helvetica covers Windows-1252 only, so "Māia" would print as "Maia"; DejaVu covers the
// Latin, Greek and Cyrillic alphabets and more. The files ship inside the `dejavu-fonts-ttf` npm
// package (Bitstream Vera licence: free to use, embed and redistribute). They are found by resolving
// the package, which gives the same folder from the source and from the api's and worker's bundles
// (docs/decisions/001), and are read and parsed once per process, on the first document.

type FontFace = 'regular' | 'bold';
const FONT_FILES: Record<FontFace, string> = {
  regular: 'dejavu-fonts-ttf/ttf/DejaVuSans.ttf',
  bold: 'dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf',
};

let fonts: Record<FontFace, Font> | undefined;

function loadFont(file: string): Font {
  const parsed = parseFont(readFileSync(createRequire(import.meta.url).resolve(file)));
  if (!('hasGlyphForCodePoint' in parsed)) throw new Error(`${file} is a font collection, not a font`);
  return parsed;
}

function documentFonts(): Record<FontFace, Font> {
  fonts ??= { regular: loadFont(FONT_FILES.regular), bold: loadFont(FONT_FILES.bold) };
  return fonts;
}

/**
 * The text as the font can print it: composed (NFC), so "Māia" typed with a combining macron uses the
 * font's own "ā". A letter the font lacks loses its accent if the bare letter exists (a rare
 * combination with no precomposed glyph), else prints as "?" rather than as an empty box.
 */
function printableIn(font: Font, text: string): string {
  let out = '';
  for (const char of text.normalize('NFC')) {
    const code = char.codePointAt(0)!;
    if (font.hasGlyphForCodePoint(code)) out += char;
    else if (/\s/.test(char)) out += ' ';
    else {
      const bare = char.normalize('NFD').replace(/\p{M}/gu, '');
      out += bare && [...bare].every((part) => font.hasGlyphForCodePoint(part.codePointAt(0)!)) ? bare : '?';
    }
  }
  return out;
}

export function renderDocumentPdf(
  content: DocumentContent,
  options: { compress?: boolean } = {},
): Promise<Buffer> {
  const { regular, bold } = documentFonts();
  const doc = new PDFDocument({
    size: 'A4',
    // No default font: pdfkit would load Helvetica for every document (parsing its metrics, a tenth of
    // a render) though nothing is printed in it. Its types allow only a font name here.
    font: null as unknown as string,
    margin: 56,
    compress: options.compress ?? true,
    info: { Title: `${content.title} ${content.reference}`, Author: content.seller.name },
  });
  // pdfkit takes a parsed fontkit font as well as a file (PDFFontFactory.open); its types list files only.
  doc.registerFont('body', regular as unknown as Buffer);
  doc.registerFont('bold', bold as unknown as Buffer);
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  for (const line of documentLines(content)) {
    if (line.style === 'title')
      doc.font('bold').fontSize(18).text(printableIn(bold, line.text)).moveDown(0.6);
    else if (line.style === 'head')
      doc.moveDown(0.4).font('bold').fontSize(11).text(printableIn(bold, line.text));
    else if (line.style === 'total')
      doc.moveDown(0.4).font('bold').fontSize(12).text(printableIn(bold, line.text));
    else doc.font('body').fontSize(11).text(printableIn(regular, line.text));
  }
  doc.end();
  return done;
}
