import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Config } from '@app/shared/config';
import { errorBody } from '@app/shared/errors';
import { addressKey, clientAddressOf, trustedProxies } from './client-address.ts';

/**
 * Requests one address may make to the api per window: about 30 a second, room for a school's
 * shared Wi-Fi full of parents, far below what a flood sends. Pictures have their own, larger
 * allowance: one page shows dozens, each read from disk without database work.
 */
export const SHED_LIMIT = 300;
export const SHED_PICTURE_LIMIT = 3_000;
export const SHED_WINDOW_MS = 10_000;
const pictures = ['/api/images/', '/api/video-preview/'];
/** Stripe delivers from a few addresses in bursts (the webhook checks its signature first). */
const unlimited = ['/api/stripe/webhook'];
const refusal = JSON.stringify(errorBody(429, 'Too many requests. Please try again in a few seconds.'));

/**
 * A per-address limit on every api route, answered before Express with no database or Redis work
 * (issue 14, load shedding), so a flood from one address costs little more than its 429s. Counted
 * in this process's memory: each replica limits on its own, which is enough to shed a flood.
 * Returns true when it answered the request.
 */
export function createLoadShedder(config: Pick<Config, 'TRUST_PROXY'>) {
  const addressOf = clientAddressOf(trustedProxies(config));
  const windows = new Map<string, { count: number; endsAt: number }>();
  let sweepAt = 0;

  const shed = (req: IncomingMessage, res: ServerResponse): boolean => {
    const url = req.url ?? '';
    if (!url.startsWith('/api/') || unlimited.some((path) => url.startsWith(path))) return false;
    const now = Date.now();
    if (now >= sweepAt) {
      for (const [key, window] of windows) if (window.endsAt <= now) windows.delete(key);
      sweepAt = now + SHED_WINDOW_MS;
    }
    const picture = pictures.some((path) => url.startsWith(path));
    const key = `${picture ? 'picture' : 'api'}:${addressKey(addressOf(req))}`;
    let window = windows.get(key);
    if (!window || window.endsAt <= now) {
      window = { count: 0, endsAt: now + SHED_WINDOW_MS };
      windows.set(key, window);
    }
    if (++window.count <= (picture ? SHED_PICTURE_LIMIT : SHED_LIMIT)) return false;
    shed.refused++;
    res.writeHead(429, {
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': Buffer.byteLength(refusal),
      'Cache-Control': 'no-store',
      'Retry-After': String(Math.ceil((window.endsAt - now) / 1000)),
    });
    res.end(refusal);
    return true;
  };
  /** Requests refused since start (a gauge of /metrics). */
  shed.refused = 0;
  return shed;
}
