import { readFile } from 'node:fs/promises';
import { UnrecoverableError } from 'bullmq';
import { parse } from 'csv-parse/sync';
import { sheets } from '@googleapis/sheets';
import { JWT } from 'google-auth-library';
import { orderLinkSource, type Config } from '@app/shared/config';
import type { SheetRow } from './match.ts';

const columnIndex = (letter: string) => letter.toUpperCase().charCodeAt(0) - 65;

/** Rows as {row, name, link}, the header row skipped. */
function toRows(values: string[][], config: Config): SheetRow[] {
  const name = columnIndex(config.SHEET_NAME_COLUMN);
  const link = columnIndex(config.SHEET_LINK_COLUMN);
  return values.slice(1).map((cells, index) => ({
    row: index + 2,
    name: String(cells[name] ?? ''),
    link: String(cells[link] ?? ''),
  }));
}

/** Failures that retrying cannot fix (bad credentials, no access, no such sheet or range). */
function permanent(status: number | undefined): boolean {
  return status !== undefined && status >= 400 && status < 500 && status !== 408 && status !== 429;
}

async function readSheet(config: Config): Promise<string[][]> {
  let auth: JWT | string;
  if (config.GOOGLE_SERVICE_ACCOUNT_JSON) {
    let credentials: { client_email?: string; private_key?: string };
    try {
      credentials = JSON.parse(config.GOOGLE_SERVICE_ACCOUNT_JSON);
    } catch {
      throw new UnrecoverableError('GOOGLE_SERVICE_ACCOUNT_JSON is not valid JSON');
    }
    const jwt = new JWT({
      email: credentials.client_email,
      key: credentials.private_key,
      scopes: ['https://www.googleapis.com/auth/spreadsheets.readonly'],
    });
    // A self-signed token: no call to Google's token endpoint (also what lets tests use a local fake).
    jwt.useJWTAccessWithScope = true;
    auth = jwt;
  } else {
    auth = config.GOOGLE_API_KEY!;
  }
  const client = sheets({
    version: 'v4',
    auth,
    ...(config.GOOGLE_API_URL && { rootUrl: config.GOOGLE_API_URL.replace(/\/?$/, '/') }),
  });
  try {
    const response = await client.spreadsheets.values.get(
      { spreadsheetId: config.GOOGLE_SHEET_ID!, range: config.GOOGLE_SHEET_RANGE },
      { retry: false, timeout: 20_000 },
    );
    return (response.data.values ?? []) as string[][];
  } catch (error) {
    const status =
      (error as { status?: number; code?: number | string }).status ??
      Number((error as { code?: unknown }).code);
    const message = (error as Error).message;
    if (permanent(Number.isNaN(status) ? undefined : status)) {
      throw new UnrecoverableError(`Google Sheets refused the request (${status}): ${message}`);
    }
    throw new Error(`Google Sheets could not be read: ${message}`, { cause: error });
  }
}

async function readCsv(source: string): Promise<string[][]> {
  let text: string;
  if (/^https?:\/\//i.test(source)) {
    const response = await fetch(source, { signal: AbortSignal.timeout(20_000) });
    if (!response.ok) {
      const reason = `The order-links CSV answered ${response.status}`;
      throw permanent(response.status) ? new UnrecoverableError(reason) : new Error(reason);
    }
    text = await response.text();
  } else {
    text = await readFile(source, 'utf8').catch((error: NodeJS.ErrnoException) => {
      throw new UnrecoverableError(`The order-links CSV cannot be read: ${error.code ?? error.message}`);
    });
  }
  try {
    return parse(text, { relaxColumnCount: true, skipEmptyLines: true, bom: true }) as string[][];
  } catch (error) {
    throw new UnrecoverableError(`The order-links CSV is not valid CSV: ${(error as Error).message}`);
  }
}

export async function readOrderLinkRows(config: Config): Promise<SheetRow[]> {
  const source = orderLinkSource(config);
  if (!source)
    throw new UnrecoverableError(
      'No order-link source is configured (GOOGLE_SHEET_ID with credentials, or ORDER_LINKS_CSV)',
    );
  return toRows(
    source === 'sheet' ? await readSheet(config) : await readCsv(config.ORDER_LINKS_CSV!),
    config,
  );
}
