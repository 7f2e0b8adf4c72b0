/**
 * The one way the web app talks to the api. Every non-OK answer becomes an ApiError whose message is
 * "{status}: {body text}" (SPEC.md section 8), with the JSON `message` kept for display.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly bodyText: string,
    /** The api's own `message` field, when the body was our JSON error. */
    readonly serverMessage: string | undefined,
    /** The api's `code` field, where one status has several meanings (ACCESS_CODE_REQUIRED, VIDEO_WITHDRAWN). */
    readonly code?: string,
  ) {
    super(`${status}: ${bodyText}`);
    this.name = 'ApiError';
  }
}

async function toApiError(response: Response): Promise<ApiError> {
  const text = (await response.text().catch(() => '')) || response.statusText;
  let serverMessage: string | undefined;
  let code: string | undefined;
  try {
    const body: unknown = JSON.parse(text);
    if (body && typeof body === 'object' && 'message' in body && typeof body.message === 'string') {
      serverMessage = body.message;
    }
    if (body && typeof body === 'object' && 'code' in body && typeof body.code === 'string') code = body.code;
  } catch {
    // Not JSON: the text itself is the best we have.
  }
  return new ApiError(response.status, text, serverMessage, code);
}

/** The api's error code of a failed call, if it gave one. */
export const errorCode = (error: unknown): string | undefined =>
  error instanceof ApiError ? error.code : undefined;

/** The message to show a person: the server's own message when it sent one. */
export function errorMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiError) return error.serverMessage ?? fallback;
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
  /** SPEC.md section 7's returns-null mode: a 401 yields no data instead of throwing. */
  getOrNull: async <T>(path: string): Promise<T | null> => {
    try {
      return await request<T>('GET', path);
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) return null;
      throw error;
    }
  },
  post: <T>(path: string, body?: unknown) => request<T>('POST', path, body ?? {}),
  put: <T>(path: string, body: unknown) => request<T>('PUT', path, body),
  patch: <T>(path: string, body: unknown) => request<T>('PATCH', path, body),
  delete: <T>(path: string) => request<T>('DELETE', path),
};
