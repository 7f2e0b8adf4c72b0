import { describe, expect, it } from 'vitest';
import { formatDateTime, formatEventDate, formatMoney, formatPrice } from './format.ts';

describe('display formats', () => {
  it('writes calendar days as en-NZ does, whatever the time zone', () => {
    const intl = new Intl.DateTimeFormat('en-NZ', {
      day: 'numeric',
      month: 'long',
      year: 'numeric',
      timeZone: 'UTC',
    });
    for (const day of ['2027-03-14', '2026-01-01', '2026-12-31', '2028-02-29', '2026-07-05T00:00:00.000Z']) {
      expect(formatEventDate(day)).toBe(intl.format(new Date(`${day.slice(0, 10)}T12:00:00Z`)));
    }
    expect(formatEventDate('2027-03-14')).toBe('14 March 2027');
  });

  it('writes instants in New Zealand time, and prices in NZ dollars', () => {
    expect(formatDateTime('2027-03-14T02:05:00Z')).toBe('14 March 2027 at 3:05 pm');
    expect(formatPrice(1250)).toBe('NZ$12.50');
    expect(formatPrice(0)).toBe('Free');
    expect(formatMoney(0)).toBe('NZ$0.00');
    expect(formatMoney(127_000)).toBe('NZ$1,270.00');
    expect(formatMoney(123_456_789)).toBe('NZ$1,234,567.89');
    expect(formatMoney(99_999)).toBe('NZ$999.99');
  });
});
