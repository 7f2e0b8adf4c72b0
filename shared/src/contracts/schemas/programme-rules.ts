import { z } from 'zod';

// A showcase's programme settings (docs/decisions/032): the database, the api and the web read these.
// Browser-safe.

/** How dancers' names show to the public: "Aroha Ngata", "Aroha N." (the default), or not at all. */
export const dancerNameDisplays = ['full', 'initial', 'hidden'] as const;
export type DancerNameDisplay = (typeof dancerNameDisplays)[number];

/**
 * "Buy all of a dancer's routines": a percentage off what they cost one by one, or a price per number
 * of routines (the tier with the most routines not above the count applies; fewer than the smallest
 * tier: no offer).
 */
export const routineBundleRuleSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('percent'), percentOff: z.number().int().min(1).max(90) }),
  z.strictObject({
    kind: z.literal('tiers'),
    tiers: z
      .array(
        z.strictObject({
          routines: z.number().int().min(2).max(50),
          priceCents: z.number().int().min(1).max(10_000_000),
        }),
      )
      .min(1)
      .max(10),
  }),
]);
export type RoutineBundleRule = z.infer<typeof routineBundleRuleSchema>;

/**
 * The price of `count` routines that cost `separateCents` one by one under `rule`; null when the rule
 * gives no offer (fewer than two routines, below the smallest tier, or no saving). Never more than
 * buying them one by one.
 */
export function routineBundlePrice(
  rule: RoutineBundleRule | null | undefined,
  count: number,
  separateCents: number,
): number | null {
  if (!rule || count < 2 || separateCents <= 0) return null;
  let price: number | null;
  if (rule.kind === 'percent') price = Math.round((separateCents * (100 - rule.percentOff)) / 100);
  else {
    const tier = rule.tiers
      .filter((candidate) => candidate.routines <= count)
      .sort((a, b) => b.routines - a.routines)[0];
    price = tier ? tier.priceCents : null;
  }
  return price !== null && price < separateCents ? price : null;
}

/** A dancer's name as the showcase shows it: "Aroha Ngata", "Aroha N.", or null when hidden. */
export function displayDancerName(name: string, display: DancerNameDisplay): string | null {
  if (display === 'hidden') return null;
  const words = name.trim().split(/\s+/);
  if (display === 'full' || words.length < 2) return words.join(' ');
  const last = words.at(-1)!;
  return `${words.slice(0, -1).join(' ')} ${[...last][0]!.toUpperCase()}.`;
}

/** What a performer's offer is called on its page, in the cart and at Stripe: "All of Aroha N.'s routines (5)". */
export function offerTitle(kind: 'dancer' | 'studio', name: string | null, count: number) {
  if (kind === 'studio') return `All ${count} routines of ${name}`;
  return name ? `All of ${name}'s routines (${count})` : `All ${count} routines of this dancer`;
}
