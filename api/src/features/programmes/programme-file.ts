import { parse } from 'csv-parse/sync';
import type ExcelJS from 'exceljs';
import iconv from 'iconv-lite';
import { HttpError } from '../../http/errors.ts';

// Reading an uploaded programme (CSV or XLSX) into sheets of text cells. Nothing here is kept: the
// bytes are read in memory and dropped (decision 032).

/** The largest programme file accepted (a season's biggest programme is a few hundred KB). */
export const PROGRAMME_MAX_BYTES = 5 * 1024 * 1024;
/** Rows read per sheet at most: a programme holds hundreds; more is not a programme. */
export const PROGRAMME_MAX_ROWS = 5_000;
/** Columns read per row at most. */
const MAX_COLUMNS = 50;
/** An XLSX is a zip: what its parts may declare unpacked, in all (a zip bomb declares gigabytes). */
const MAX_UNZIPPED_BYTES = 60 * 1024 * 1024;
const MAX_ZIP_ENTRIES = 2_000;

export interface ProgrammeSheet {
  name: string;
  /** Every row as text cells, from the sheet's first row (row number = index + 1). */
  rows: string[][];
}

const refuse = (message: string) => new HttpError(400, message);

/**
 * The zip's own account of its parts, from the central directory, before anything is unpacked: the
 * declared sizes are what a reader would unpack (a part that unpacks past its declared size is a
 * corrupt zip to the reader too). Zip64 sizes are refused outright: no programme needs them.
 */
export function checkZipSizes(bytes: Buffer): void {
  const minimum = 22;
  let end = -1;
  for (let at = bytes.length - minimum; at >= Math.max(0, bytes.length - minimum - 65_535); at--) {
    if (bytes.readUInt32LE(at) === 0x06054b50) {
      end = at;
      break;
    }
  }
  if (end < 0) throw refuse('This file is not a readable XLSX workbook.');
  const entries = bytes.readUInt16LE(end + 10);
  const directoryOffset = bytes.readUInt32LE(end + 16);
  if (entries === 0xffff || directoryOffset === 0xffffffff || entries > MAX_ZIP_ENTRIES)
    throw refuse('This workbook is too large to read.');
  let at = directoryOffset;
  let total = 0;
  for (let index = 0; index < entries; index++) {
    if (at + 46 > bytes.length || bytes.readUInt32LE(at) !== 0x02014b50)
      throw refuse('This file is not a readable XLSX workbook.');
    const size = bytes.readUInt32LE(at + 24);
    if (size === 0xffffffff) throw refuse('This workbook is too large to read.');
    total += size;
    if (total > MAX_UNZIPPED_BYTES)
      throw refuse('This workbook unpacks to more than 60 MB: it is not a programme we can read.');
    at += 46 + bytes.readUInt16LE(at + 28) + bytes.readUInt16LE(at + 30) + bytes.readUInt16LE(at + 32);
  }
}

/**
 * CSV text: UTF-8 when the bytes are valid UTF-8 (with or without a BOM), else Windows-1252, which
 * Excel on Windows writes for "CSV (Comma delimited)" (it has no ā: such names arrive as "a" or "?").
 */
export function decodeCsv(bytes: Buffer): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes).replace(/^\uFEFF/, '');
  } catch {
    return iconv.decode(bytes, 'win1252');
  }
}

function readCsv(bytes: Buffer): ProgrammeSheet[] {
  const text = decodeCsv(bytes);
  const firstLine = text.slice(0, text.search(/\r?\n|$/));
  // Excel in locales with a decimal comma writes semicolons.
  const delimiter = (firstLine.match(/;/g)?.length ?? 0) > (firstLine.match(/,/g)?.length ?? 0) ? ';' : ',';
  let rows: string[][];
  try {
    rows = parse(text, {
      delimiter,
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: false,
      to: PROGRAMME_MAX_ROWS + 1,
      cast: false,
    }) as string[][];
  } catch (error) {
    throw refuse(`This CSV file cannot be read: ${(error as Error).message.slice(0, 200)}`);
  }
  if (rows.length > PROGRAMME_MAX_ROWS)
    throw refuse(`A programme may have at most ${PROGRAMME_MAX_ROWS} rows.`);
  return [{ name: 'CSV', rows: rows.map((row) => row.slice(0, MAX_COLUMNS).map(cleanCell)) }];
}

const cleanCell = (value: string) => value.replace(/\s+/g, ' ').trim();

/** A cell as the owner sees it in Excel; a formula's last result, never the formula. */
function cellText(cell: ExcelJS.Cell): string {
  const value = cell.value;
  if (value === null || value === undefined) return '';
  if (typeof value === 'object' && !(value instanceof Date)) {
    if ('result' in value) return value.result === undefined ? '' : String(value.result);
    if ('richText' in value) return value.richText.map((part) => part.text).join('');
    if ('text' in value) return String(value.text);
    if ('error' in value) return '';
  }
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  return String(value);
}

async function readXlsx(bytes: Buffer): Promise<ProgrammeSheet[]> {
  checkZipSizes(bytes);
  // Loaded on the owner's first XLSX: exceljs costs every api process memory it would rarely use.
  const { default: Excel } = await import('exceljs');
  const workbook = new Excel.Workbook();
  try {
    await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
  } catch {
    throw refuse('This file is not a readable XLSX workbook.');
  }
  return workbook.worksheets.map((sheet) => {
    if (sheet.rowCount > PROGRAMME_MAX_ROWS)
      throw refuse(`Sheet "${sheet.name}" has more than ${PROGRAMME_MAX_ROWS} rows.`);
    const rows: string[][] = [];
    for (let number = 1; number <= sheet.rowCount; number++) {
      const row = sheet.getRow(number);
      const cells: string[] = [];
      for (let column = 1; column <= Math.min(MAX_COLUMNS, row.cellCount); column++)
        cells.push(cleanCell(cellText(row.getCell(column))));
      rows.push(cells);
    }
    return { name: sheet.name, rows };
  });
}

/** The sheets of an uploaded programme: an XLSX's worksheets, or a CSV's one. */
export async function readProgrammeFile(bytes: Buffer): Promise<ProgrammeSheet[]> {
  if (bytes.length === 0) throw refuse('The file is empty.');
  if (bytes.length > PROGRAMME_MAX_BYTES) throw refuse('A programme file may be at most 5 MB.');
  const isZip = bytes.length >= 4 && bytes.readUInt32LE(0) === 0x04034b50;
  if (bytes.length >= 4 && bytes.readUInt32LE(0) === 0xe011cfd0)
    throw refuse('This is an old Excel (.xls) file: save it as XLSX or CSV and upload that.');
  const sheets = isZip ? await readXlsx(bytes) : readCsv(bytes);
  const withRows = sheets.filter((sheet) => sheet.rows.some((row) => row.some(Boolean)));
  if (withRows.length === 0) throw refuse('The file holds no rows.');
  return withRows;
}
