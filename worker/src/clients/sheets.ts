import { createPrivateKey } from 'node:crypto';
import { UnrecoverableError } from 'bullmq';
import { sheets } from '@googleapis/sheets';
import { JWT } from 'google-auth-library';
import type { Config } from '@app/shared/config';

const READONLY_SCOPE = 'https://www.googleapis.com/auth/spreadsheets.readonly';
const TIMEOUT_MS = 20_000;

export interface SheetValues {
  /** The block actually read, in A1 notation as Google reports it (e.g. `Sheet1!A1:C1000`). */
  range: string;
  /** Rows from the block's first row; trailing empty cells and rows are left out by Google. */
  values: string[][];
}

/** A service account signing its own token (no token endpoint), or an API key for a public sheet. */
function authFor(config: Config): JWT | string {
  if (!config.GOOGLE_SERVICE_ACCOUNT_JSON) return config.GOOGLE_API_KEY!;
  let credentials: { client_email?: unknown; private_key?: unknown };
  try {
    credentials = JSON.parse(config.GOOGLE_SERVICE_ACCOUNT_JSON) as typeof credentials;
  } catch {
    throw new UnrecoverableError('GOOGLE_SERVICE_ACCOUNT_JSON is not valid JSON');
  }
  const { client_email: email, private_key: key } = credentials ?? {};
  if (typeof email !== 'string' || !email || typeof key !== 'string' || !key) {
    throw new UnrecoverableError('GOOGLE_SERVICE_ACCOUNT_JSON needs client_email and private_key');
  }
  try {
    createPrivateKey(key);
  } catch {
    throw new UnrecoverableError('The private_key in GOOGLE_SERVICE_ACCOUNT_JSON is not a valid PEM key');
  }
  const jwt = new JWT({ email, key, scopes: [READONLY_SCOPE] });
  // A self-signed token: no call to Google's token endpoint (also what lets tests use a local fake).
  jwt.useJWTAccessWithScope = true;
  return jwt;
}

/** Failures that retrying cannot fix: bad credentials, no access, no such sheet, a bad range. */
export function isPermanentStatus(status: number | undefined): boolean {
  return status !== undefined && status >= 400 && status < 500 && status !== 408 && status !== 429;
}

function permanentReason(status: number, config: Config): string {
  switch (status) {
    case 400:
      return `check GOOGLE_SHEET_RANGE ("${config.GOOGLE_SHEET_RANGE}")`;
    case 401:
      return 'the credentials were not accepted';
    case 403:
      return config.GOOGLE_SERVICE_ACCOUNT_JSON
        ? 'share the sheet with the service account as a Viewer'
        : 'the API key has no access: share the sheet as "anyone with the link can view"';
    case 404:
      return `no sheet with GOOGLE_SHEET_ID "${config.GOOGLE_SHEET_ID}"`;
    default:
      return 'the request was refused';
  }
}

/**
 * Reads GOOGLE_SHEET_RANGE of GOOGLE_SHEET_ID with `spreadsheets.values.get`. Permanent failures
 * throw UnrecoverableError; network errors, 5xx and 429 throw plain errors so the job retries.
 */
export async function readSheetValues(config: Config): Promise<SheetValues> {
  const client = sheets({
    version: 'v4',
    auth: authFor(config),
    // rootUrl must be given to the client itself, with a trailing slash.
    ...(config.GOOGLE_API_URL && { rootUrl: config.GOOGLE_API_URL.replace(/\/?$/, '/') }),
  });
  try {
    const response = await client.spreadsheets.values.get(
      { spreadsheetId: config.GOOGLE_SHEET_ID!, range: config.GOOGLE_SHEET_RANGE },
      // BullMQ retries with backoff and records each attempt; the client must not retry on its own.
      { retry: false, timeout: TIMEOUT_MS },
    );
    const values: unknown = response.data.values ?? [];
    if (!Array.isArray(values) || !values.every(Array.isArray)) {
      throw new Error('Google Sheets answered without a values table');
    }
    return {
      range: typeof response.data.range === 'string' ? response.data.range : config.GOOGLE_SHEET_RANGE,
      values: (values as unknown[][]).map((cells) => cells.map((cell) => (cell == null ? '' : String(cell)))),
    };
  } catch (error) {
    if (error instanceof UnrecoverableError) throw error;
    const { status, code } = error as { status?: unknown; code?: unknown };
    const httpStatus = typeof status === 'number' ? status : typeof code === 'number' ? code : undefined;
    const message = (error as Error).message;
    if (isPermanentStatus(httpStatus)) {
      throw new UnrecoverableError(
        `Google Sheets refused the request (${httpStatus}): ${permanentReason(httpStatus!, config)}. ${message}`,
      );
    }
    const what = httpStatus ?? (typeof code === 'string' ? code : 'no answer');
    throw new Error(`Google Sheets could not be read (${what}): ${message}`, { cause: error });
  }
}
