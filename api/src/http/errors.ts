import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ErrorRequestHandler, RequestHandler } from 'express';
import type { Logger } from '@app/shared/logger';
import { ZodError } from 'zod';
import { errorBody, errorCodeFor, type ErrorBody, type ErrorCode } from '@app/shared/errors';
import { isDatabaseUnreachable, postgresErrorCode } from '@app/shared/db';
import { RedisUnavailableError } from '@app/shared/redis';
import { StorageError } from '@app/shared/storage';
import { sendJson } from './send-json.ts';

/**
 * An expected failure with the status and message the client should see; its code follows from the
 * status unless the route names one (and then `details`, what the client needs to act on it).
 */
export class HttpError extends Error {
  readonly code: ErrorCode;
  readonly details: Record<string, unknown> | undefined;
  readonly headers: Record<string, string>;

  constructor(
    readonly status: number,
    message: string,
    options: { headers?: Record<string, string>; code?: ErrorCode; details?: Record<string, unknown> } = {},
  ) {
    super(message);
    this.code = options.code ?? errorCodeFor(status);
    this.details = options.details;
    this.headers = options.headers ?? {};
  }

  get body(): ErrorBody {
    return { message: this.message, code: this.code, ...(this.details && { details: this.details }) };
  }
}

export const notFound = (message = 'Not found') => new HttpError(404, message);

export function zodErrorBody(error: ZodError): ErrorBody {
  const issues = error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message }));
  const summary = issues.map((issue) => (issue.path ? `${issue.path}: ${issue.message}` : issue.message));
  return { message: `Invalid request: ${summary.slice(0, 5).join('; ')}`, code: 'invalid_input', issues };
}

const badInputCodes: Record<string, string> = {
  '23503': 'A referenced record does not exist',
  '23514': 'A value is outside the allowed range',
  '23502': 'A required value is missing',
  '22P02': 'A value has the wrong format',
  '22001': 'A value is too long',
  '22021': 'A value contains characters that are not allowed',
  '22003': 'A number is out of range',
  '22007': 'A date is not valid',
  '22008': 'A date is out of range',
};

/** Body-parser errors carry a `type`; they are the client's fault and safe to describe. */
function bodyParserError(error: unknown): { status: number; message: string } | undefined {
  const { type, status } = (error ?? {}) as { type?: unknown; status?: unknown };
  if (typeof type !== 'string' || typeof status !== 'number') return undefined;
  if (type === 'entity.parse.failed') return { status: 400, message: 'Malformed JSON body' };
  if (type === 'entity.too.large') return { status: 413, message: 'Request body is too large' };
  if (type === 'encoding.unsupported' || type === 'charset.unsupported') {
    return { status: 415, message: 'Unsupported content encoding' };
  }
  if (status >= 400 && status < 500) return { status, message: 'Bad request' };
  return undefined;
}

function describe(error: unknown): { status: number; body: ErrorBody; headers?: Record<string, string> } {
  if (error instanceof HttpError) {
    return { status: error.status, body: error.body, headers: error.headers };
  }
  if (error instanceof ZodError) return { status: 400, body: zodErrorBody(error) };
  if (error instanceof StorageError) {
    const status = error.code === 'upload-not-found' ? 404 : 400;
    return { status, body: errorBody(status, error.message) };
  }
  const parsed = bodyParserError(error);
  if (parsed) return { status: parsed.status, body: errorBody(parsed.status, parsed.message) };
  // The router's own 4xx errors (a path segment that is not valid percent-encoding, say).
  const { status, expose } = (error ?? {}) as { status?: unknown; expose?: unknown };
  const fromRouter = expose === true || error instanceof URIError;
  if (typeof status === 'number' && status >= 400 && status < 500 && fromRouter) {
    return { status, body: errorBody(status, status === 400 ? 'Malformed request' : 'Request refused') };
  }
  // A job could not be queued: the caller may try again shortly (Stripe retries its webhooks).
  if (error instanceof RedisUnavailableError) {
    return {
      status: 503,
      body: errorBody(503, 'Service temporarily unavailable, please try again shortly'),
      headers: { 'Retry-After': '5' },
    };
  }
  if (isDatabaseUnreachable(error)) {
    return {
      status: 503,
      body: errorBody(503, 'Service temporarily unavailable, please try again shortly'),
      headers: { 'Retry-After': '5' },
    };
  }
  const code = postgresErrorCode(error);
  if (code === '23505') return { status: 409, body: errorBody(409, 'That record already exists') };
  if (code && badInputCodes[code]) return { status: 400, body: errorBody(400, badInputCodes[code]) };
  return { status: 500, body: errorBody(500, 'Something went wrong on our side. Please try again.') };
}

/**
 * The one place errors become responses, for Express and for the routes answered before it. Details go
 * to the log, never to the client.
 */
export function answerError(
  error: unknown,
  req: IncomingMessage & { log: Logger; destroyed: boolean },
  res: ServerResponse,
): void {
  // The client went away mid-answer (a page left while its images loaded) or mid-body (a dropped upload):
  // nobody is there to answer, and nothing is broken here.
  const code = (error as { code?: unknown } | undefined)?.code;
  if (code === 'ECONNABORTED' || (code === 'ECONNRESET' && req.destroyed)) {
    req.log.info({ message: (error as Error).message }, 'client went away mid-request');
    if (!res.writableEnded) res.destroy();
    return;
  }
  const { status, body, headers } = describe(error);
  if (status >= 500) req.log.error({ err: error }, 'request failed');
  else req.log.info({ status, message: body.message }, 'request refused');
  if (res.headersSent) {
    res.destroy();
    return;
  }
  sendJson(res, status, body, headers);
}

export const errorHandler: ErrorRequestHandler = (error, req, res, _next) => answerError(error, req, res);

export const apiNotFound: RequestHandler = (_req, res) => {
  res.status(404).json(errorBody(404, 'Not found'));
};
