import { useState } from 'react';
import { Download } from 'lucide-react';
import { formatMoney } from '@app/shared/format';
import type { AdminPurchase } from '@app/shared/schemas';
import { Button } from '../../components/ui/button.tsx';
import { Dialog, DialogContent } from '../../components/ui/dialog.tsx';
import { PageNav } from '../../components/ui/page-nav.tsx';
import { AdminLayout } from '../admin-shell/admin-layout.tsx';
import { AddButton } from '../admin-shell/row-actions.tsx';
import { OfflineForm } from './offline-form.tsx';
import { PurchaseFilterBar, type PurchaseFilters } from './purchase-filters.tsx';
import { PurchaseTable } from './purchase-table.tsx';
import { usePurchases, useRefreshPurchases } from './queries.ts';
import { RefundForm } from './refund-form.tsx';
import { PaidTotals, ReminderCounts } from './sales-figures.tsx';

export default function AdminSalesPage() {
  const refresh = useRefreshPurchases();
  // ?videoId= (from a removal request): the sales of that video, for the refund decision.
  const [filters, setFilters] = useState<PurchaseFilters>(() => ({
    status: '',
    videoId: new URLSearchParams(window.location.search).get('videoId') ?? '',
    q: '',
    from: '',
    to: '',
  }));
  const [page, setPage] = useState(1);
  const [offlineOpen, setOfflineOpen] = useState(false);
  const [refunding, setRefunding] = useState<AdminPurchase | null>(null);
  const params = new URLSearchParams(Object.entries(filters).filter(([, value]) => value));
  const list = usePurchases(params, page);
  const change = (name: keyof PurchaseFilters, value: string) => {
    setFilters((current) => ({ ...current, [name]: value }));
    setPage(1);
  };
  const pages = list.data ? Math.max(1, Math.ceil(list.data.total / list.data.pageSize)) : 1;

  return (
    <AdminLayout
      title="Sales"
      actions={
        <>
          <Button asChild size="sm" variant="secondary">
            <a href={`/api/admin/purchases.csv?${params}`}>
              <Download className="size-4" aria-hidden /> CSV
            </a>
          </Button>
          <Button asChild size="sm" variant="secondary">
            <a href="/admin/gst">GST and Xero</a>
          </Button>
          <AddButton onClick={() => setOfflineOpen(true)}>Record offline payment</AddButton>
        </>
      }
    >
      <PaidTotals />
      <ReminderCounts />
      <PurchaseFilterBar filters={filters} onChange={change} />
      {list.data && (
        <p className="mt-4 text-sm text-zinc-400">
          {list.data.total} {list.data.total === 1 ? 'purchase matches' : 'purchases match'} · paid{' '}
          {formatMoney(list.data.totals.paidCents)} ({list.data.totals.paidCount}) · refunded{' '}
          {formatMoney(list.data.totals.refundedCents)}
        </p>
      )}
      <PurchaseTable list={list} onRefund={setRefunding} />
      <PageNav label="Purchase pages" page={page} pageCount={pages} onPage={setPage} />
      <Dialog open={refunding !== null} onOpenChange={(open) => !open && setRefunding(null)}>
        {refunding && (
          <DialogContent
            title="Refund offline payment"
            description={`Give back part or all of ${formatMoney(refunding.amountCents)} paid by ${refunding.buyerName}; the buyer is e-mailed a credit note. A full refund removes their access.`}
          >
            <RefundForm
              purchase={refunding}
              onDone={() => {
                setRefunding(null);
                void refresh();
              }}
            />
          </DialogContent>
        )}
      </Dialog>
      <Dialog open={offlineOpen} onOpenChange={setOfflineOpen}>
        {offlineOpen && (
          <DialogContent
            title="Record offline payment"
            description="For a payment made by bank transfer or cash; the buyer gets their download link by e-mail."
          >
            <OfflineForm
              onDone={() => {
                setOfflineOpen(false);
                // The sale is recorded by a job: the list asks again a second later.
                setTimeout(() => void refresh(), 1_000);
              }}
            />
          </DialogContent>
        )}
      </Dialog>
    </AdminLayout>
  );
}
