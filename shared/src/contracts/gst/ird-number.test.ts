import { describe, expect, it } from 'vitest';
import { formatGstNumber, isValidGstNumber } from './ird-number.ts';

describe('IRD check digit', () => {
  it('accepts numbers Inland Revenue publishes as valid', () => {
    // Primary weights, with and without separators, and a nine-digit one that needs the secondary weights.
    for (const number of ['49091850', '35901981', '49098576', '136410132', '49-091-850', '136 410 132'])
      expect(isValidGstNumber(number), number).toBe(true);
  });

  it('refuses a wrong check digit, the range, and anything not 8-9 digits', () => {
    for (const number of [
      '136410133', // wrong check digit
      '49091851',
      '9125568', // 7 digits
      '09125568', // below 10,000,000
      '150000001', // above 150,000,000
      '1234567890',
      '4909185O',
      '',
    ])
      expect(isValidGstNumber(number), number).toBe(false);
  });

  it('refuses a number whose check digit is 10 on both weightings', () => {
    // Found by search below: a base whose primary and secondary check digits are both 10.
    let found: string | undefined;
    for (let base = 10_000_000; base < 10_100_000 && !found; base++) {
      const digits = String(base).padStart(8, '0');
      const sum = (weights: number[]) =>
        [...digits].reduce((total, digit, index) => total + Number(digit) * weights[index]!, 0) % 11;
      if (sum([3, 2, 7, 6, 5, 4, 3, 2]) === 1 && sum([7, 4, 3, 2, 5, 2, 7, 6]) === 1) found = digits;
    }
    expect(found).toBeDefined();
    for (let last = 0; last <= 9; last++) expect(isValidGstNumber(`${found!}${last}`)).toBe(false);
  });

  it('prints the number as IRD does', () => {
    expect(formatGstNumber('49091850')).toBe('49-091-850');
    expect(formatGstNumber('136410132')).toBe('136-410-132');
  });
});
