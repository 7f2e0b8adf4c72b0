import { formatMoney } from '@app/shared/format';
import { useCheckoutReminders, usePaidTotals } from './queries.ts';

/** Today's date and the first of this month, as New Zealand calendar days (yyyy-MM-dd). */
function nzDays(now = new Date()) {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Pacific/Auckland' }).format(now);
  return { today, monthStart: `${today.slice(0, 8)}01` };
}

/** Paid sales today, this month and all time, whatever the filters below say. */
export function PaidTotals() {
  const { today, monthStart } = nzDays();
  const periods = [
    { label: 'Today', query: `from=${today}&to=${today}` },
    { label: 'This month', query: `from=${monthStart}&to=${today}` },
    { label: 'All time', query: '' },
  ];
  const results = usePaidTotals(periods.map(({ query }) => query));
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
export function ReminderCounts() {
  const { data } = useCheckoutReminders();
  if (!data) return null;
  return (
    <p className="mt-4 text-sm text-zinc-400" data-testid="reminder-counts">
      Unfinished checkouts: {data.remindersSent} {data.remindersSent === 1 ? 'reminder' : 'reminders'} sent ·{' '}
      {data.recovered} recovered · {formatMoney(data.recoveredCents)} recovered revenue
    </p>
  );
}
