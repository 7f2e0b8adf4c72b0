import { formatEventDate, formatMoney } from '../../contracts/format.ts';
import type { GstSettings } from '../../contracts/schemas/gst.ts';
import { formatGstNumber } from '../../contracts/gst/ird-number.ts';
import { gstIncluded, ratePercent, supplyTier, type SupplyTier } from '../../contracts/gst/money.ts';

// What a document says, decided once when it is issued and kept in tax_documents.content: the PDF and
// the e-mail's text are both drawn from it, so they always agree. Which lines appear follows Inland
// Revenue's tiers (money.ts); a business that is not GST-registered issues receipts with no GST at all.

export interface DocumentLine {
  description: string;
  /** GST-inclusive. */
  amountCents: number;
}

export interface DocumentContent {
  kind: 'invoice' | 'credit-note';
  /** "Tax invoice", "Receipt" or "Credit note". */
  title: string;
  /** "INV-000123" / "CN-000124": one sequence, a prefix per kind. */
  reference: string;
  /** New Zealand calendar day of issue, yyyy-MM-dd; for an invoice issued late, the day of the payment. */
  issuedOn: string;
  /**
   * An invoice issued late (decision 029): the purchase was paid before documents existed and is
   * being refunded, so its invoice was issued then, numbered then, and dated with the payment's day.
   * The day it was issued. Absent on documents issued on time (and on every one issued before this).
   */
  issuedLateOn?: string;
  tier: SupplyTier;
  seller: { name: string; address: string; gstNumber: string | null };
  /** Only over NZ$1,000: the buyer's name and how to reach them. */
  buyer: { name: string; email: string; address: string | null } | null;
  lines: DocumentLine[];
  totalCents: number;
  /** Null when no GST line is printed (not registered, or up to NZ$200). */
  gst: { cents: number; rate: string } | null;
  /** A credit note: the document it corrects. */
  corrects: { reference: string; issuedOn: string } | null;
  reason: string | null;
  paymentMethod: string;
}

export const documentPrefix = (kind: DocumentContent['kind']) => (kind === 'invoice' ? 'INV' : 'CN');

/** At least six digits; issue.ts writes the same in SQL when it numbers a document. */
export const documentReference = (kind: DocumentContent['kind'], number: number) =>
  `${documentPrefix(kind)}-${String(number).padStart(6, '0')}`;

const nzDay = new Intl.DateTimeFormat('en-CA', {
  timeZone: 'Pacific/Auckland',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});
export const nzCalendarDay = (at: Date) => nzDay.format(at);

interface Issue {
  number: number;
  issuedAt: Date;
  settings: GstSettings;
  buyer: { name: string; email: string; address: string | null };
  paymentMethod: string;
}

function gstPart(settings: GstSettings, totalCents: number, tier: SupplyTier) {
  if (!settings.registered) return { gstCents: 0, gst: null, gstNumber: null };
  const gstCents = gstIncluded(totalCents, settings.rateBasisPoints);
  return {
    // The GST is always recorded (the report needs it); it is printed from NZ$200 up.
    gstCents,
    gst: tier >= 2 ? { cents: gstCents, rate: ratePercent(settings.rateBasisPoints) } : null,
    gstNumber: tier >= 2 && settings.gstNumber ? formatGstNumber(settings.gstNumber) : null,
  };
}

/**
 * The invoice (or receipt) of a paid purchase; lines are GST-inclusive and add up to the total.
 * `issuedLateAt`: issued then for a payment made at `issuedAt` (whose day the document carries).
 */
export function invoiceContent(
  issue: Issue & { lines: DocumentLine[]; totalCents: number; issuedLateAt?: Date },
): {
  content: DocumentContent;
  gstCents: number;
} {
  const tier = supplyTier(issue.totalCents);
  const { gstCents, gst, gstNumber } = gstPart(issue.settings, issue.totalCents, tier);
  return {
    gstCents,
    content: {
      kind: 'invoice',
      title: issue.settings.registered && tier >= 2 ? 'Tax invoice' : 'Receipt',
      reference: documentReference('invoice', issue.number),
      issuedOn: nzCalendarDay(issue.issuedAt),
      ...(issue.issuedLateAt && { issuedLateOn: nzCalendarDay(issue.issuedLateAt) }),
      tier,
      seller: { name: issue.settings.legalName, address: issue.settings.address, gstNumber },
      buyer: tier === 3 ? issue.buyer : null,
      lines: issue.lines,
      totalCents: issue.totalCents,
      gst,
      corrects: null,
      reason: null,
      paymentMethod: issue.paymentMethod,
    },
  };
}

/**
 * A credit note for `amountCents` given back against `original`. Its fields follow the original's
 * tier (the supply it corrects), and its GST is the refunded amount's own share, rounded once.
 */
export function creditNoteContent(
  issue: Issue & { amountCents: number; original: DocumentContent; reason: string | null },
): { content: DocumentContent; gstCents: number } {
  const tier = issue.original.tier;
  const { gstCents, gst, gstNumber } = gstPart(issue.settings, issue.amountCents, tier);
  return {
    gstCents,
    content: {
      kind: 'credit-note',
      title: 'Credit note',
      reference: documentReference('credit-note', issue.number),
      issuedOn: nzCalendarDay(issue.issuedAt),
      tier,
      seller: { name: issue.settings.legalName, address: issue.settings.address, gstNumber },
      buyer: tier === 3 ? issue.buyer : null,
      lines: [{ description: `Refund against ${issue.original.reference}`, amountCents: issue.amountCents }],
      totalCents: issue.amountCents,
      gst,
      corrects: { reference: issue.original.reference, issuedOn: issue.original.issuedOn },
      reason: issue.reason,
      paymentMethod: issue.paymentMethod,
    },
  };
}

/** The document as lines of text: the PDF prints these, the e-mail's plain part carries them. */
export function documentLines(
  content: DocumentContent,
): Array<{ text: string; style?: 'title' | 'head' | 'total' }> {
  const credit = content.kind === 'credit-note';
  const out: Array<{ text: string; style?: 'title' | 'head' | 'total' }> = [
    { text: `${content.title} ${content.reference}`, style: 'title' },
    { text: content.seller.name, style: 'head' },
    ...(content.seller.address ? content.seller.address.split(/\r?\n/).map((text) => ({ text })) : []),
    ...(content.seller.gstNumber ? [{ text: `GST number: ${content.seller.gstNumber}` }] : []),
    { text: `Date: ${formatEventDate(content.issuedOn)}` },
    ...(content.issuedLateOn
      ? [
          {
            text: `Issued late, on ${formatEventDate(content.issuedLateOn)}: paid before this shop issued invoices`,
          },
        ]
      : []),
    ...(content.corrects
      ? [{ text: `Corrects: ${content.corrects.reference} of ${formatEventDate(content.corrects.issuedOn)}` }]
      : []),
  ];
  if (content.buyer) {
    out.push({ text: 'To:', style: 'head' }, { text: content.buyer.name }, { text: content.buyer.email });
    if (content.buyer.address) out.push(...content.buyer.address.split(/\r?\n/).map((text) => ({ text })));
  }
  out.push({ text: credit ? 'Refunded:' : 'Sold:', style: 'head' });
  for (const line of content.lines)
    out.push({ text: `${line.description}: ${formatMoney(line.amountCents)}` });
  if (content.reason) out.push({ text: `Reason: ${content.reason}` });
  out.push({
    text: `${credit ? 'Total refunded' : 'Total'}${content.gst ? ' (includes GST)' : ''}: ${formatMoney(content.totalCents)}`,
    style: 'total',
  });
  if (content.gst)
    out.push({
      text: `${credit ? 'GST refunded' : 'GST included'} (${content.gst.rate}): ${formatMoney(content.gst.cents)}`,
    });
  out.push({
    text: `Paid by: ${content.paymentMethod === 'offline' ? 'bank transfer or other' : 'card or wallet (Stripe)'}`,
  });
  return out;
}

export const documentText = (content: DocumentContent) =>
  documentLines(content)
    .map((line) => line.text)
    .join('\n');

export const documentFileName = (content: DocumentContent) =>
  `${content.title.toLowerCase().replaceAll(' ', '-')}-${content.reference}.pdf`;
