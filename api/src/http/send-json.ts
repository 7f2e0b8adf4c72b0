import type { ServerResponse } from 'node:http';

/**
 * Answers with a JSON body on a plain Node response, so routes answered before Express (and the error
 * and limit answers shared with them) need none of Express's response methods.
 */
export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const json = JSON.stringify(body);
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(json),
  });
  res.end(json);
}
