import { createHash } from 'node:crypto';
import type {
  PlannedEntry,
  ProgrammeField,
  ProgrammeMapping,
  ProgrammeRowProblem,
} from '@app/shared/schemas';

// From a sheet's rows and the owner's column mapping to the entries that will be saved, and every row
// that cannot be, with its number and why. Pure: the preview and the import share it.

const MAX_NAME = 120;
const MAX_TEXT = 200;

/** The header row's identity: the same words in the same columns, whatever their case or spacing. */
export const headerHash = (headers: string[]) =>
  createHash('sha256')
    .update(JSON.stringify(headers.map((header) => header.toLowerCase().replace(/\s+/g, ' ').trim())))
    .digest('base64url');

const guesses: Array<[ProgrammeField, RegExp]> = [
  ['entryNumber', /^(entry|item|routine)?\s*(no\.?|number|#|num)$|^(entry|item)$/i],
  ['dancers', /dancer|performer|competitor|name/i],
  ['studio', /studio|school|academy|club/i],
  ['section', /section|category|division|class/i],
  ['title', /title|routine|dance|song|music/i],
];

/** A first mapping from the header's words ("Item No", "Dancer(s)", "Studio", ...); null without an entry column. */
export function guessMapping(headers: string[]): ProgrammeMapping | null {
  const mapping: Partial<Record<ProgrammeField, number>> = {};
  const taken = new Set<number>();
  for (const [field, pattern] of guesses) {
    const index = headers.findIndex((header, at) => !taken.has(at) && pattern.test(header.trim()));
    if (index >= 0) {
      mapping[field] = index;
      taken.add(index);
    }
  }
  return mapping.entryNumber === undefined ? null : (mapping as ProgrammeMapping);
}

/**
 * "47", "#47", "Item 47", "47b" → "47b" and its number 47; null when it is not an entry number.
 * Letters after the number mark a second entry of the same number (a re-run, a split section).
 */
export function parseEntryNumber(text: string): { entryNumber: string; entrySort: number } | null {
  const match = /^(?:(?:item|entry|no\.?)\s*)?#?\s*(\d{1,6})\s*([a-z]{0,2})$/i.exec(text.trim());
  if (!match) return null;
  const digits = match[1]!.replace(/^0+(?=\d)/, '');
  return { entryNumber: `${digits}${match[2]!.toLowerCase()}`, entrySort: Number(digits) };
}

/** "Aroha Ngata, Mia Chen & Tūī Parata" → three names (commas, semicolons, ampersands, slashes, " and "). */
export const splitDancers = (cell: string) =>
  cell
    .split(/\s*(?:[,;&/\n]|\band\b)\s*/i)
    .map((name) => name.replace(/\s+/g, ' ').trim())
    .filter(Boolean);

/** The key names are matched by, as the database makes it (lower case, without diacritics). */
export const nameKey = (name: string) =>
  name.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().replace(/\s+/g, ' ').trim();

export interface PlannedProgramme {
  entries: Array<PlannedEntry & { entrySort: number }>;
  problems: ProgrammeRowProblem[];
}

/**
 * The entries of a sheet's rows (the first row is the header). Consecutive rows with the same entry
 * number are one entry with a dancer per row; the same number again further down is a problem.
 */
export function planProgramme(rows: string[][], mapping: ProgrammeMapping): PlannedProgramme {
  const problems: ProgrammeRowProblem[] = [];
  const entries: PlannedProgramme['entries'] = [];
  const firstRow = new Map<string, number>();
  const badRows = new Set<number>();
  const cell = (row: string[], field: ProgrammeField) => {
    const index = mapping[field];
    return index === undefined ? '' : (row[index] ?? '').trim();
  };
  let previous: (PlannedEntry & { entrySort: number }) | undefined;
  for (const [index, row] of rows.entries()) {
    if (index === 0) continue;
    const rowNumber = index + 1;
    if (!row.some(Boolean)) {
      previous = undefined;
      continue;
    }
    const problem = (message: string) => {
      problems.push({ row: rowNumber, message });
      badRows.add(rowNumber);
    };
    const numberText = cell(row, 'entryNumber');
    const dancers = splitDancers(cell(row, 'dancers'));
    const section = cell(row, 'section');
    const title = cell(row, 'title');
    const studio = cell(row, 'studio');
    if (!numberText) {
      problem('No entry number');
      continue;
    }
    const parsed = parseEntryNumber(numberText);
    if (!parsed) {
      problem(`"${numberText.slice(0, 40)}" is not an entry number (like 47 or 47b)`);
      continue;
    }
    const tooLong = [section, title].some((value) => value.length > MAX_TEXT)
      ? `A section or title longer than ${MAX_TEXT} characters`
      : [studio, ...dancers].some((value) => value.length > MAX_NAME)
        ? `A name longer than ${MAX_NAME} characters`
        : undefined;
    if (tooLong) {
      problem(tooLong);
      continue;
    }
    const key = parsed.entryNumber;
    // One row per dancer: the entry's next row, with nothing else or the same entry's details.
    if (previous && previous.entryNumber === key) {
      if (mapping.dancers !== undefined && dancers.length === 0)
        problem(`Entry ${key}: the dancer's name is empty`);
      for (const name of dancers)
        if (!previous.dancers.some((known) => nameKey(known) === nameKey(name))) previous.dancers.push(name);
      continue;
    }
    const seen = firstRow.get(key);
    if (seen !== undefined) {
      problem(`Entry ${key} appears twice (also on row ${seen})`);
      previous = undefined;
      continue;
    }
    firstRow.set(key, rowNumber);
    if (mapping.dancers !== undefined && dancers.length === 0) {
      problem(`Entry ${key} names no dancer`);
      previous = undefined;
      continue;
    }
    const unique = dancers.filter(
      (name, at) => dancers.findIndex((other) => nameKey(other) === nameKey(name)) === at,
    );
    previous = { row: rowNumber, ...parsed, section, title, studio, dancers: unique };
    entries.push(previous);
  }
  // An entry one of whose rows is bad is not saved either: half an entry would lose a dancer.
  const whole = entries.filter((entry) => !badRows.has(entry.row));
  return { entries: whole, problems };
}
