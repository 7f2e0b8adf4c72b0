import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The log id of a request: a proxy's X-Request-Id when it is a UUID, else a new one, so a client
 * cannot write what it likes into every log line of its request.
 */
export function requestIdOf(req: IncomingMessage): string {
  const given = req.headers['x-request-id'];
  return typeof given === 'string' && UUID.test(given) ? given : randomUUID();
}

/** Query parameters that are bearer values: whoever reads them may use them. */
const bearerParameter =
  /([?&](?:session_id|sig|token|verificationToken|X-Amz-Signature|X-Amz-Credential)=)[^&#]*/gi;

/**
 * True when the page's address carries a bearer value: in its query (a buyer's session id on the
 * download page), or in the fragment the server never sees (a library sign-in link, decision 024).
 */
export const hasBearerValue = (url: string) =>
  new RegExp(bearerParameter.source, 'i').test(url) || /^\/my-videos\/sign-in\/?(?:[?#]|$)/.test(url);

/**
 * Query parameters that may be personal information: the words of a search are often a child's name,
 * and a log line puts them beside the visitor's address (decision 032).
 */
const personalParameter = /([?&]q=)[^&#]*/gi;

/**
 * A URL as it may be logged: bearer query values, search words and the buyer's checkout session id
 * replaced.
 */
export function redactUrl(url: string): string {
  return url
    .replace(bearerParameter, '$1[redacted]')
    .replace(personalParameter, '$1[redacted]')
    .replace(/^(\/api\/purchases\/)[^/?#]+/, '$1[redacted]');
}
