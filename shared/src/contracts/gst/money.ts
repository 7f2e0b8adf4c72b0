// GST arithmetic and Inland Revenue's tiers of taxable supply information. Pure (the web uses it).

/** The GST inside a GST-inclusive amount (3/23 of it at 15 %), rounded half up to the cent, once. */
export function gstIncluded(totalCents: number, rateBasisPoints: number): number {
  // Integers only: total * rate / (1 + rate), with rate = bp / 10000.
  const numerator = totalCents * rateBasisPoints;
  const denominator = 10_000 + rateBasisPoints;
  return Math.floor((2 * numerator + denominator) / (2 * denominator));
}

/**
 * Which information a supply needs (by its GST-inclusive amount): 1 up to NZ$200 (seller, date, what,
 * amount), 2 over NZ$200 (also the GST number and the GST), 3 over NZ$1,000 (also the buyer's name
 * and an address, phone, e-mail or NZBN).
 */
export type SupplyTier = 1 | 2 | 3;
export const TIER_2_OVER_CENTS = 20_000;
export const TIER_3_OVER_CENTS = 100_000;

export function supplyTier(totalCents: number): SupplyTier {
  if (totalCents > TIER_3_OVER_CENTS) return 3;
  if (totalCents > TIER_2_OVER_CENTS) return 2;
  return 1;
}

export const ratePercent = (rateBasisPoints: number) =>
  `${(rateBasisPoints / 100).toFixed(2).replace(/\.?0+$/, '')}%`;
