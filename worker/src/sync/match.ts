// Matching spreadsheet rows to events: pure, so it is tested on its own.
import type { SyncResult } from '@app/shared/schemas';

export type { SyncResult } from '@app/shared/schemas';

export interface SheetRow {
  /** 1-based row number in the sheet, so the owner can find it. */
  row: number;
  name: string;
  link: string;
}

export interface EventName {
  id: number;
  title: string;
  jotformUrl: string | null;
}

/** The event form's limit for a booking link. */
const MAX_LINK_LENGTH = 2_000;

/** Names are equal when they match after trimming, case-folding and collapsing spaces and punctuation. */
export function normalizeName(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLocaleLowerCase('en-NZ')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

export function isHttpLink(link: string): boolean {
  if (!/^https?:\/\//i.test(link) || link.length > MAX_LINK_LENGTH) return false;
  try {
    const url = new URL(link);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.includes('.');
  } catch {
    return false;
  }
}

function invalidReason(name: string, link: string): string | undefined {
  if (!name) return 'no competition name';
  if (!link) return 'no link';
  if (link.length > MAX_LINK_LENGTH)
    return `link longer than ${MAX_LINK_LENGTH.toLocaleString('en-NZ')} characters`;
  if (!isHttpLink(link)) return 'not an http(s) link';
  return undefined;
}

/**
 * Which events get which link, and what the owner should look at in the sheet. Nothing is guessed:
 * a row naming two events is ambiguous, and rows giving one event different links are all invalid.
 * Counts are per event: `updatedCount` events get a new link, `unchanged` already have theirs.
 */
export function planSync(
  rows: SheetRow[],
  events: EventName[],
): { updates: Array<{ id: number; link: string }>; result: SyncResult } {
  const byName = new Map<string, EventName[]>();
  for (const event of events) {
    const key = normalizeName(event.title);
    byName.set(key, [...(byName.get(key) ?? []), event]);
  }
  const result: SyncResult = {
    updatedCount: 0,
    unchanged: 0,
    unmatchedRows: [],
    invalidRows: [],
    ambiguousRows: [],
  };
  const wanted = new Map<number, { event: EventName; rows: SheetRow[] }>();
  for (const sheetRow of rows) {
    const name = sheetRow.name.trim();
    const link = sheetRow.link.trim();
    if (!name && !link) continue;
    const reason = invalidReason(name, link);
    if (reason) {
      result.invalidRows.push({ row: sheetRow.row, name: sheetRow.name, link, reason });
      continue;
    }
    const matches = byName.get(normalizeName(name)) ?? [];
    if (matches.length === 0) {
      result.unmatchedRows.push({ row: sheetRow.row, name: sheetRow.name });
    } else if (matches.length > 1) {
      result.ambiguousRows.push({
        row: sheetRow.row,
        name: sheetRow.name,
        eventIds: matches.map((e) => e.id),
      });
    } else {
      const event = matches[0]!;
      const entry = wanted.get(event.id) ?? { event, rows: [] };
      entry.rows.push({ ...sheetRow, link });
      wanted.set(event.id, entry);
    }
  }

  const updates: Array<{ id: number; link: string }> = [];
  for (const { event, rows: eventRows } of wanted.values()) {
    const links = new Set(eventRows.map((row) => row.link));
    if (links.size > 1) {
      for (const row of eventRows) {
        const others = eventRows.filter((other) => other.link !== row.link).map((other) => other.row);
        result.invalidRows.push({
          row: row.row,
          name: row.name,
          link: row.link,
          reason: `the same event gets a different link in row ${others.join(', ')}`,
        });
      }
      continue;
    }
    const link = eventRows[0]!.link;
    if (event.jotformUrl === link) result.unchanged++;
    else updates.push({ id: event.id, link });
  }
  result.invalidRows.sort((a, b) => a.row - b.row);
  result.updatedCount = updates.length;
  return { updates, result };
}
