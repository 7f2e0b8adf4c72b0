import { readFile } from 'node:fs/promises';
import { UnrecoverableError } from 'bullmq';
import { parse } from 'csv-parse/sync';
import { orderLinkSource, type Config } from '@app/shared/config';
import { isPermanentStatus, readSheetValues } from '../clients/sheets.ts';
import type { SheetRow } from './match.ts';

const TIMEOUT_MS = 20_000;

/** Zero-based index of a column name: A → 0, C → 2, AA → 26. */
export function columnIndex(letters: string): number {
  let index = 0;
  for (const letter of letters.toUpperCase()) index = index * 26 + (letter.charCodeAt(0) - 64);
  return index - 1;
}

/**
 * Where a block in A1 notation starts and ends: `Competitions!B2:D` → column 1, row 2, last column 3.
 * A bare sheet name (`Competitions`) is the whole sheet.
 */
export function parseRange(range: string): { column: number; row: number; lastColumn?: number } {
  const cells = range.includes('!') ? range.slice(range.lastIndexOf('!') + 1) : range;
  const match = /^\$?([A-Za-z]{1,3})?\$?(\d+)?(?::\$?([A-Za-z]{1,3})?\$?(\d+)?)?$/.exec(cells.trim());
  if (!match || (!range.includes('!') && !match[1] && !match[2])) return { column: 0, row: 1 };
  return {
    column: match[1] ? columnIndex(match[1]) : 0,
    row: match[2] ? Number(match[2]) : 1,
    ...(match[3] && { lastColumn: columnIndex(match[3]) }),
  };
}

/**
 * A values block as rows {row, name, link}: the block's first row is the header and is skipped;
 * the name and link columns are SHEET_NAME_COLUMN and SHEET_LINK_COLUMN of the sheet, wherever the block starts.
 */
export function toRows(values: string[][], range: string, config: Config): SheetRow[] {
  const start = parseRange(range);
  const columns = { name: config.SHEET_NAME_COLUMN, link: config.SHEET_LINK_COLUMN };
  for (const [which, letter] of Object.entries(columns)) {
    const index = columnIndex(letter);
    if (index < start.column || (start.lastColumn !== undefined && index > start.lastColumn)) {
      throw new UnrecoverableError(
        `The ${which} column ${letter} is outside the range read (${range}): check GOOGLE_SHEET_RANGE and SHEET_${which.toUpperCase()}_COLUMN`,
      );
    }
  }
  const name = columnIndex(columns.name) - start.column;
  const link = columnIndex(columns.link) - start.column;
  return values.slice(1).map((cells, index) => ({
    row: start.row + index + 1,
    name: cells[name] ?? '',
    link: cells[link] ?? '',
  }));
}

async function readCsv(source: string): Promise<string[][]> {
  let text: string;
  if (/^https?:\/\//i.test(source)) {
    let response: Response;
    try {
      response = await fetch(source, { signal: AbortSignal.timeout(TIMEOUT_MS) });
    } catch (error) {
      throw new Error(`The order-links CSV could not be fetched: ${(error as Error).message}`, {
        cause: error,
      });
    }
    if (!response.ok) {
      const reason = `The order-links CSV answered ${response.status}`;
      throw isPermanentStatus(response.status) ? new UnrecoverableError(reason) : new Error(reason);
    }
    text = await response.text();
  } else {
    text = await readFile(source, 'utf8').catch((error: NodeJS.ErrnoException) => {
      throw new UnrecoverableError(`The order-links CSV cannot be read: ${error.code ?? error.message}`);
    });
  }
  try {
    // Empty lines are kept (as empty rows, skipped later) so row numbers stay those of the sheet.
    return parse(text, { relaxColumnCount: true, skipEmptyLines: false, bom: true }) as string[][];
  } catch (error) {
    throw new UnrecoverableError(`The order-links CSV is not valid CSV: ${(error as Error).message}`);
  }
}

/** The configured sheet or CSV as rows, header skipped. Missing configuration is a permanent failure. */
export async function readOrderLinkRows(config: Config): Promise<SheetRow[]> {
  const source = orderLinkSource(config);
  if (!source) {
    throw new UnrecoverableError(
      'No order-link source is configured (GOOGLE_SHEET_ID with credentials, or ORDER_LINKS_CSV)',
    );
  }
  if (source === 'sheet') {
    const { range, values } = await readSheetValues(config);
    return toRows(values, range, config);
  }
  return toRows(await readCsv(config.ORDER_LINKS_CSV!), 'A1', config);
}
