import type { IncomingMessage } from 'node:http';
import { ipKeyGenerator } from 'express-rate-limit';
import proxyaddr from 'proxy-addr';
import type { Config } from '@app/shared/config';

type Trust = (address: string, hop: number) => boolean;

/**
 * Which hops of X-Forwarded-For to believe (TRUST_PROXY): none by default, so a visitor cannot
 * name its own address; Express's `trust proxy` and the limits before Express use the same rule.
 */
export function trustedProxies(config: Pick<Config, 'TRUST_PROXY'>): Trust {
  const trust = config.TRUST_PROXY;
  if (trust === false) return () => false;
  if (typeof trust === 'number') return (_address, hop) => hop < trust;
  return proxyaddr.compile(trust);
}

const keys = new Map<string, string>();

/**
 * The key a visitor is limited by: its address, IPv6 grouped by /56 (one household or school holds
 * a whole block, so a single address of it would be too easy to change).
 */
export function addressKey(address: string | undefined): string {
  const given = address ?? '';
  let key = keys.get(given);
  if (key === undefined) {
    // Remembered: the IPv6 arithmetic costs ~15 µs, too much for every request of a flood.
    if (keys.size >= 10_000) keys.clear();
    key = ipKeyGenerator(given);
    keys.set(given, key);
  }
  return key;
}

/** The client's address of a request that has not reached Express yet. */
export function clientAddressOf(trust: Trust): (req: IncomingMessage) => string {
  return (req) => proxyaddr(req, trust);
}
