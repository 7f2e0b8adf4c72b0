import { and, asc, eq, gte, lt, lte, max, sql } from 'drizzle-orm';
import { paymentFees, purchases, stripePayouts, taxDocuments, type Db } from '@app/shared/db';
import { allocate } from '@app/shared/sales';
import type { DocumentContent } from '@app/shared/gst';
import type { GstPeriod, GstReport, GstReportPayout, GstReportRow } from '@app/shared/schemas';
import { csvCell } from '../../http/csv.ts';

// The GST return's figures for a period and its Xero import (decision 029). Both read the issued
// documents, never the purchases: what was invoiced and credited is what the return declares.

/** Documents issued on these New Zealand days (both ends included). */
const inPeriod = (period: GstPeriod) =>
  and(
    gte(taxDocuments.issuedAt, sql`(${period.from}::date)::timestamp at time zone 'Pacific/Auckland'`),
    lt(taxDocuments.issuedAt, sql`(${period.to}::date + 1)::timestamp at time zone 'Pacific/Auckland'`),
  );

const methodColumn = sql<string>`coalesce(${paymentFees.methodType}, ${taxDocuments.paymentMethod})`;

const emptyRow = (method: string): GstReportRow => ({
  method,
  salesCents: 0,
  salesGstCents: 0,
  refundsCents: 0,
  refundsGstCents: 0,
  netCents: 0,
  netGstCents: 0,
  feesCents: null,
  invoices: 0,
  creditNotes: 0,
});

export async function gstReport(db: Db, period: GstPeriod, registered: boolean): Promise<GstReport> {
  const rows = await db
    .select({
      method: methodColumn,
      kind: taxDocuments.kind,
      count: sql<number>`count(*)::int`,
      totalCents: sql<number>`sum(${taxDocuments.totalCents})::int`,
      gstCents: sql<number>`sum(${taxDocuments.gstCents})::int`,
      feesCents: sql<number | null>`sum(${paymentFees.feeCents})::int`,
      feesPending: sql<number>`(count(*) filter (where ${taxDocuments.paymentMethod} = 'card' and ${paymentFees.purchaseId} is null))::int`,
    })
    .from(taxDocuments)
    .leftJoin(paymentFees, eq(paymentFees.purchaseId, taxDocuments.purchaseId))
    .where(inPeriod(period))
    .groupBy(methodColumn, taxDocuments.kind)
    .orderBy(methodColumn);
  const byMethod = new Map<string, GstReportRow>();
  const total = emptyRow('all');
  let feesPending = 0;
  for (const row of rows) {
    const target = byMethod.get(row.method) ?? emptyRow(row.method);
    byMethod.set(row.method, target);
    for (const into of [target, total]) {
      if (row.kind === 'invoice') {
        into.salesCents += row.totalCents;
        into.salesGstCents += row.gstCents;
        into.invoices += row.count;
        // Fees are charged on payments (Stripe keeps its fee when it refunds).
        if (row.feesCents !== null) into.feesCents = (into.feesCents ?? 0) + row.feesCents;
      } else {
        into.refundsCents += row.totalCents;
        into.refundsGstCents += row.gstCents;
        into.creditNotes += row.count;
      }
      into.netCents = into.salesCents - into.refundsCents;
      into.netGstCents = into.salesGstCents - into.refundsGstCents;
    }
    if (row.kind === 'invoice') feesPending += row.feesPending;
  }
  return {
    ...period,
    registered,
    total,
    byMethod: [...byMethod.values()],
    feesPending,
    ...(await periodPayouts(db, period)),
  };
}

/** Payouts whose money the bank has or will have: a failed or canceled one never arrives (or came back). */
const arrives = (payout: GstReportPayout) => payout.status !== 'failed' && payout.status !== 'canceled';

/** Stripe's payouts arriving on the period's days, as the worker last read them (read-stripe-payouts). */
async function periodPayouts(db: Db, period: GstPeriod) {
  const payouts = await db
    .select({
      id: stripePayouts.id,
      arrivalOn: stripePayouts.arrivalOn,
      status: stripePayouts.status,
      amountCents: stripePayouts.amountCents,
      currency: stripePayouts.currency,
    })
    .from(stripePayouts)
    .where(and(gte(stripePayouts.arrivalOn, period.from), lte(stripePayouts.arrivalOn, period.to)))
    .orderBy(asc(stripePayouts.arrivalOn), asc(stripePayouts.createdAt), asc(stripePayouts.id))
    .limit(5_000);
  const [read] = await db.select({ at: max(stripePayouts.readAt) }).from(stripePayouts);
  return {
    payouts,
    payoutsCents: payouts
      .filter((payout) => arrives(payout) && payout.currency === 'nzd')
      .reduce((sum, payout) => sum + payout.amountCents, 0),
    payoutsReadAt: read?.at ? read.at.toISOString() : null,
  };
}

const dollars = (cents: number) => (cents / 100).toFixed(2);
/** A number cell: never quoted or escaped, so a negative amount stays a number for the importer. */
const numberCell = (cents: number) => dollars(cents);

const methodLabels: Record<string, string> = {
  card: 'Card (Stripe)',
  offline: 'Offline (bank transfer, cash)',
  afterpay_clearpay: 'Afterpay / Clearpay',
  klarna: 'Klarna',
};
export const methodLabel = (method: string) => methodLabels[method] ?? method;

/** The report as a spreadsheet: a row per payment method and the total. */
export function gstReportCsv(report: GstReport): string {
  const header = [
    'Payment method',
    'Invoices',
    'Sales incl. GST (NZD)',
    'GST on sales (NZD)',
    'Credit notes',
    'Refunds incl. GST (NZD)',
    'GST on refunds (NZD)',
    'Net incl. GST (NZD)',
    'Net GST (NZD)',
    'Stripe fees (NZD)',
  ];
  const line = (row: GstReportRow, label: string) =>
    [
      csvCell(label),
      row.invoices,
      numberCell(row.salesCents),
      numberCell(row.salesGstCents),
      row.creditNotes,
      numberCell(row.refundsCents),
      numberCell(row.refundsGstCents),
      numberCell(row.netCents),
      numberCell(row.netGstCents),
      row.feesCents === null ? '' : numberCell(row.feesCents),
    ].join(',');
  // Beside the figures, the payouts the bank statement shows for the period (by arrival day).
  const payouts = [
    '',
    csvCell('Stripe payouts arriving in the period'),
    ['Arrival date', 'Status', 'Payout', 'Currency', 'Amount'].map(csvCell).join(','),
    ...report.payouts.map((payout) =>
      [
        csvCell(payout.arrivalOn),
        csvCell(payout.status),
        csvCell(payout.id),
        csvCell(payout.currency.toUpperCase()),
        numberCell(payout.amountCents),
      ].join(','),
    ),
    [csvCell('Total paid or on the way (NZD)'), '', '', csvCell('NZD'), numberCell(report.payoutsCents)].join(
      ',',
    ),
  ];
  return (
    [
      csvCell(`GST report ${report.from} to ${report.to}`),
      header.map(csvCell).join(','),
      ...report.byMethod.map((row) => line(row, methodLabel(row.method))),
      line(report.total, 'Total'),
      ...payouts,
    ].join('\r\n') + '\r\n'
  );
}

/** Xero's sales-invoice import columns, in its template's order (the starred ones are required). */
export const XERO_COLUMNS = [
  '*ContactName',
  'EmailAddress',
  'POAddressLine1',
  'POAddressLine2',
  'POAddressLine3',
  'POAddressLine4',
  'POCity',
  'PORegion',
  'POPostalCode',
  'POCountry',
  '*InvoiceNumber',
  'Reference',
  '*InvoiceDate',
  '*DueDate',
  'Total',
  'InventoryItemCode',
  '*Description',
  '*Quantity',
  '*UnitAmount',
  'Discount',
  '*AccountCode',
  '*TaxType',
  'TaxAmount',
  'TrackingName1',
  'TrackingOption1',
  'TrackingName2',
  'TrackingOption2',
  'Currency',
  'BrandingTheme',
] as const;

/** 31/03/2027: Xero reads dates in the organisation's (New Zealand) order. */
const xeroDate = (day: string) => day.split('-').reverse().join('/');

/**
 * The period's documents in Xero's sales-invoice import layout: a line per document line, amounts
 * GST-inclusive (choose "Tax inclusive" when importing), each line's TaxAmount its share of the
 * document's GST (rounded once per document, shared out so the lines add up to it). A credit note is
 * the same layout with negative amounts, which Xero imports as a credit note.
 */
export async function xeroCsv(db: Db, period: GstPeriod, accountCode: string): Promise<string> {
  const rows = await db
    .select({ document: taxDocuments, buyerName: purchases.buyerName, buyerEmail: purchases.buyerEmail })
    .from(taxDocuments)
    .innerJoin(purchases, eq(purchases.id, taxDocuments.purchaseId))
    .where(inPeriod(period))
    .orderBy(asc(taxDocuments.number))
    .limit(100_000);
  const lines: string[] = [XERO_COLUMNS.map(csvCell).join(',')];
  for (const { document, buyerName, buyerEmail } of rows) {
    const content = document.content as DocumentContent;
    const sign = document.kind === 'credit-note' ? -1 : 1;
    const taxShares = allocate(
      document.gstCents,
      content.lines.map((line) => line.amountCents),
    );
    const address = (content.buyer?.address ?? '').split('\n').filter(Boolean);
    const taxType = document.registered ? '15% GST on Income' : 'No GST';
    content.lines.forEach((line, index) => {
      lines.push(
        [
          csvCell(content.buyer?.name ?? buyerName),
          csvCell(buyerEmail),
          ...[0, 1, 2, 3].map((at) => csvCell(address[at] ?? '')),
          csvCell(''),
          csvCell(''),
          csvCell(''),
          csvCell(''),
          csvCell(content.reference),
          csvCell(content.corrects ? `Corrects ${content.corrects.reference}` : document.purchaseId),
          csvCell(xeroDate(content.issuedOn)),
          csvCell(xeroDate(content.issuedOn)),
          numberCell(sign * document.totalCents),
          csvCell(''),
          csvCell(line.description),
          '1',
          numberCell(sign * line.amountCents),
          '',
          csvCell(accountCode),
          csvCell(taxType),
          numberCell(sign * taxShares[index]!),
          csvCell(''),
          csvCell(''),
          csvCell(''),
          csvCell(''),
          csvCell('NZD'),
          csvCell(''),
        ].join(','),
      );
    });
  }
  return lines.join('\r\n') + '\r\n';
}
