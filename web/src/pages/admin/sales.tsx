import { useState, type FormEvent } from 'react';
import { keepPreviousData, useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { Download, FileText, Mail, Undo2, X } from 'lucide-react';
import { formatDateTime, formatMoney, formatPrice } from '@app/shared/format';
import { Badge } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { PageNav } from '../../components/ui/page-nav.tsx';
import { Dialog, DialogContent } from '../../components/ui/dialog.tsx';
import {
  FilterSelect,
  Input,
  InputField,
  Label,
  moneyInput,
  Select,
  textBinder,
  useTextInput,
} from '../../components/ui/input.tsx';
import { toast } from '../../components/ui/toast-store.ts';
import { Table, TableCell, TableRow } from '../../components/ui/table.tsx';
import { api, errorMessage } from '../../lib/api.ts';
import { AdminLayout } from '../../features/admin-shell/admin-layout.tsx';
import { FormSubmit } from '../../features/admin-shell/form-submit.tsx';
import { AddButton, RowActionButton } from '../../features/admin-shell/row-actions.tsx';
import { purchaseStatuses } from '@app/shared/constants';
import type { AdminPurchase, AdminPurchaseList, AdminShowcase, AdminVideoList } from '@app/shared/schemas';

const statusColour: Record<string, 'success' | 'danger' | 'neutral' | 'default'> = {
  paid: 'success',
  failed: 'danger',
  refunded: 'danger',
};

/** Today's date and the first of this month, as New Zealand calendar days (yyyy-MM-dd). */
function nzDays(now = new Date()) {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Pacific/Auckland' }).format(now);
  return { today, monthStart: `${today.slice(0, 8)}01` };
}

/** Paid sales today, this month and all time, whatever the filters below say. */
function PaidTotals() {
  const { today, monthStart } = nzDays();
  const periods = [
    { label: 'Today', query: `from=${today}&to=${today}` },
    { label: 'This month', query: `from=${monthStart}&to=${today}` },
    { label: 'All time', query: '' },
  ];
  const results = useQueries({
    queries: periods.map(({ query }) => ({
      queryKey: ['/api/admin/purchases', 'totals', query],
      queryFn: () => api.get<AdminPurchaseList>(`/api/admin/purchases?status=paid&pageSize=1&${query}`),
    })),
  });
  return (
    <dl className="grid gap-4 sm:grid-cols-3">
      {periods.map(({ label }, index) => {
        const totals = results[index]?.data?.totals;
        return (
          <div key={label} className="rounded-2xl border border-white/10 bg-stage-800/70 p-5">
            <dt className="text-sm text-zinc-400">{label}</dt>
            <dd className="mt-1 font-display text-2xl font-bold text-spotlight-300">
              {totals ? formatMoney(totals.paidCents) : '—'}
            </dd>
            <dd className="text-xs text-zinc-500">
              {totals
                ? `${totals.paidCount} paid ${totals.paidCount === 1 ? 'sale' : 'sales'} · ${totals.paidItems} ${totals.paidItems === 1 ? 'video' : 'videos'}`
                : ' '}
            </dd>
          </div>
        );
      })}
    </dl>
  );
}

/** Unfinished checkouts: reminders sent, and the carts paid through their recovery link. */
function ReminderCounts() {
  const { data } = useQuery({
    queryKey: ['/api/admin/checkout-reminders'],
    queryFn: () =>
      api.get<{ remindersSent: number; recovered: number; recoveredCents: number }>(
        '/api/admin/checkout-reminders',
      ),
  });
  if (!data) return null;
  return (
    <p className="mt-4 text-sm text-zinc-400" data-testid="reminder-counts">
      Unfinished checkouts: {data.remindersSent} {data.remindersSent === 1 ? 'reminder' : 'reminders'} sent ·{' '}
      {data.recovered} recovered · {formatMoney(data.recoveredCents)} recovered revenue
    </p>
  );
}

export default function AdminSalesPage() {
  const client = useQueryClient();
  // The filter offers the newest 200 videos; "Search buyer or video" finds any other by its title.
  const videos = useQuery({
    queryKey: ['/api/admin/videos', 'newest-200'],
    queryFn: () => api.get<AdminVideoList>('/api/admin/videos?pageSize=200'),
  });
  // ?videoId= (from a removal request): the sales of that video, for the refund decision.
  const [filters, setFilters] = useState(() => ({
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
  const list = useQuery({
    queryKey: ['/api/admin/purchases', params.toString(), page],
    queryFn: () => api.get<AdminPurchaseList>(`/api/admin/purchases?${params}&page=${page}`),
  });
  const resend = useMutation({
    mutationFn: (id: string) => api.post(`/api/admin/purchases/${id}/resend`),
    onSuccess: () =>
      toast({
        title: 'Receipt queued',
        description: 'The buyer will get their link again shortly.',
        variant: 'success',
      }),
    onError: (error) =>
      toast({
        title: 'Could not resend',
        description: errorMessage(error, 'An unknown error occurred'),
        variant: 'destructive',
      }),
  });
  const change = (name: keyof typeof filters, value: string) => {
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
      <div className="mt-8 grid gap-3 sm:grid-cols-2 lg:grid-cols-5">
        <FilterSelect
          label="Status"
          value={filters.status}
          onChange={(status) => change('status', status)}
          anyLabel="Any status"
          options={purchaseStatuses}
        />
        <FilterSelect
          label="Video"
          value={filters.videoId}
          onChange={(videoId) => change('videoId', videoId)}
          anyLabel="Any video"
          options={(videos.data?.videos ?? []).map((video) => ({ value: video.id, label: video.title }))}
        />
        <Input
          aria-label="Search buyer or video"
          placeholder="Search buyer or video"
          value={filters.q}
          onChange={(event) => change('q', event.target.value)}
        />
        <Input
          aria-label="From date"
          type="date"
          value={filters.from}
          onChange={(event) => change('from', event.target.value)}
        />
        <Input
          aria-label="To date"
          type="date"
          value={filters.to}
          onChange={(event) => change('to', event.target.value)}
        />
      </div>
      {list.data && (
        <p className="mt-4 text-sm text-zinc-400">
          {list.data.total} {list.data.total === 1 ? 'purchase matches' : 'purchases match'} · paid{' '}
          {formatMoney(list.data.totals.paidCents)} ({list.data.totals.paidCount}) · refunded{' '}
          {formatMoney(list.data.totals.refundedCents)}
        </p>
      )}
      {list.isError ? (
        <p className="mt-6 text-red-300">
          Failed to load sales: {errorMessage(list.error, 'An unknown error occurred')}
        </p>
      ) : list.isPending ? (
        <p className="mt-6 text-zinc-400">Loading sales...</p>
      ) : list.data.purchases.length === 0 ? (
        <p className="mt-6 text-zinc-400">No purchases match.</p>
      ) : (
        <Table
          label="Purchases"
          className="mt-6"
          tableClassName="min-w-[48rem]"
          columns={[
            { label: 'Date' },
            { label: 'Buyer' },
            { label: 'Videos' },
            { label: 'Amount' },
            { label: 'Status' },
            { label: 'Actions', hidden: true },
          ]}
        >
          {list.data.purchases.map((purchase) => (
            <TableRow key={purchase.id}>
              <TableCell className="whitespace-nowrap text-zinc-400">
                {formatDateTime(purchase.createdAt)}
              </TableCell>
              <TableCell>
                <div className="text-white">{purchase.buyerName}</div>
                <div className="text-xs text-zinc-500">{purchase.buyerEmail}</div>
              </TableCell>
              <TableCell className="text-zinc-300">
                <PurchaseItems purchase={purchase} />
                {purchase.documents?.map((document) => (
                  <a
                    key={document.id}
                    href={document.url}
                    target="_blank"
                    rel="noreferrer"
                    className="mt-1 flex items-center gap-1 text-xs text-spotlight-300 underline"
                  >
                    <FileText className="size-3" aria-hidden /> {document.title}
                  </a>
                ))}
              </TableCell>
              <TableCell className="text-zinc-300">{formatMoney(purchase.amountCents)}</TableCell>
              <TableCell>
                <Badge variant={statusColour[purchase.status] ?? 'neutral'}>{purchase.status}</Badge>
                {purchase.source === 'offline' && <span className="ml-2 text-xs text-zinc-500">offline</span>}
              </TableCell>
              <TableCell>
                {purchase.status === 'paid' && (
                  <RowActionButton
                    icon={Mail}
                    busy={resend.isPending}
                    onClick={() => resend.mutate(purchase.id)}
                  >
                    Resend
                  </RowActionButton>
                )}
                {purchase.status === 'paid' && purchase.source === 'offline' && (
                  <RowActionButton icon={Undo2} busy={false} onClick={() => setRefunding(purchase)}>
                    Refund
                  </RowActionButton>
                )}
              </TableCell>
            </TableRow>
          ))}
        </Table>
      )}
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
                void client.invalidateQueries({ queryKey: ['/api/admin/purchases'] });
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
                setTimeout(
                  () => void client.invalidateQueries({ queryKey: ['/api/admin/purchases'] }),
                  1_000,
                );
              }}
            />
          </DialogContent>
        )}
      </Dialog>
    </AdminLayout>
  );
}

/** What a purchase bought: its videos (a bundle's under the showcase's name), counted. */
function PurchaseItems({ purchase }: { purchase: AdminPurchase }) {
  const shown = purchase.items.slice(0, 4);
  return (
    <div>
      {purchase.itemCount > 1 && (
        <div className="text-xs font-semibold text-zinc-400">{purchase.itemCount} videos</div>
      )}
      <ul className="space-y-0.5">
        {shown.map((item, index) => (
          <li key={item.videoId ?? `bundle-${index}`}>
            {item.title}
            {item.bundleName && <span className="text-xs text-zinc-500"> · {item.bundleName} bundle</span>}
            {purchase.itemCount > 1 && (
              <span className="text-xs text-zinc-500"> · {formatMoney(item.amountCents)}</span>
            )}
          </li>
        ))}
      </ul>
      {purchase.itemCount > shown.length && (
        <div className="text-xs text-zinc-500">and {purchase.itemCount - shown.length} more</div>
      )}
    </div>
  );
}

/** An offline payment given back: the amount (NZ$) and why, for the credit note. */
function RefundForm({ purchase, onDone }: { purchase: AdminPurchase; onDone: () => void }) {
  const [fields, setFields] = useState({ amount: (purchase.amountCents / 100).toFixed(2), reason: '' });
  const set = (change: Partial<typeof fields>) => setFields((current) => ({ ...current, ...change }));
  const bind = textBinder(fields, set);
  const refund = useMutation({
    mutationFn: () =>
      api.post(`/api/admin/purchases/${purchase.id}/refund`, {
        amountCents: Math.round(Number(fields.amount) * 100),
        ...(fields.reason.trim() && { reason: fields.reason.trim() }),
      }),
    onSuccess: () => {
      toast({
        title: 'Refund recorded',
        description: 'The buyer is being e-mailed a credit note.',
        variant: 'success',
      });
      onDone();
    },
    onError: (error) =>
      toast({
        title: 'Could not record the refund',
        description: errorMessage(error, 'An unknown error occurred'),
        variant: 'destructive',
      }),
  });
  return (
    <form
      className="space-y-4"
      onSubmit={(event) => {
        event.preventDefault();
        refund.mutate();
      }}
    >
      <InputField
        id="refund-amount"
        label="Amount refunded (NZ$)"
        {...moneyInput('NZ$')}
        {...bind('amount')}
      />
      <InputField
        id="refund-reason"
        label="Reason (printed on the credit note)"
        maxLength={200}
        {...bind('reason')}
      />
      <FormSubmit pending={refund.isPending} disabled={!(Number(fields.amount) > 0)}>
        Record refund
      </FormSubmit>
    </form>
  );
}

function OfflineForm({ onDone }: { onDone: () => void }) {
  // The library may hold tens of thousands of videos: the owner searches, and picks from the best 50.
  const [videoSearch, videoSearchInput] = useTextInput();
  const videosUrl = `/api/admin/videos?pageSize=50&sort=${videoSearch.trim() ? 'relevance' : 'newest'}&q=${encodeURIComponent(videoSearch.trim())}`;
  const videos = useQuery({
    queryKey: ['/api/admin/videos', videosUrl],
    queryFn: () => api.get<AdminVideoList>(videosUrl),
    placeholderData: keepPreviousData,
  });
  // Bundles: the showcases the owner gave a bundle price.
  const showcases = useQuery({
    queryKey: ['/api/admin/showcases'],
    queryFn: () => api.get<AdminShowcase[]>('/api/admin/showcases'),
  });
  const bundles = (showcases.data ?? []).filter((showcase) => showcase.bundlePriceCents !== null);
  const [chosen, setChosen] = useState<
    Array<{ id: string; title: string; priceCents: number; bundle: boolean }>
  >([]);
  const [fields, setFields] = useState({ buyerName: '', buyerEmail: '', amount: '' });
  /** Adds a video or bundle; the amount follows the list prices until the owner types another. */
  const choose = (item: (typeof chosen)[number]) => {
    if (chosen.some((existing) => existing.id === item.id && existing.bundle === item.bundle)) return;
    const next = [...chosen, item];
    setChosen(next);
    set({ amount: (next.reduce((sum, entry) => sum + entry.priceCents, 0) / 100).toFixed(2) });
  };
  const record = useMutation({
    mutationFn: () =>
      api.post('/api/admin/purchases/offline', {
        videoIds: chosen.filter((item) => !item.bundle).map((item) => item.id),
        showcaseIds: chosen.filter((item) => item.bundle).map((item) => item.id),
        buyerName: fields.buyerName.trim(),
        buyerEmail: fields.buyerEmail.trim(),
        amountCents: Math.max(0, Math.round(Number(fields.amount) * 100) || 0),
      }),
    onSuccess: () => {
      toast({
        title: 'Payment recorded',
        description: 'The sale is being recorded and the receipt sent.',
        variant: 'success',
      });
      onDone();
    },
    onError: (error) =>
      toast({
        title: 'Could not record the payment',
        description: errorMessage(error, 'An unknown error occurred'),
        variant: 'destructive',
      }),
  });
  const set = (change: Partial<typeof fields>) => setFields((current) => ({ ...current, ...change }));
  const bind = textBinder(fields, set);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    record.mutate();
  };
  return (
    <form onSubmit={submit} className="space-y-4">
      <div>
        <Label htmlFor="offline-video">Video</Label>
        <Input
          type="search"
          aria-label="Find by title or tag"
          placeholder="Search titles and tags"
          className="mb-2"
          maxLength={200}
          {...videoSearchInput}
        />
        <Select
          id="offline-video"
          value=""
          onChange={(event) => {
            const video = videos.data?.videos.find((item) => item.id === event.target.value);
            if (video)
              choose({ id: video.id, title: video.title, priceCents: video.priceCents, bundle: false });
          }}
        >
          <option value="">{chosen.length ? 'Add another video' : 'Choose a video'}</option>
          {(videos.data?.videos ?? []).map((video) => (
            <option key={video.id} value={video.id}>
              {video.title}
            </option>
          ))}
        </Select>
      </div>
      {bundles.length > 0 && (
        <div>
          <Label htmlFor="offline-bundle">Showcase bundle</Label>
          <Select
            id="offline-bundle"
            value=""
            onChange={(event) => {
              const showcase = bundles.find((item) => item.id === event.target.value);
              if (showcase)
                choose({
                  id: showcase.id,
                  title: `${showcase.name} (bundle)`,
                  priceCents: showcase.bundlePriceCents ?? 0,
                  bundle: true,
                });
            }}
          >
            <option value="">Add a showcase bundle</option>
            {bundles.map((showcase) => (
              <option key={showcase.id} value={showcase.id}>
                {showcase.name} · {formatPrice(showcase.bundlePriceCents ?? 0)}
              </option>
            ))}
          </Select>
        </div>
      )}
      {chosen.length > 0 && (
        <ul aria-label="Paid for" className="space-y-1 text-sm text-zinc-200">
          {chosen.map((item) => (
            <li key={`${item.bundle}-${item.id}`} className="flex items-center justify-between gap-2">
              <span>
                {item.title} · {formatPrice(item.priceCents)}
              </span>
              <Button
                size="icon"
                variant="ghost"
                aria-label={`Remove ${item.title}`}
                onClick={() => setChosen(chosen.filter((entry) => entry !== item))}
              >
                <X className="size-4" aria-hidden />
              </Button>
            </li>
          ))}
        </ul>
      )}
      <div className="grid gap-4 sm:grid-cols-2">
        <InputField id="offline-name" label="Buyer name" required {...bind('buyerName')} />
        <InputField id="offline-email" label="Buyer email" type="email" required {...bind('buyerEmail')} />
      </div>
      <InputField id="offline-amount" label="Amount paid (NZ$)" {...moneyInput('NZ$')} {...bind('amount')} />
      <FormSubmit
        disabled={
          chosen.length === 0 || !fields.buyerName.trim() || !fields.buyerEmail.trim() || record.isPending
        }
      >
        Record payment
      </FormSubmit>
    </form>
  );
}
