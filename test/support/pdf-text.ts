import { PDFParse } from 'pdf-parse';

/** The text of a PDF, as a reader would copy it (pdf-parse, a maintained PDF.js wrapper). */
export async function pdfText(data: Buffer | Uint8Array): Promise<string> {
  const parser = new PDFParse({ data: new Uint8Array(data) });
  try {
    return (await parser.getText()).text;
  } finally {
    await parser.destroy();
  }
}
