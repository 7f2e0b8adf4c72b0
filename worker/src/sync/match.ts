// Matching spreadsheet rows to events: pure, so it is tested on its own.

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

export interface SyncResult {
  updatedCount: number;
  unchanged: number;
  unmatchedRows: Array<{ row: number; name: string }>;
  invalidRows: Array<{ row: number; name: string; link: string; reason: string }>;
  ambiguousRows: Array<{ row: number; name: string; eventIds: number[] }>;
}

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
  if (!/^https?:\/\//i.test(link)) return false;
  try {
    const url = new URL(link);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.includes('.');
  } catch {
    return false;
  }
}

/** Which events get which link, and what the owner should look at in the sheet. */
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
  const updates = new Map<number, string>();
  for (const row of rows) {
    const link = row.link.trim();
    if (!row.name.trim()) continue;
    if (!isHttpLink(link)) {
      result.invalidRows.push({
        row: row.row,
        name: row.name,
        link,
        reason: link ? 'not an http(s) link' : 'no link',
      });
      continue;
    }
    const matches = byName.get(normalizeName(row.name)) ?? [];
    if (matches.length === 0) result.unmatchedRows.push({ row: row.row, name: row.name });
    else if (matches.length > 1)
      result.ambiguousRows.push({ row: row.row, name: row.name, eventIds: matches.map((event) => event.id) });
    else if (matches[0]!.jotformUrl === link) result.unchanged++;
    else updates.set(matches[0]!.id, link);
  }
  result.updatedCount = updates.size;
  return { updates: [...updates].map(([id, link]) => ({ id, link })), result };
}
