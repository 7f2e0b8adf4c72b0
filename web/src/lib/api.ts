import { errorCodeFor, type ErrorBody, type ErrorCode } from '@app/shared/errors';

/**
 * The one way the web app talks to the api. Every non-OK answer becomes an ApiError whose message is
 * "{status}: {body text}", with the api's error body (shared/src/contracts/errors.ts) read once: its
 * `code` is what the app acts on, its `message` what it shows.
 */
export class ApiError extends Error {
  /** The api's code; from the status when the body was not our JSON error (a proxy's page, say). */
  readonly code: ErrorCode;
  /** The api's own `message`, when the body was our JSON error. */
  readonly serverMessage: string | undefined;
  readonly details: Record<string, unknown> | undefined;

  constructor(
    readonly status: number,
    bodyText: string,
  ) {
    super(`${status}: ${bodyText}`);
    this.name = 'ApiError';
    const body = parseErrorBody(bodyText);
    this.code = body?.code ?? errorCodeFor(status);
    this.serverMessage = body?.message;
    this.details = body?.details;
  }
}

function parseErrorBody(text: string): Partial<ErrorBody> | undefined {
  try {
    const body: unknown = JSON.parse(text);
    if (body && typeof body === 'object' && 'message' in body && typeof body.message === 'string') {
      return body as Partial<ErrorBody>;
    }
  } catch {
    // Not JSON: the text itself is the best we have.
  }
  return undefined;
}

/** True when `error` is the api's answer with this code. */
export const isApiError = (error: unknown, code: ErrorCode): error is ApiError =>
  error instanceof ApiError && error.code === code;

async function toApiError(response: Response): Promise<ApiError> {
  const text = (await response.text().catch(() => '')) || response.statusText;
  return new ApiError(response.status, text);
}

/** The message to show a person: the server's own message when it sent one. */
export function errorMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiError) return error.serverMessage ?? fallback;
  // eslint-disable-next-line no-restricted-syntax -- here, where an ApiError has already been answered
  if (error instanceof Error && error.message) return error.message;
  return fallback;
}

async function request<T>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(path, {
    method,
    credentials: 'include',
    headers:
      body === undefined
        ? { Accept: 'application/json' }
        : { Accept: 'application/json', 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw await toApiError(response);
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

export const api = {
  get: <T>(path: string) => request<T>('GET', path),
  /** Like get, but a 401 yields null instead of throwing. */
  getOrNull: async <T>(path: string): Promise<T | null> => {
    try {
      return await request<T>('GET', path);
    } catch (error) {
      if (isApiError(error, 'unauthorized')) return null;
      throw error;
    }
  },
  post: <T>(path: string, body?: unknown) => request<T>('POST', path, body ?? {}),
  put: <T>(path: string, body: unknown) => request<T>('PUT', path, body),
  patch: <T>(path: string, body: unknown) => request<T>('PATCH', path, body),
  delete: <T>(path: string) => request<T>('DELETE', path),
};
