import type { IncomingMessage, ServerResponse } from 'node:http';
import { parse as parseQuery } from 'node:querystring';
import { programmeSearchQuerySchema } from '@app/shared/schemas';
import type { Deps } from '../../deps.ts';
import { clientAddressOf, trustedProxies } from '../../http/client-address.ts';
import { answerError } from '../../http/errors.ts';
import { leanRateLimiter, limits } from '../../http/rate-limit.ts';
import { sendJsonText } from '../../http/send-json.ts';
import { isNameSearch, searchProgramme } from './programme-search.ts';

const PATH = '/api/programme/search';
/** Not kept by browsers or proxies: answers hold children's names, which the owner may remove. */
export const PRIVATE_ANSWER = { 'Cache-Control': 'private, no-store', 'X-Robots-Tag': 'noindex' };

type Middleware = (req: IncomingMessage, res: ServerResponse, next: () => void) => void;
type LoggedRequest = IncomingMessage & { log: Deps['logger'] };
const onward = () => {};

/**
 * GET (and HEAD) /api/programme/search, "find your dancer" (decisions 032 and 037), answered before
 * Express. It is the public answer read afresh most often (names are too varied to keep), and Express's
 * layers and its rate-limit middleware cost the api more than the search's own work (decision 039).
 * It passes what an Express answer does: the request's log line, the security headers, the per-address
 * name-search limit, the query's schema, the errors' one shape and the request metric. Not logged as a
 * search that found nothing: the library's search of the same words decides that (decision 034).
 * Returns true when it took the request.
 */
export function programmeSearchRoute(
  deps: Deps,
  shared: { logRequest: Middleware; securityHeaders: Middleware },
): (req: IncomingMessage, res: ServerResponse) => boolean {
  const refusedByLimit = leanRateLimiter(deps, limits.nameSearch);
  const addressOf = clientAddressOf(trustedProxies(deps.config));
  const observe = deps.config.METRICS_TOKEN ? deps.metrics.requests : undefined;

  const answer = async (req: IncomingMessage, res: ServerResponse, search: string) => {
    // As Express's 'simple' query parser reads it: a repeated parameter is a list, which the schema refuses.
    const query = parseQuery(search);
    if (isNameSearch(query.q) && (await refusedByLimit(addressOf(req), res))) return;
    const { q, showcase } = programmeSearchQuerySchema.parse(query);
    sendJsonText(res, 200, await searchProgramme(deps.db, q, showcase), PRIVATE_ANSWER);
  };

  return (req, res) => {
    const url = req.url ?? '';
    // HEAD as Express answers it for a GET route: the same answer, its body left out by Node.
    if ((req.method !== 'GET' && req.method !== 'HEAD') || !url.startsWith(PATH)) return false;
    const after = url.charAt(PATH.length);
    if (after !== '' && after !== '?') return false;
    const end = observe?.startTimer({ method: req.method, route: PATH });
    if (end) res.once('finish', () => end({ status: String(res.statusCode) }));
    shared.logRequest(req, res, onward);
    shared.securityHeaders(req, res, onward);
    answer(req, res, url.slice(PATH.length + 1)).catch((error: unknown) =>
      answerError(error, req as LoggedRequest, res),
    );
    return true;
  };
}
