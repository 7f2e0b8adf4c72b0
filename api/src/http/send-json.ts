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
  sendJsonText(res, status, JSON.stringify(body), headers);
}

/** A value's JSON text, written by hand where parsing and writing it again would cost (decision 042). */
export type JsonText<T> = string & { readonly jsonOf?: T };

/** Answers with JSON text already written. */
export function sendJsonText(
  res: ServerResponse,
  status: number,
  json: string,
  headers: Record<string, string> = {},
): void {
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(json),
  });
  res.end(json);
}
