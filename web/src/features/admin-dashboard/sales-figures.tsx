import { formatMoney } from '@app/shared/format';
import { useSalesSummary } from './queries.ts';

/** The sales card's figures: videos sold and revenue, over 30 days and all time. */
export function SalesFigures() {
  const summary = useSalesSummary();
  const data = summary.data;
  if (!data) return null;
  const videos = (count: number) => `${count} ${count === 1 ? 'video' : 'videos'}`;
  return (
    <span className="mt-3 block text-sm text-zinc-300" data-testid="sales-figures">
      Last 30 days: {videos(data.last30DaysItems)}, {formatMoney(data.last30DaysCents)}
      <span className="block text-xs text-zinc-500">
        All time: {videos(data.paidItems)} in {data.paidPurchases}{' '}
        {data.paidPurchases === 1 ? 'sale' : 'sales'}, {formatMoney(data.revenueCents)}
      </span>
    </span>
  );
}
