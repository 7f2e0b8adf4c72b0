/**
 * What went wrong, for code to act on; `message` is for people. Most codes follow from the status
 * (errorCodeFor); a route names a code of its own where the client acts on more than the status.
 */
export type ErrorCode =
  | 'invalid_input'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'too_large'
  | 'unsupported_media'
  | 'range_not_satisfiable'
  | 'rate_limited'
  | 'internal'
  | 'unavailable'
  /** The cart cannot be paid as it is; `details.problems` says which lines and why. */
  | 'cart_refused'
  /** The video's showcase opens with an access code this browser has not typed (403). */
  | 'access_code_required'
  /** The owner withdrew the video (a takedown); its buyers see a notice, not a player (410). */
  | 'video_withdrawn';

const codeOfStatus: Record<number, ErrorCode> = {
  400: 'invalid_input',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  409: 'conflict',
  413: 'too_large',
  415: 'unsupported_media',
  416: 'range_not_satisfiable',
  429: 'rate_limited',
  500: 'internal',
  503: 'unavailable',
};

/** The code an error answer of this status carries unless its route names another. */
export const errorCodeFor = (status: number): ErrorCode =>
  codeOfStatus[status] ?? (status >= 500 ? 'internal' : 'invalid_input');

/**
 * The JSON body of every error answer. `issues` lists field problems for a 400 (invalid_input);
 * `details` carries what a particular code needs (cart_refused: the cart's problems).
 */
export interface ErrorBody {
  message: string;
  code: ErrorCode;
  issues?: Array<{ path: string; message: string }>;
  details?: Record<string, unknown>;
}

/** The body of an error answer of this status and message. */
export const errorBody = (status: number, message: string): ErrorBody => ({
  message,
  code: errorCodeFor(status),
});
