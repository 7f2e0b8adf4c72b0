import { describe, expect, it } from 'vitest';
import { gstIncluded, ratePercent, supplyTier } from './money.ts';

describe('GST arithmetic', () => {
  it('is 3/23 of the GST-inclusive total at 15 %, rounded to the cent', () => {
    expect(gstIncluded(2300, 1500)).toBe(300);
    expect(gstIncluded(15_000, 1500)).toBe(1957); // 1956.52
    expect(gstIncluded(50_000, 1500)).toBe(6522); // 6521.74
    expect(gstIncluded(120_000, 1500)).toBe(15_652); // 15652.17
    expect(gstIncluded(1, 1500)).toBe(0);
    expect(gstIncluded(4, 1500)).toBe(1); // 0.52 rounds up
    expect(gstIncluded(1000, 0)).toBe(0);
  });

  it('matches exact rational arithmetic for every amount up to NZ$2,000', () => {
    const wrong: number[] = [];
    for (let cents = 0; cents <= 200_000; cents++) {
      // Half up: floor(x + 1/2) with x = 3c/23, in integers: floor((6c + 23) / 46).
      if (gstIncluded(cents, 1500) !== Math.floor((6 * cents + 23) / 46)) wrong.push(cents);
    }
    expect(wrong).toEqual([]);
  });

  it('puts amounts in Inland Revenue tiers', () => {
    expect(supplyTier(15_000)).toBe(1);
    expect(supplyTier(20_000)).toBe(1);
    expect(supplyTier(20_001)).toBe(2);
    expect(supplyTier(100_000)).toBe(2);
    expect(supplyTier(100_001)).toBe(3);
    expect(ratePercent(1500)).toBe('15%');
    expect(ratePercent(1250)).toBe('12.5%');
  });
});
