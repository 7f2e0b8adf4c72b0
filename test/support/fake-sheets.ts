import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for the Google Sheets values endpoint, reached by the real @googleapis/sheets
 * client through GOOGLE_API_URL. It checks the API key or the service account's self-signed token.
 */
export interface FakeSheets {
  url: string;
  apiKey: string;
  values: string[][];
  requests: Array<{ path: string; auth: 'key' | 'jwt' }>;
  /** The next `times` requests answer with this status. */
  failNext(status: number, times?: number): void;
  close(): Promise<void>;
}

export async function startFakeSheets(options: { serviceAccountEmail?: string } = {}): Promise<FakeSheets> {
  const apiKey = 'fake-api-key-123';
  let failure: { status: number; times: number } | undefined;
  const fake: Omit<FakeSheets, 'url' | 'close'> = {
    apiKey,
    values: [],
    requests: [],
    failNext(status, times = 1) {
      failure = { status, times };
    },
  };
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    const send = (status: number, body: object) => {
      res.writeHead(status, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    let auth: 'key' | 'jwt' | undefined;
    if (url.searchParams.get('key') === apiKey) auth = 'key';
    else if (bearer && options.serviceAccountEmail) {
      const claims = JSON.parse(Buffer.from(bearer.split('.')[1] ?? '', 'base64url').toString() || '{}') as {
        iss?: string;
      };
      if (claims.iss === options.serviceAccountEmail) auth = 'jwt';
    }
    if (!auth)
      return send(403, {
        error: { code: 403, message: 'The caller does not have permission', status: 'PERMISSION_DENIED' },
      });
    const match = /^\/v4\/spreadsheets\/([^/]+)\/values\/(.+)$/.exec(url.pathname);
    if (!match)
      return send(404, {
        error: { code: 404, message: 'Requested entity was not found.', status: 'NOT_FOUND' },
      });
    fake.requests.push({ path: url.pathname, auth });
    if (failure && failure.times > 0) {
      failure.times--;
      return send(failure.status, {
        error: { code: failure.status, message: `Simulated ${failure.status}` },
      });
    }
    send(200, { range: decodeURIComponent(match[2]!), majorDimension: 'ROWS', values: fake.values });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(fake, {
    url: `http://127.0.0.1:${port}/`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}
