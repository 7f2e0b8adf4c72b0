import { generateKeyPairSync } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { UnrecoverableError } from 'bullmq';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseConfig } from '@app/shared/config';
import { startFakeSheets, type FakeSheets } from '../../../test/support/fake-sheets.ts';
import { columnIndex, parseRange, readOrderLinkRows } from './sources.ts';

const header = ['Competition', 'Date', 'Order link'];
const serviceAccountEmail = 'sync@stagelight-test.iam.gserviceaccount.com';
const account = generateKeyPairSync('rsa', { modulusLength: 2048 });
const serviceAccountJson = (privateKey = account.privateKey) =>
  JSON.stringify({
    type: 'service_account',
    client_email: serviceAccountEmail,
    private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }),
  });

async function failure(promise: Promise<unknown>): Promise<Error> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught as Error,
  );
  if (!error) throw new Error('expected a failure');
  return error;
}

describe('A1 ranges and columns', () => {
  it('reads column names and where a block starts', () => {
    expect([
      columnIndex('A'),
      columnIndex('c'),
      columnIndex('Z'),
      columnIndex('AA'),
      columnIndex('AC'),
    ]).toEqual([0, 2, 25, 26, 28]);
    expect(parseRange('A:C')).toEqual({ column: 0, row: 1, lastColumn: 2 });
    expect(parseRange('Sheet1!A1:C1000')).toEqual({ column: 0, row: 1, lastColumn: 2 });
    expect(parseRange("'Comps 2027'!B3:D")).toEqual({ column: 1, row: 3, lastColumn: 3 });
    expect(parseRange('Competitions')).toEqual({ column: 0, row: 1 });
    expect(parseRange('A1')).toEqual({ column: 0, row: 1 });
  });
});

describe('Google Sheets through the real client', () => {
  let sheets: FakeSheets;
  const config = (overrides: Record<string, string> = {}) =>
    parseConfig({
      GOOGLE_SHEET_ID: 'sheet-1',
      GOOGLE_API_KEY: sheets.apiKey,
      GOOGLE_API_URL: sheets.url,
      ...overrides,
    });

  beforeAll(async () => {
    sheets = await startFakeSheets({
      serviceAccount: { email: serviceAccountEmail, publicKey: account.publicKey },
      spreadsheetIds: ['sheet-1'],
      sheetNames: ['Sheet1', 'Competitions'],
    });
  });
  afterAll(() => sheets.close());
  beforeEach(() => {
    sheets.requests.length = 0;
    sheets.failNext(200, 0);
    sheets.values = [
      header,
      ['Canterbury Dance Festival', '1 Mar', 'https://form.example/canterbury'],
      [],
      ['Nelson Champs', '3 Mar'],
    ];
  });

  it('reads with an API key, skips the header and keeps sheet row numbers', async () => {
    expect(await readOrderLinkRows(config())).toEqual([
      { row: 2, name: 'Canterbury Dance Festival', link: 'https://form.example/canterbury' },
      { row: 3, name: '', link: '' },
      { row: 4, name: 'Nelson Champs', link: '' },
    ]);
    expect(sheets.requests).toEqual([
      { path: '/v4/spreadsheets/sheet-1/values/A%3AC', auth: 'key', range: 'A:C' },
    ]);
  });

  it('reads with a service account signing its own token', async () => {
    const rows = await readOrderLinkRows(
      config({ GOOGLE_API_KEY: '', GOOGLE_SERVICE_ACCOUNT_JSON: serviceAccountJson() }),
    );
    expect(rows[0]).toEqual({
      row: 2,
      name: 'Canterbury Dance Festival',
      link: 'https://form.example/canterbury',
    });
    expect(sheets.requests.at(-1)?.auth).toBe('jwt');
  });

  it('refuses a token signed with another key, at once', async () => {
    const other = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
    const error = await failure(
      readOrderLinkRows(
        config({ GOOGLE_API_KEY: '', GOOGLE_SERVICE_ACCOUNT_JSON: serviceAccountJson(other) }),
      ),
    );
    expect(error).toBeInstanceOf(UnrecoverableError);
    expect(error.message).toMatch(/refused the request \(401\)/);
  });

  it('rejects broken service-account settings before calling Google', async () => {
    for (const [json, reason] of [
      ['{not json', /not valid JSON/],
      ['{"client_email":"a@b.c"}', /needs client_email and private_key/],
      [
        '{"client_email":"a@b.c","private_key":"-----BEGIN PRIVATE KEY-----\\nxx\\n-----END PRIVATE KEY-----"}',
        /not a valid PEM key/,
      ],
    ] as const) {
      const error = await failure(readOrderLinkRows(config({ GOOGLE_SERVICE_ACCOUNT_JSON: json })));
      expect(error).toBeInstanceOf(UnrecoverableError);
      expect(error.message).toMatch(reason);
    }
    expect(sheets.requests).toEqual([]);
  });

  it('follows a range that starts elsewhere, and columns past Z', async () => {
    sheets.values = [
      ['Order links 2027'],
      ['', 'Competition', 'Date', 'Order link'],
      ['', 'Auckland Cup', '2 Apr', 'https://form.example/auckland'],
    ];
    expect(
      await readOrderLinkRows(
        config({ GOOGLE_SHEET_RANGE: 'Competitions!B2:D', SHEET_NAME_COLUMN: 'B', SHEET_LINK_COLUMN: 'D' }),
      ),
    ).toEqual([{ row: 3, name: 'Auckland Cup', link: 'https://form.example/auckland' }]);

    const wide = Array.from({ length: 30 }, () => '');
    sheets.values = [
      wide,
      Object.assign([...wide], { 26: 'Wanaka Dance', 28: 'https://form.example/wanaka' }),
    ];
    expect(
      await readOrderLinkRows(
        config({ GOOGLE_SHEET_RANGE: 'AA:AC', SHEET_NAME_COLUMN: 'AA', SHEET_LINK_COLUMN: 'AC' }),
      ),
    ).toEqual([{ row: 2, name: 'Wanaka Dance', link: 'https://form.example/wanaka' }]);
  });

  it('fails at once when the link column is outside the range', async () => {
    const error = await failure(readOrderLinkRows(config({ GOOGLE_SHEET_RANGE: 'A:B' })));
    expect(error).toBeInstanceOf(UnrecoverableError);
    expect(error.message).toMatch(/link column C is outside the range read/);
  });

  it('fails at once on 403, 404 and a bad range, with the reason', async () => {
    sheets.failNext(403);
    const forbidden = await failure(readOrderLinkRows(config()));
    expect(forbidden).toBeInstanceOf(UnrecoverableError);
    expect(forbidden.message).toMatch(/refused the request \(403\).*anyone with the link/);

    const missing = await failure(readOrderLinkRows(config({ GOOGLE_SHEET_ID: 'no-such-sheet' })));
    expect(missing).toBeInstanceOf(UnrecoverableError);
    expect(missing.message).toMatch(/\(404\).*no sheet with GOOGLE_SHEET_ID "no-such-sheet"/);

    for (const range of ['Nowhere!A:C', 'A::C']) {
      const badRange = await failure(readOrderLinkRows(config({ GOOGLE_SHEET_RANGE: range })));
      expect(badRange).toBeInstanceOf(UnrecoverableError);
      expect(badRange.message).toMatch(/\(400\).*check GOOGLE_SHEET_RANGE.*Unable to parse range/);
    }
  });

  it('leaves 429, 5xx and network failures to be retried', async () => {
    for (const status of [429, 500, 503, 'reset'] as const) {
      sheets.failNext(status);
      const error = await failure(readOrderLinkRows(config()));
      expect(error).not.toBeInstanceOf(UnrecoverableError);
      expect(error.message).toMatch(/Google Sheets could not be read/);
      // The failure was one request: the client does not retry on its own.
      expect(sheets.requests.length).toBe(1);
      sheets.requests.length = 0;
    }
    const unreachable = await failure(readOrderLinkRows(config({ GOOGLE_API_URL: 'http://127.0.0.1:1/' })));
    expect(unreachable).not.toBeInstanceOf(UnrecoverableError);
    expect(unreachable.message).toMatch(/ECONNREFUSED/);
  });

  it('fails at once when nothing is configured', async () => {
    const error = await failure(readOrderLinkRows(parseConfig({})));
    expect(error).toBeInstanceOf(UnrecoverableError);
    expect(error.message).toMatch(/No order-link source is configured/);
  });
});

describe('CSV from a file or a URL', () => {
  let dir: string;
  let server: http.Server;
  let baseUrl: string;
  let answer: { status: number; body: string };

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'stagelight-sources-'));
    server = http.createServer((_req, res) => {
      res.writeHead(answer.status, { 'Content-Type': 'text/csv' });
      res.end(answer.body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await rm(dir, { recursive: true, force: true });
  });

  it('reads a file: BOM, quoted commas and empty lines keep the sheet row numbers', async () => {
    const file = path.join(dir, 'links.csv');
    await writeFile(
      file,
      '\uFEFFCompetition,Date,Order link\n"Jazz, Tap & Hip Hop",x,https://form.example/jazz\n\nAuckland Cup,x\n',
    );
    expect(await readOrderLinkRows(parseConfig({ ORDER_LINKS_CSV: file }))).toEqual([
      { row: 2, name: 'Jazz, Tap & Hip Hop', link: 'https://form.example/jazz' },
      { row: 3, name: '', link: '' },
      { row: 4, name: 'Auckland Cup', link: '' },
    ]);
  });

  it('fails at once on a missing file or broken CSV', async () => {
    const missing = await failure(
      readOrderLinkRows(parseConfig({ ORDER_LINKS_CSV: path.join(dir, 'none.csv') })),
    );
    expect(missing).toBeInstanceOf(UnrecoverableError);
    expect(missing.message).toMatch(/cannot be read: ENOENT/);
    const broken = path.join(dir, 'broken.csv');
    await writeFile(broken, 'Competition,Date,Order link\n"unterminated');
    const error = await failure(readOrderLinkRows(parseConfig({ ORDER_LINKS_CSV: broken })));
    expect(error).toBeInstanceOf(UnrecoverableError);
    expect(error.message).toMatch(/not valid CSV/);
  });

  it('reads a URL; 4xx fails at once, 5xx and no answer are retried', async () => {
    const config = parseConfig({ ORDER_LINKS_CSV: `${baseUrl}/links.csv` });
    answer = {
      status: 200,
      body: 'Competition,Date,Order link\nNelson Champs,x,https://form.example/nelson\n',
    };
    expect(await readOrderLinkRows(config)).toEqual([
      { row: 2, name: 'Nelson Champs', link: 'https://form.example/nelson' },
    ]);
    answer = { status: 404, body: 'gone' };
    expect(await failure(readOrderLinkRows(config))).toBeInstanceOf(UnrecoverableError);
    answer = { status: 503, body: 'busy' };
    const busy = await failure(readOrderLinkRows(config));
    expect(busy).not.toBeInstanceOf(UnrecoverableError);
    expect(busy.message).toMatch(/answered 503/);
    const down = await failure(
      readOrderLinkRows(parseConfig({ ORDER_LINKS_CSV: 'http://127.0.0.1:1/links.csv' })),
    );
    expect(down).not.toBeInstanceOf(UnrecoverableError);
    expect(down.message).toMatch(/could not be fetched/);
  });
});
