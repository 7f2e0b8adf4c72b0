import { sql } from 'drizzle-orm';
import type { Db } from '../db/index.ts';

// Programme entries as other parts use them (decision 032): find one by its printed number, and keep
// the text of the videos linked to entries in step with them. The api's import and entries screen and
// the bulk upload that matches files to entries all go through these.

/** A database or a transaction. */
type Sql = Pick<Db, 'execute'>;

export type EntryRef = {
  id: string;
  showcaseId: string;
  entryNumber: string;
  entrySort: number;
  section: string;
  title: string;
  studioId: string | null;
};

/**
 * The entry "47" (or "47b", "#47", "Item 47", " 047 ") of a showcase's programme, or undefined. The
 * number is matched as printed, whatever its case: "47" is never "47b" nor "4711".
 */
export async function findEntry(
  db: Sql,
  showcaseId: string,
  entryNumber: string,
): Promise<EntryRef | undefined> {
  const match = /^(?:(?:item|entry|no\.?)\s*)?#?\s*0*(\d{1,6})\s*([a-z]{0,2})$/i.exec(entryNumber.trim());
  if (!match) return undefined;
  const number = `${match[1]}${match[2]!.toLowerCase()}`;
  const { rows } = await db.execute<EntryRef>(sql`
    select id, showcase_id as "showcaseId", entry_number as "entryNumber", entry_sort as "entrySort",
      section, title, studio_id as "studioId"
    from programme_entries where showcase_id = ${showcaseId} and lower(entry_number) = ${number}`);
  return rows[0];
}

/**
 * Writes the entry's text into the videos linked to these entries whose owner has not written her own:
 * "Item 47: Firefly", the section and studio as description, and both as tags. Dancers' names are never
 * copied into videos (they show only as the showcase allows, and go at once when removed).
 */
export async function applyEntryText(db: Sql, entryIds: string[]): Promise<void> {
  if (entryIds.length === 0) return;
  await db.execute(sql`
    update videos v set
      title = left('Item ' || e.entry_number || coalesce(': ' || nullif(e.title, ''), ''), 200),
      description = concat_ws(' · ', nullif(e.section, ''), s.name),
      tags = array_remove(array[nullif(e.section, ''), s.name], null)
    from programme_entries e left join programme_studios s on s.id = e.studio_id
    where v.entry_id = e.id and not v.own_text
      and e.id in (select jsonb_array_elements_text(${JSON.stringify(entryIds)}::jsonb))`);
}
