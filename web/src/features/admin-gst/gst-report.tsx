import { useState } from 'react';
import { Download } from 'lucide-react';
import { formatDateTime, formatEventDate, formatMoney } from '@app/shared/format';
import type { GstReport, GstReportPayout, GstReportRow } from '@app/shared/schemas';
import { Button } from '../../components/ui/button.tsx';
import { Input, Label } from '../../components/ui/input.tsx';
import { Table, TableCell, TableRow } from '../../components/ui/table.tsx';
import { errorMessage } from '../../lib/api.ts';
import { useGstReport } from './queries.ts';

const methodNames: Record<string, string> = {
  card: 'Card (Stripe)',
  offline: 'Offline',
  afterpay_clearpay: 'Afterpay / Clearpay',
  klarna: 'Klarna',
  all: 'Total',
};

/** This month so far, in New Zealand days: the owner picks the GST period's own dates. */
function thisMonth(now = new Date()) {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Pacific/Auckland' }).format(now);
  return { from: `${today.slice(0, 8)}01`, to: today };
}

function ReportRow({ row }: { row: GstReportRow }) {
  const total = row.method === 'all';
  return (
    <TableRow className={total ? 'font-semibold text-white' : undefined}>
      <TableCell>{methodNames[row.method] ?? row.method}</TableCell>
      <TableCell>
        {formatMoney(row.salesCents)} <span className="text-xs text-zinc-500">({row.invoices})</span>
      </TableCell>
      <TableCell>{formatMoney(row.salesGstCents)}</TableCell>
      <TableCell>
        {formatMoney(row.refundsCents)} <span className="text-xs text-zinc-500">({row.creditNotes})</span>
      </TableCell>
      <TableCell>{formatMoney(row.refundsGstCents)}</TableCell>
      <TableCell>{formatMoney(row.netCents)}</TableCell>
      <TableCell>{formatMoney(row.netGstCents)}</TableCell>
      <TableCell>{row.feesCents === null ? '—' : formatMoney(row.feesCents)}</TableCell>
    </TableRow>
  );
}

const payoutStatuses: Record<string, string> = {
  pending: 'Pending',
  in_transit: 'On its way',
  paid: 'Paid',
  failed: 'Failed (not in the bank)',
  canceled: 'Cancelled',
};

const payoutAmount = (payout: GstReportPayout) =>
  payout.currency === 'nzd'
    ? formatMoney(payout.amountCents)
    : `${(payout.amountCents / 100).toFixed(2)} ${payout.currency.toUpperCase()}`;

/** Stripe's payouts arriving in the period, as the bank statement shows them (the worker reads them hourly). */
function Payouts({ report }: { report: GstReport }) {
  return (
    <section aria-labelledby="gst-payouts-heading" className="mt-6">
      <h3 id="gst-payouts-heading" className="mb-2 font-semibold text-white">
        Stripe payouts to the bank
      </h3>
      {report.payouts.length === 0 ? (
        <p className="text-sm text-zinc-400">
          {report.payoutsReadAt
            ? 'No Stripe payout arrives in this period.'
            : 'No payouts read from Stripe yet: the worker reads them every hour.'}
        </p>
      ) : (
        <Table
          label="Stripe payouts arriving in the period"
          columns={[{ label: 'Arrives' }, { label: 'Status' }, { label: 'Amount', align: 'right' }]}
        >
          {report.payouts.map((payout) => (
            <TableRow key={payout.id}>
              <TableCell>{formatEventDate(payout.arrivalOn)}</TableCell>
              <TableCell>{payoutStatuses[payout.status] ?? payout.status}</TableCell>
              <TableCell className="text-right">{payoutAmount(payout)}</TableCell>
            </TableRow>
          ))}
          <TableRow className="font-semibold text-white">
            <TableCell colSpan={2}>Paid or on the way</TableCell>
            <TableCell className="text-right">{formatMoney(report.payoutsCents)}</TableCell>
          </TableRow>
        </Table>
      )}
      {report.payoutsReadAt && (
        <p className="mt-2 text-xs text-zinc-500">Read from Stripe {formatDateTime(report.payoutsReadAt)}.</p>
      )}
    </section>
  );
}

/** The GST report for a period the owner picks (this month so far to start), with its two CSVs. */
export function GstReportSection() {
  const [period, setPeriod] = useState(thisMonth);
  const query = new URLSearchParams(period).toString();
  const valid = Boolean(period.from && period.to && period.from <= period.to);
  const report = useGstReport(query, valid);
  return (
    <section aria-labelledby="gst-report-heading">
      <h2 id="gst-report-heading" className="mb-3 font-display text-lg font-semibold text-white">
        GST report
      </h2>
      <div className="flex flex-wrap items-end gap-3">
        {(['from', 'to'] as const).map((end) => (
          <div key={end}>
            <Label htmlFor={`gst-${end}`}>{end === 'from' ? 'From' : 'To'}</Label>
            <Input
              id={`gst-${end}`}
              type="date"
              value={period[end]}
              onChange={(event) => setPeriod({ ...period, [end]: event.target.value })}
            />
          </div>
        ))}
        <Button asChild size="sm" variant="secondary" disabled={!valid}>
          <a href={`/api/admin/gst/report.csv?${query}`}>
            <Download className="size-4" aria-hidden /> Report CSV
          </a>
        </Button>
        <Button asChild size="sm" variant="secondary" disabled={!valid}>
          <a href={`/api/admin/gst/xero.csv?${query}`}>
            <Download className="size-4" aria-hidden /> Xero import CSV
          </a>
        </Button>
      </div>
      {!valid ? (
        <p className="mt-4 text-red-300">The period must end after it starts.</p>
      ) : report.isError ? (
        <p className="mt-4 text-red-300">{errorMessage(report.error, 'Could not load the report')}</p>
      ) : !report.data ? (
        <p className="mt-4 text-zinc-400">Loading report...</p>
      ) : (
        <>
          <Table
            label="GST report by payment method"
            className="mt-4"
            tableClassName="min-w-[44rem]"
            columns={[
              { label: 'Payment method' },
              { label: 'Sales (incl. GST)' },
              { label: 'GST on sales' },
              { label: 'Refunds' },
              { label: 'GST on refunds' },
              { label: 'Net' },
              { label: 'Net GST' },
              { label: 'Stripe fees' },
            ]}
          >
            {report.data.byMethod.map((row) => (
              <ReportRow key={row.method} row={row} />
            ))}
            <ReportRow row={report.data.total} />
          </Table>
          <p className="mt-3 text-sm text-zinc-400">
            {report.data.registered
              ? 'GST is 3/23 of each GST-inclusive document, rounded once per document.'
              : 'Not GST-registered: documents carry no GST.'}
            {report.data.feesPending > 0 &&
              ` Stripe’s fee is still being read for ${report.data.feesPending} payment${report.data.feesPending === 1 ? '' : 's'}.`}{' '}
            In Xero: Business › Invoices › Import, choose “Tax inclusive”.
          </p>
          <Payouts report={report.data} />
        </>
      )}
    </section>
  );
}
