import { eq, sql } from 'drizzle-orm';
import { programmeMappings, showcases, type Db } from '@app/shared/db';
import { applyEntryText } from '@app/shared/programme';
import type { ProgrammeMapping, ProgrammePreview } from '@app/shared/schemas';
import { HttpError, notFound } from '../../http/errors.ts';
import { readProgrammeFile } from './programme-file.ts';
import { guessMapping, headerHash, nameKey, planProgramme, type PlannedProgramme } from './programme-plan.ts';

// Programme import (decision 032): the preview and the import read the same file the same way; the
// import writes everything in one transaction, or nothing.

/** Entries shown in the preview. */
const PREVIEW_ENTRIES = 20;

type ExistingEntry = {
  id: string;
  key: string;
  entryNumber: string;
  title: string;
  section: string;
  studio: string;
  dancers: string;
  videoCount: number;
  sold: boolean;
};

async function existingEntries(db: Pick<Db, 'execute'>, showcaseId: string): Promise<ExistingEntry[]> {
  const { rows } = await db.execute<ExistingEntry>(sql`
    select e.id, lower(e.entry_number) as key, e.entry_number as "entryNumber", e.title, e.section,
      coalesce(st.search_key, '') as studio,
      coalesce((select string_agg(d.search_key, '|' order by ed.position) from programme_entry_dancers ed
        join programme_dancers d on d.id = ed.dancer_id where ed.entry_id = e.id), '') as dancers,
      (select count(*)::int from videos v where v.entry_id = e.id) as "videoCount",
      exists (select 1 from videos v join purchase_items pi on pi.video_id = v.id where v.entry_id = e.id) as sold
    from programme_entries e left join programme_studios st on st.id = e.studio_id
    where e.showcase_id = ${showcaseId}`);
  return rows;
}

/** What importing the plan would change: added, changed, unchanged, and those no longer in the file. */
function compare(plan: PlannedProgramme, existing: ExistingEntry[]) {
  const byKey = new Map(existing.map((entry) => [entry.key, entry]));
  let added = 0;
  let changed = 0;
  for (const entry of plan.entries) {
    const before = byKey.get(entry.entryNumber);
    if (!before) added++;
    else if (
      before.title !== entry.title ||
      before.section !== entry.section ||
      before.studio !== nameKey(entry.studio) ||
      before.dancers !== entry.dancers.map(nameKey).join('|')
    )
      changed++;
  }
  const inFile = new Set(plan.entries.map((entry) => entry.entryNumber));
  const gone = existing.filter((entry) => !inFile.has(entry.key));
  return {
    added,
    changed,
    unchanged: plan.entries.length - added - changed,
    vanished: gone.filter((entry) => entry.videoCount > 0 || entry.sold),
    removed: gone.filter((entry) => entry.videoCount === 0 && !entry.sold),
  };
}

async function readPlan(
  db: Db,
  showcaseId: string,
  bytes: Buffer,
  query: { sheet?: string; mapping?: ProgrammeMapping },
) {
  const [showcase] = await db
    .select({ id: showcases.id })
    .from(showcases)
    .where(eq(showcases.id, showcaseId));
  if (!showcase) throw notFound('Showcase not found');
  const sheets = await readProgrammeFile(bytes);
  const sheet = query.sheet === undefined ? sheets[0]! : sheets.find((one) => one.name === query.sheet);
  if (!sheet) throw new HttpError(400, `The file has no sheet named "${query.sheet}"`);
  // The header is the first row with anything in it.
  const start = sheet.rows.findIndex((row) => row.some(Boolean));
  const rows = sheet.rows.slice(start);
  const headers = rows[0] ?? [];
  const hash = headerHash(headers);
  const [kept] = query.mapping
    ? []
    : await db.select().from(programmeMappings).where(eq(programmeMappings.headerHash, hash));
  const mapping = query.mapping ?? (kept?.mapping as ProgrammeMapping | undefined) ?? guessMapping(headers);
  const outside = mapping && Object.values(mapping).find((index) => index >= headers.length);
  if (outside !== undefined && outside !== null)
    throw new HttpError(
      400,
      `Column ${outside + 1} is mapped but the sheet's header has ${headers.length} columns`,
    );
  // Row numbers as the owner sees them in her spreadsheet.
  const plan = mapping ? planProgramme(rows, mapping) : { entries: [], problems: [] };
  const shifted = {
    entries: plan.entries.map((entry) => ({ ...entry, row: entry.row + start })),
    problems: plan.problems.map((problem) => ({ ...problem, row: problem.row + start })),
  };
  return { sheets, sheet, headers, hash, mapping, remembered: Boolean(kept), plan: shifted };
}

function answer(
  read: Awaited<ReturnType<typeof readPlan>>,
  comparison: ReturnType<typeof compare>,
  imported: boolean,
): ProgrammePreview {
  const { plan } = read;
  return {
    sheets: read.sheets.map((sheet) => sheet.name),
    sheet: read.sheet.name,
    headers: read.headers,
    mapping: read.mapping,
    remembered: read.remembered,
    entries: plan.entries.slice(0, PREVIEW_ENTRIES).map(({ entrySort: _sort, ...entry }) => entry),
    problems: read.mapping
      ? plan.problems
      : [{ row: 1, message: 'Choose the column that holds the entry numbers' }],
    counts: {
      entries: plan.entries.length,
      dancers: new Set(plan.entries.flatMap((entry) => entry.dancers.map(nameKey))).size,
      studios: new Set(plan.entries.map((entry) => nameKey(entry.studio)).filter(Boolean)).size,
      added: comparison.added,
      changed: comparison.changed,
      unchanged: comparison.unchanged,
    },
    vanished: comparison.vanished.map((entry) => ({
      entryNumber: entry.entryNumber,
      title: entry.title,
      videoCount: entry.videoCount,
      sold: entry.sold,
    })),
    removed: comparison.removed.length,
    imported,
  };
}

/** The first entries as they will be saved and every row that cannot be; writes nothing. */
export async function previewProgramme(
  db: Db,
  showcaseId: string,
  bytes: Buffer,
  query: { sheet?: string; mapping?: ProgrammeMapping },
): Promise<ProgrammePreview> {
  const read = await readPlan(db, showcaseId, bytes, query);
  return answer(read, compare(read.plan, await existingEntries(db, showcaseId)), false);
}

/**
 * Imports the programme in one transaction: entries are updated by number and added; entries the file
 * no longer holds are removed unless they have a video or a sale (those stay and are listed). A file
 * with any problem row imports nothing.
 */
export async function importProgramme(
  db: Db,
  showcaseId: string,
  bytes: Buffer,
  query: { sheet?: string; mapping?: ProgrammeMapping },
): Promise<ProgrammePreview> {
  const read = await readPlan(db, showcaseId, bytes, query);
  const preview = answer(read, { added: 0, changed: 0, unchanged: 0, vanished: [], removed: [] }, false);
  if (!read.mapping || preview.problems.length > 0)
    throw new HttpError(
      400,
      `${preview.problems.length} row${preview.problems.length === 1 ? '' : 's'} cannot be imported; nothing was saved. First: row ${preview.problems[0]!.row}: ${preview.problems[0]!.message}`,
    );
  const mapping = read.mapping;
  const comparison = await db.transaction(async (tx) => {
    // One import of a showcase at a time: two at once would each remove what the other added.
    await tx.execute(sql`select id from showcases where id = ${showcaseId} for update`);
    const before = compare(read.plan, await existingEntries(tx, showcaseId));
    const entries = read.plan.entries;
    const studios = entries.map((entry) => entry.studio).filter(Boolean);
    const dancers = entries.flatMap((entry) => entry.dancers);
    // Names: the spelling of the latest programme wins; the key (no case, no diacritics) is the identity.
    await tx.execute(sql`
      insert into programme_studios (id, showcase_id, name)
      select gen_random_uuid()::text, ${showcaseId}, name
      from (select distinct on (btrim(library_search_text(name, null, null))) name
        from jsonb_array_elements_text(${JSON.stringify(studios)}::jsonb) as t(name)) named
      on conflict (showcase_id, search_key) do update set name = excluded.name`);
    await tx.execute(sql`
      insert into programme_dancers (id, showcase_id, name)
      select gen_random_uuid()::text, ${showcaseId}, name
      from (select distinct on (btrim(library_search_text(name, null, null))) name
        from jsonb_array_elements_text(${JSON.stringify(dancers)}::jsonb) as t(name)) named
      on conflict (showcase_id, search_key) do update set name = excluded.name`);
    const rows = entries.map((entry) => ({
      n: entry.entryNumber,
      s: entry.entrySort,
      sec: entry.section,
      t: entry.title,
      st: entry.studio,
    }));
    const { rows: saved } = await tx.execute<{ id: string; key: string }>(sql`
      insert into programme_entries (id, showcase_id, entry_number, entry_sort, section, title, studio_id)
      select gen_random_uuid()::text, ${showcaseId}, r.n, r.s, r.sec, r.t,
        (select id from programme_studios s where s.showcase_id = ${showcaseId}
          and s.search_key = btrim(library_search_text(r.st, null, null)) and r.st <> '')
      from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as r(n text, s int, sec text, t text, st text)
      on conflict (showcase_id, lower(entry_number)) do update set
        entry_number = excluded.entry_number, entry_sort = excluded.entry_sort, section = excluded.section,
        title = excluded.title, studio_id = excluded.studio_id,
        updated_at = case when (programme_entries.section, programme_entries.title, programme_entries.studio_id)
          is distinct from (excluded.section, excluded.title, excluded.studio_id) then now()
          else programme_entries.updated_at end
      returning id, lower(entry_number) as key`);
    const idOf = new Map(saved.map((row) => [row.key, row.id]));
    const places = entries.flatMap((entry) =>
      entry.dancers.map((name, position) => ({ e: idOf.get(entry.entryNumber)!, d: name, p: position })),
    );
    await tx.execute(sql`
      delete from programme_entry_dancers
      where entry_id in (select jsonb_array_elements_text(${JSON.stringify([...idOf.values()])}::jsonb))`);
    await tx.execute(sql`
      insert into programme_entry_dancers (entry_id, dancer_id, position)
      select r.e, d.id, r.p
      from jsonb_to_recordset(${JSON.stringify(places)}::jsonb) as r(e text, d text, p int)
      join programme_dancers d on d.showcase_id = ${showcaseId} and d.search_key = btrim(library_search_text(r.d, null, null))
      on conflict do nothing`);
    const removed = before.removed.map((entry) => entry.id);
    if (removed.length > 0)
      await tx.execute(sql`
        delete from programme_entries
        where id in (select jsonb_array_elements_text(${JSON.stringify(removed)}::jsonb))
          and not exists (select 1 from videos v where v.entry_id = programme_entries.id)`);
    await removeUnused(tx, showcaseId);
    await applyEntryText(tx, [...idOf.values()]);
    await tx
      .insert(programmeMappings)
      .values({ headerHash: read.hash, mapping })
      .onConflictDoUpdate({ target: programmeMappings.headerHash, set: { mapping, updatedAt: new Date() } });
    return before;
  });
  return { ...answer(read, comparison, true), remembered: true };
}

/** Dancers and studios no entry names any more (a dancer's only routine was removed) go too. */
export async function removeUnused(db: Pick<Db, 'execute'>, showcaseId: string): Promise<void> {
  await db.execute(sql`
    delete from programme_dancers d where d.showcase_id = ${showcaseId}
      and not exists (select 1 from programme_entry_dancers ed where ed.dancer_id = d.id)`);
  await db.execute(sql`
    delete from programme_studios s where s.showcase_id = ${showcaseId}
      and not exists (select 1 from programme_entries e where e.studio_id = s.id)`);
}
