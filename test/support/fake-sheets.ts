import { verify, type KeyObject } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for the Google Sheets values endpoint (GET /v4/spreadsheets/{id}/values/{range}),
 * reached by the real @googleapis/sheets client through GOOGLE_API_URL. It accepts the API key, or a
 * service account's self-signed token (RS256 signature checked with the account's public key, issuer,
 * expiry and scope), and reads the requested block out of `values` (the whole first sheet from A1),
 * trimming trailing empty cells and rows as Google does.
 */
export interface FakeSheets {
  url: string;
  apiKey: string;
  /** The sheet's cells from A1, row by row. */
  values: string[][];
  requests: Array<{ path: string; auth: 'key' | 'jwt'; range: string }>;
  /** Answer value requests this much later (a slow sheet, to catch a sync while it runs). */
  delayMs: number;
  /** The next `times` value requests answer with this status, or drop the connection ('reset'). */
  failNext(status: number | 'reset', times?: number): void;
  close(): Promise<void>;
}

export interface FakeSheetsOptions {
  serviceAccount?: { email: string; publicKey: KeyObject };
  /** Known spreadsheet ids; others get 404. Any id when unset. */
  spreadsheetIds?: string[];
  /** Tab names a range may name; others get 400 as from Google. */
  sheetNames?: string[];
}

const SCOPE = /(^| )https:\/\/www\.googleapis\.com\/auth\/spreadsheets(\.readonly)?( |$)/;

const columnNumber = (letters: string) =>
  [...letters.toUpperCase()].reduce((n, letter) => n * 26 + letter.charCodeAt(0) - 64, 0);
const columnName = (n: number): string =>
  n <= 0 ? '' : columnName(Math.floor((n - 1) / 26)) + String.fromCharCode(65 + ((n - 1) % 26));

/** A1 notation as Google reads it; null when it cannot be parsed. */
function parseA1(range: string, sheetNames: string[]) {
  const bang = range.lastIndexOf('!');
  const sheet = bang >= 0 ? range.slice(0, bang).replace(/^'(.*)'$/, '$1') : undefined;
  const cells = bang >= 0 ? range.slice(bang + 1) : range;
  if (bang < 0 && sheetNames.includes(range)) return { sheet: range, c1: 1, r1: 1, c2: 26, r2: 1000 };
  if (sheet !== undefined && !sheetNames.includes(sheet)) return null;
  const match = /^([A-Z]{1,3})(\d+)?(?::([A-Z]{1,3})(\d+)?)?$/i.exec(cells);
  if (!match) return null;
  const c1 = columnNumber(match[1]!);
  const c2 = match[3] ? columnNumber(match[3]) : c1;
  return {
    sheet: sheet ?? sheetNames[0]!,
    c1,
    r1: match[2] ? Number(match[2]) : 1,
    c2,
    r2: match[4] ? Number(match[4]) : 1000,
  };
}

function checkJwt(token: string, account: NonNullable<FakeSheetsOptions['serviceAccount']>): boolean {
  const [header, payload, signature] = token.split('.');
  if (!header || !payload || !signature) return false;
  const signed = verify(
    'RSA-SHA256',
    Buffer.from(`${header}.${payload}`),
    account.publicKey,
    Buffer.from(signature, 'base64url'),
  );
  if (!signed) return false;
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as {
    iss?: string;
    exp?: number;
    scope?: string;
  };
  return (
    claims.iss === account.email && (claims.exp ?? 0) * 1000 > Date.now() && SCOPE.test(claims.scope ?? '')
  );
}

export async function startFakeSheets(options: FakeSheetsOptions = {}): Promise<FakeSheets> {
  const apiKey = 'fake-api-key-123';
  const sheetNames = options.sheetNames ?? ['Sheet1'];
  let failure: { status: number | 'reset'; times: number } | undefined;
  const fake: Omit<FakeSheets, 'url' | 'close'> = {
    apiKey,
    values: [],
    requests: [],
    delayMs: 0,
    failNext(status, times = 1) {
      failure = { status, times };
    },
  };
  const handle = (req: http.IncomingMessage, res: http.ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    const send = (status: number, body: object) => {
      res.writeHead(status, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    const error = (code: number, status: string, message: string) =>
      send(code, { error: { code, message, status } });
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    let auth: 'key' | 'jwt' | undefined;
    if (url.searchParams.get('key') === apiKey) auth = 'key';
    else if (bearer && options.serviceAccount && checkJwt(bearer, options.serviceAccount)) auth = 'jwt';
    if (!auth) {
      return bearer || url.searchParams.has('key')
        ? error(401, 'UNAUTHENTICATED', 'Request had invalid authentication credentials.')
        : error(403, 'PERMISSION_DENIED', 'The caller does not have permission');
    }
    const match = /^\/v4\/spreadsheets\/([^/]+)\/values\/([^/]+)$/.exec(url.pathname);
    if (req.method !== 'GET' || !match) return error(404, 'NOT_FOUND', 'Requested entity was not found.');
    const range = decodeURIComponent(match[2]!);
    fake.requests.push({ path: url.pathname, auth, range });
    if (failure && failure.times > 0) {
      failure.times--;
      if (failure.status === 'reset') return void req.socket.destroy();
      return error(failure.status, 'SIMULATED', `Simulated ${failure.status}`);
    }
    const spreadsheetId = decodeURIComponent(match[1]!);
    if (options.spreadsheetIds && !options.spreadsheetIds.includes(spreadsheetId)) {
      return error(404, 'NOT_FOUND', 'Requested entity was not found.');
    }
    const block = parseA1(range, sheetNames);
    if (!block) return error(400, 'INVALID_ARGUMENT', `Unable to parse range: ${range}`);
    const rows = fake.values.slice(block.r1 - 1, block.r2).map((cells) => {
      const part = cells.slice(block.c1 - 1, block.c2);
      while (part.length > 0 && part.at(-1) === '') part.pop();
      return part;
    });
    while (rows.length > 0 && rows.at(-1)!.length === 0) rows.pop();
    send(200, {
      range: `${block.sheet}!${columnName(block.c1)}${block.r1}:${columnName(block.c2)}${block.r2}`,
      majorDimension: 'ROWS',
      ...(rows.length > 0 && { values: rows }),
    });
  };
  const server = http.createServer((req, res) => {
    if (fake.delayMs > 0) setTimeout(() => handle(req, res), fake.delayMs);
    else handle(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(fake, {
    url: `http://127.0.0.1:${port}/`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}
