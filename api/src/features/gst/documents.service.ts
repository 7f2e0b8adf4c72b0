import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import { purchases, taxDocuments, type Db } from '@app/shared/db';
import { normalizeEmail } from '@app/shared/buyer-library';
import { documentFileName, type DocumentContent } from '@app/shared/gst';
import type { DocumentLink } from '@app/shared/schemas';
import { notFound } from '../../http/errors.ts';

// Who may open a document's PDF: the buyer with the purchase's proof (its checkout session id, as the
// download page uses), the buyer signed in to their library (same address), and the owner. Anyone
// else gets the same 404 as for a document that does not exist.

const linkOf = (row: typeof taxDocuments.$inferSelect, url: string): DocumentLink => {
  const content = row.content as DocumentContent;
  return {
    id: row.id,
    kind: row.kind,
    title: `${content.title} ${content.reference}`,
    totalCents: row.totalCents,
    issuedOn: content.issuedOn,
    url,
  };
};

/** The documents of a purchase, for its success page (links carry the same session id). */
export async function documentsOfPurchase(
  db: Db,
  purchaseId: string,
  sessionId: string,
): Promise<DocumentLink[]> {
  const rows = await db
    .select()
    .from(taxDocuments)
    .where(eq(taxDocuments.purchaseId, purchaseId))
    .orderBy(asc(taxDocuments.number));
  return rows.map((row) =>
    linkOf(row, `/api/purchases/${encodeURIComponent(sessionId)}/documents/${row.id}.pdf`),
  );
}

/** Every document of the address's purchases, newest first, for the buyer's library. */
export async function documentsOfBuyer(db: Db, email: string): Promise<DocumentLink[]> {
  const rows = await db
    .select({ document: taxDocuments })
    .from(taxDocuments)
    .innerJoin(purchases, eq(purchases.id, taxDocuments.purchaseId))
    .where(sql`lower(btrim(${purchases.buyerEmail})) = ${normalizeEmail(email)}`)
    .orderBy(desc(taxDocuments.number))
    .limit(500);
  return rows.map(({ document }) => linkOf(document, `/api/my-videos/documents/${document.id}.pdf`));
}

export interface DocumentFile {
  body: Buffer;
  fileName: string;
}

async function pdfOf(row: typeof taxDocuments.$inferSelect | undefined): Promise<DocumentFile> {
  if (!row) throw notFound('Document not found');
  const content = row.content as DocumentContent;
  // pdfkit, fontkit and the fonts load on the first PDF asked for, not in every api process.
  const { renderDocumentPdf } = await import('@app/shared/gst/pdf');
  return { body: await renderDocumentPdf(content), fileName: documentFileName(content) };
}

const isUuid = (value: string) =>
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);

/** A document of the purchase made through this checkout session (paid or refunded since). */
export async function documentForSession(
  db: Db,
  sessionId: string,
  documentId: string,
): Promise<DocumentFile> {
  if (!isUuid(documentId)) throw notFound('Document not found');
  const [row] = await db
    .select({ document: taxDocuments })
    .from(taxDocuments)
    .innerJoin(purchases, eq(purchases.id, taxDocuments.purchaseId))
    .where(and(eq(taxDocuments.id, documentId), eq(purchases.checkoutSessionId, sessionId)));
  return pdfOf(row?.document);
}

/** A document of one of this address's purchases. */
export async function documentForBuyer(db: Db, email: string, documentId: string): Promise<DocumentFile> {
  if (!isUuid(documentId)) throw notFound('Document not found');
  const [row] = await db
    .select({ document: taxDocuments })
    .from(taxDocuments)
    .innerJoin(purchases, eq(purchases.id, taxDocuments.purchaseId))
    .where(
      and(
        eq(taxDocuments.id, documentId),
        sql`lower(btrim(${purchases.buyerEmail})) = ${normalizeEmail(email)}`,
      ),
    );
  return pdfOf(row?.document);
}

/** Any document, for the owner. */
export async function documentForOwner(db: Db, documentId: string): Promise<DocumentFile> {
  if (!isUuid(documentId)) throw notFound('Document not found');
  const [row] = await db.select().from(taxDocuments).where(eq(taxDocuments.id, documentId));
  return pdfOf(row);
}

/** The owner's links to the documents of these purchases (a page of the sales screen). */
export async function documentsForPurchases(
  db: Db,
  purchaseIds: string[],
): Promise<Map<string, DocumentLink[]>> {
  const byPurchase = new Map<string, DocumentLink[]>();
  if (purchaseIds.length === 0) return byPurchase;
  const rows = await db
    .select()
    .from(taxDocuments)
    .where(inArray(taxDocuments.purchaseId, purchaseIds))
    .orderBy(asc(taxDocuments.number));
  for (const row of rows) {
    const list = byPurchase.get(row.purchaseId) ?? [];
    list.push(linkOf(row, `/api/admin/documents/${row.id}.pdf`));
    byPurchase.set(row.purchaseId, list);
  }
  return byPurchase;
}

/** The owner's list of a purchase's documents (the sales screen). */
export async function documentsForOwner(db: Db, purchaseId: string): Promise<DocumentLink[]> {
  // An unknown purchase is a 404, not an empty list (a purchase not yet paid has none).
  if ((await db.$count(purchases, eq(purchases.id, purchaseId))) === 0) throw notFound('Purchase not found');
  const rows = await db
    .select()
    .from(taxDocuments)
    .where(eq(taxDocuments.purchaseId, purchaseId))
    .orderBy(asc(taxDocuments.number));
  return rows.map((row) => linkOf(row, `/api/admin/documents/${row.id}.pdf`));
}
