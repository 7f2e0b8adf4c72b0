// Matching a competition's video files to its programme's entries (decision 033): by the entry number
// in a file's name ("047.mp4", "Item 47 - Aroha.mov", "47b.mp4"), or, for the names a camera gives
// ("C0047.MP4", "MVI_1234.MOV": a counter), by the order they were shot in. Pure and browser-safe: the
// review table runs it as files are dropped, the bench times it on 400 names.

export interface MatchEntry {
  id: string;
  /** As printed: "47", "47b". */
  entryNumber: string;
  entrySort: number;
}

export interface MatchFile {
  /** Anything unique in the batch (the upload's id, or name and size). */
  key: string;
  name: string;
  /** When the camera recorded it (ms since 1970), or when the file was last changed; null: unknown. */
  capturedAt: number | null;
}

/** What a file's name says: entry numbers (most likely first), a camera's counter, or nothing. */
export type NameReading =
  | { kind: 'numbers'; numbers: Array<{ number: number; suffix: string }> }
  | { kind: 'camera' }
  | { kind: 'none' };

export type MatchKind = 'number' | 'order';

export interface FileMatch {
  entryId: string | null;
  matchedBy: MatchKind | null;
  /** Why a file has no entry, for the review table. */
  reason: string | null;
}

const extension = /\.[a-z0-9]{1,5}$/i;
// A camera's own names: a short prefix of letters, then a counter ("C0047", "MVI_1234", "DSC01234",
// "GX010047", "DJI_0001", "IMG_1234_2"). "Item 47" is not one: a prefix word and a space.
const cameraName = /^[a-z]{1,5}[_-]?\d{3,}(?:[_-]\d+)*$/i;
const numberToken = /(?:^|[^a-z0-9])((?:item|entry|no|nr|#)[\s._#-]*)?0*(\d{1,5})([a-z]?)(?![a-z0-9])/gi;

export function readFileName(name: string): NameReading {
  const stem = name.normalize('NFKC').replace(extension, '').trim();
  if (cameraName.test(stem) && !/^(?:item|entry|no|nr)/i.test(stem)) return { kind: 'camera' };
  const prefixed: Array<{ number: number; suffix: string }> = [];
  const plain: Array<{ number: number; suffix: string }> = [];
  for (const match of stem.matchAll(numberToken)) {
    const found = { number: Number(match[2]), suffix: (match[3] ?? '').toLowerCase() };
    (match[1] ? prefixed : plain).push(found);
  }
  const numbers = [...prefixed, ...plain];
  return numbers.length ? { kind: 'numbers', numbers } : { kind: 'none' };
}

/** Entries in the programme's order: by number, then as printed ("47" before "47a"). */
export function programmeOrder<E extends MatchEntry>(entries: readonly E[]): E[] {
  return [...entries].sort(
    (a, b) =>
      a.entrySort - b.entrySort ||
      a.entryNumber.length - b.entryNumber.length ||
      a.entryNumber.localeCompare(b.entryNumber),
  );
}

/**
 * Each file's entry. Numbered names go to the entry of that number ("47b": the entry "47b" if the
 * programme has one, else a second angle of "47"). Camera names, ordered by capture time, go to the
 * entries in the programme's order from `firstEntryId`, skipping those marked not filmed.
 */
export function matchFiles(
  files: readonly MatchFile[],
  entries: readonly MatchEntry[],
  options: { firstEntryId?: string | null; notFilmed?: ReadonlySet<string> } = {},
): Map<string, FileMatch> {
  const byNumber = new Map(entries.map((entry) => [entry.entryNumber.trim().toLowerCase(), entry]));
  const result = new Map<string, FileMatch>();
  const camera: MatchFile[] = [];
  for (const file of files) {
    const reading = readFileName(file.name);
    if (reading.kind === 'camera') {
      camera.push(file);
      continue;
    }
    if (reading.kind === 'none') {
      result.set(file.key, { entryId: null, matchedBy: null, reason: 'No entry number in the name' });
      continue;
    }
    const entry = reading.numbers
      .map(({ number, suffix }) => byNumber.get(`${number}${suffix}`) ?? byNumber.get(`${number}`))
      .find((found) => found !== undefined);
    result.set(
      file.key,
      entry
        ? { entryId: entry.id, matchedBy: 'number', reason: null }
        : {
            entryId: null,
            matchedBy: null,
            reason: `The programme has no entry ${reading.numbers[0]!.number}${reading.numbers[0]!.suffix}`,
          },
    );
  }
  if (camera.length === 0) return result;

  const order = programmeOrder(entries).filter((entry) => !options.notFilmed?.has(entry.id));
  const start = options.firstEntryId ? order.findIndex((entry) => entry.id === options.firstEntryId) : -1;
  const shot = [...camera].sort(
    (a, b) =>
      (a.capturedAt ?? Number.MAX_SAFE_INTEGER) - (b.capturedAt ?? Number.MAX_SAFE_INTEGER) ||
      a.name.localeCompare(b.name, undefined, { numeric: true }),
  );
  for (const [index, file] of shot.entries()) {
    const entry = start >= 0 ? order[start + index] : undefined;
    result.set(
      file.key,
      entry
        ? { entryId: entry.id, matchedBy: 'order', reason: null }
        : {
            entryId: null,
            matchedBy: null,
            reason:
              start < 0
                ? 'A camera name: pick the entry of the first file shot'
                : 'More files than filmed entries after the first',
          },
    );
  }
  return result;
}

export interface MatchReview {
  matched: number;
  unmatched: number;
  /** Entries with two files or more (angles, or a mistake), with the files' keys. */
  shared: Array<{ entryId: string; fileKeys: string[] }>;
  /** Entries with no file, not marked as not filmed. */
  withoutFile: string[];
}

/** The review table's counts: matched, unmatched, two files for one entry, entries without a file. */
export function reviewMatches(
  files: ReadonlyArray<{ key: string; entryId: string | null }>,
  entries: readonly MatchEntry[],
  notFilmed: ReadonlySet<string> = new Set(),
): MatchReview {
  const filesOf = new Map<string, string[]>();
  let unmatched = 0;
  for (const file of files) {
    if (!file.entryId) {
      unmatched += 1;
      continue;
    }
    filesOf.set(file.entryId, [...(filesOf.get(file.entryId) ?? []), file.key]);
  }
  return {
    matched: files.length - unmatched,
    unmatched,
    shared: [...filesOf]
      .filter(([, keys]) => keys.length > 1)
      .map(([entryId, fileKeys]) => ({ entryId, fileKeys })),
    withoutFile: programmeOrder(entries)
      .filter((entry) => !filesOf.has(entry.id) && !notFilmed.has(entry.id))
      .map((entry) => entry.id),
  };
}
