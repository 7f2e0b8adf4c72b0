import { formatEventDate } from '@app/shared/format';
import type { SeasonDay, SeasonView } from '@app/shared/schemas';

// The season view's figures as people read them (decision 034): pure, so they are tested without a DOM.

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** "27 Nov" for a calendar day (yyyy-MM-dd): a chart's axis has room for little more. */
export function shortDay(day: string): string {
  const [, month, date] = day.split('-').map(Number);
  return `${date} ${MONTHS[month! - 1]}`;
}

/** "12.5%" (one decimal below 10 %, none above); "–" when there is nothing to divide by. */
export function percent(part: number, whole: number): string {
  if (whole <= 0) return '–';
  const value = (part / whole) * 100;
  return `${value < 10 ? value.toFixed(1).replace(/\.0$/, '') : Math.round(value)}%`;
}

/** The path from a routine's page to a paid purchase: each step with its share of the visits. */
export function funnelSteps(funnel: SeasonView['funnel']) {
  return [
    { step: 'Page visits', count: funnel.visits, share: percent(funnel.visits, funnel.visits) },
    { step: 'Checkouts started', count: funnel.checkouts, share: percent(funnel.checkouts, funnel.visits) },
    { step: 'Paid purchases', count: funnel.paid, share: percent(funnel.paid, funnel.visits) },
  ];
}

/**
 * One sentence a screen reader (or a glance) takes from the sales chart: the span, the total and the
 * best day. The days themselves are in the table beside it.
 */
export function salesSummary(days: SeasonDay[]): string {
  const sold = days.filter((day) => day.purchases > 0);
  if (sold.length === 0) return 'No sales yet.';
  const best = sold.reduce((top, day) => (day.revenueCents > top.revenueCents ? day : top));
  const first = days[0]!.day;
  const last = days.at(-1)!.day;
  const purchases = sold.reduce((sum, day) => sum + day.purchases, 0);
  return `${purchases} ${purchases === 1 ? 'purchase' : 'purchases'} on ${sold.length} of ${days.length} ${
    days.length === 1 ? 'day' : 'days'
  } from ${formatEventDate(first)} to ${formatEventDate(last)}; the best day was ${formatEventDate(best.day)}.`;
}
