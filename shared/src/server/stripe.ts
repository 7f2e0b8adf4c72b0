import Stripe from 'stripe';
import type { Config } from './config.ts';

/** The Stripe client, or null when no key is configured (the site then offers the fallback options). */
export function createStripe(config: Config): Stripe | null {
  if (!config.STRIPE_SECRET_KEY) return null;
  // STRIPE_API_URL points the real SDK at a Stripe-compatible server (our tests' fake).
  const target = config.STRIPE_API_URL ? new URL(config.STRIPE_API_URL) : undefined;
  return new Stripe(config.STRIPE_SECRET_KEY, {
    maxNetworkRetries: 2,
    timeout: 10_000,
    ...(target && {
      host: target.hostname,
      port: Number(target.port || (target.protocol === 'https:' ? 443 : 80)),
      protocol: target.protocol === 'https:' ? 'https' : 'http',
    }),
  });
}

export type { Stripe };
