import { describe, expect, it } from 'vitest';
import { funnelSteps, percent, salesSummary, shortDay } from './figures.ts';

describe('season view figures', () => {
  it('writes days, shares and the sales in one sentence', () => {
    expect(shortDay('2026-11-07')).toBe('7 Nov');
    expect(percent(1, 8)).toBe('13%');
    expect(percent(1, 40)).toBe('2.5%');
    expect(percent(1, 50)).toBe('2%');
    expect(percent(3, 0)).toBe('–');
    expect(funnelSteps({ visits: 200, checkouts: 20, paid: 9 })).toEqual([
      { step: 'Page visits', count: 200, share: '100%' },
      { step: 'Checkouts started', count: 20, share: '10%' },
      { step: 'Paid purchases', count: 9, share: '4.5%' },
    ]);
    expect(salesSummary([])).toBe('No sales yet.');
    expect(
      salesSummary([
        { day: '2026-11-20', purchases: 2, revenueCents: 3000 },
        { day: '2026-11-21', purchases: 0, revenueCents: 0 },
        { day: '2026-11-22', purchases: 1, revenueCents: 4500 },
      ]),
    ).toBe(
      '3 purchases on 2 of 3 days from 20 November 2026 to 22 November 2026; the best day was 22 November 2026.',
    );
  });
});
