import { eq, sql } from 'drizzle-orm';
import { showcases, videos, type Db } from '@app/shared/db';
import { applyEntryText } from '@app/shared/programme';
import type { AdminEntries, AdminEntry, EntryUpdate, ProgrammeSettings } from '@app/shared/schemas';
import { containsPattern } from '@app/shared/db';
import { HttpError, notFound } from '../../http/errors.ts';
import { recordAudit } from '../privacy/privacy.service.ts';
import { removeUnused } from './programme-import.ts';

// The owner's entries screen (decision 032): list, edit, link a video, merge and remove dancers.

const PAGE_SIZE = 50;

export async function programmeSettings(db: Db, showcaseId: string): Promise<ProgrammeSettings> {
  const [row] = await db
    .select({ dancerNames: showcases.dancerNames, routineBundleRule: showcases.routineBundleRule })
    .from(showcases)
    .where(eq(showcases.id, showcaseId));
  if (!row) throw notFound('Showcase not found');
  return row;
}

export async function updateProgrammeSettings(db: Db, showcaseId: string, settings: ProgrammeSettings) {
  const [row] = await db
    .update(showcases)
    .set(settings)
    .where(eq(showcases.id, showcaseId))
    .returning({ dancerNames: showcases.dancerNames, routineBundleRule: showcases.routineBundleRule });
  if (!row) throw notFound('Showcase not found');
  return row;
}

type EntryRow = AdminEntry & { total: number };

/** GET /api/admin/showcases/{id}/entries: a page of entries in programme order, searched and filtered. */
export async function listEntries(
  db: Db,
  showcaseId: string,
  query: { q?: string; filter: 'all' | 'with-video' | 'without-video' | 'sold'; page: number },
  pageSize = PAGE_SIZE,
): Promise<AdminEntries> {
  const settings = await programmeSettings(db, showcaseId);
  const where = [sql`e.showcase_id = ${showcaseId}`];
  if (query.q) {
    const pattern = containsPattern(query.q.toLowerCase());
    where.push(sql`(lower(e.entry_number) = ${query.q.toLowerCase().replace(/^#/, '')}
      or e.section_key like btrim(library_search_text(${pattern}, null, null))
      or exists (select 1 from programme_studios s where s.id = e.studio_id and s.search_key like btrim(library_search_text(${pattern}, null, null)))
      or exists (select 1 from programme_entry_dancers ed join programme_dancers d on d.id = ed.dancer_id
        where ed.entry_id = e.id and d.search_key like btrim(library_search_text(${pattern}, null, null))))`);
  }
  const hasVideo = sql`exists (select 1 from videos v where v.entry_id = e.id)`;
  const sold = sql`exists (select 1 from videos v join purchase_items pi on pi.video_id = v.id where v.entry_id = e.id)`;
  if (query.filter === 'with-video') where.push(hasVideo);
  if (query.filter === 'without-video') where.push(sql`not ${hasVideo}`);
  if (query.filter === 'sold') where.push(sold);
  const { rows } = await db.execute<EntryRow>(sql`
    select e.id, e.entry_number as "entryNumber", e.section, e.title, st.name as studio,
      coalesce((select jsonb_agg(jsonb_build_object('id', d.id, 'name', d.name) order by ed.position)
        from programme_entry_dancers ed join programme_dancers d on d.id = ed.dancer_id where ed.entry_id = e.id), '[]') as dancers,
      coalesce((select jsonb_agg(jsonb_build_object('id', v.id, 'title', v.title) order by v.created_at)
        from videos v where v.entry_id = e.id), '[]') as videos,
      ${sold} as sold, count(*) over ()::int as total
    from programme_entries e left join programme_studios st on st.id = e.studio_id
    where ${sql.join(where, sql` and `)}
    order by e.entry_sort, e.entry_number
    limit ${pageSize} offset ${(query.page - 1) * pageSize}`);
  return {
    items: rows.map(({ total: _total, ...row }) => row),
    page: query.page,
    pageSize,
    total: rows[0]?.total ?? 0,
    settings,
  };
}

/** PUT /api/admin/entries/{id}: its section, title, studio or dancers; its videos' text follows. */
export async function updateEntry(db: Db, id: string, change: EntryUpdate) {
  return db.transaction(async (tx) => {
    const { rows } = await tx.execute<{ showcaseId: string }>(
      sql`select showcase_id as "showcaseId" from programme_entries where id = ${id} for update`,
    );
    const showcaseId = rows[0]?.showcaseId;
    if (!showcaseId) throw notFound('Entry not found');
    if (change.studio !== undefined) {
      if (change.studio)
        await tx.execute(sql`insert into programme_studios (id, showcase_id, name)
          values (gen_random_uuid()::text, ${showcaseId}, ${change.studio}) on conflict do nothing`);
      await tx.execute(sql`update programme_entries set studio_id = (select id from programme_studios
          where showcase_id = ${showcaseId} and search_key = btrim(library_search_text(${change.studio}, null, null))
          and ${change.studio} <> '')
        where id = ${id}`);
    }
    await tx.execute(sql`update programme_entries set
      section = coalesce(${change.section ?? null}, section), title = coalesce(${change.title ?? null}, title),
      updated_at = now() where id = ${id}`);
    if (change.dancers) {
      await tx.execute(sql`insert into programme_dancers (id, showcase_id, name)
        select gen_random_uuid()::text, ${showcaseId}, name from jsonb_array_elements_text(${JSON.stringify(change.dancers)}::jsonb) as t(name)
        on conflict do nothing`);
      await tx.execute(sql`delete from programme_entry_dancers where entry_id = ${id}`);
      await tx.execute(sql`insert into programme_entry_dancers (entry_id, dancer_id, position)
        select ${id}, d.id, min(t.ord) - 1 from jsonb_array_elements_text(${JSON.stringify(change.dancers)}::jsonb) with ordinality as t(name, ord)
        join programme_dancers d on d.showcase_id = ${showcaseId} and d.search_key = btrim(library_search_text(t.name, null, null))
        group by d.id`);
    }
    await removeUnused(tx, showcaseId);
    await applyEntryText(tx, [id]);
    return { id, updated: true };
  });
}

/**
 * Links a video to an entry (or unlinks it): a video of another showcase is refused. Linking gives the
 * video the entry's text (the owner's own words are replaced: she chose the entry); unlinking keeps it.
 */
export async function linkVideo(db: Db, videoId: string, entryId: string | null) {
  return db.transaction(async (tx) => {
    const [video] = await tx
      .select({ showcaseId: videos.showcaseId })
      .from(videos)
      .where(eq(videos.id, videoId));
    if (!video) throw notFound('Video not found');
    if (entryId === null) {
      await tx.update(videos).set({ entryId: null, ownText: true }).where(eq(videos.id, videoId));
      return { videoId, entryId };
    }
    const { rows } = await tx.execute<{ showcaseId: string }>(
      sql`select showcase_id as "showcaseId" from programme_entries where id = ${entryId}`,
    );
    if (!rows[0]) throw notFound('Entry not found');
    if (rows[0].showcaseId !== video.showcaseId)
      throw new HttpError(400, 'The video and the entry belong to different showcases: move the video first');
    await tx.update(videos).set({ entryId, ownText: false }).where(eq(videos.id, videoId));
    await applyEntryText(tx, [entryId]);
    return { videoId, entryId };
  });
}

/** Two spellings of one child: `mergeId`'s routines become `keepId`'s, and `mergeId` is gone. */
export async function mergeDancers(db: Db, showcaseId: string, keepId: string, mergeId: string) {
  if (keepId === mergeId) throw new HttpError(400, 'Choose two different dancers');
  return db.transaction(async (tx) => {
    const { rows } = await tx.execute<{ id: string }>(sql`select id from programme_dancers
      where showcase_id = ${showcaseId} and id in (${keepId}, ${mergeId}) for update`);
    if (rows.length !== 2) throw notFound('Dancer not found in this showcase');
    await tx.execute(sql`insert into programme_entry_dancers (entry_id, dancer_id, position)
      select entry_id, ${keepId}, position from programme_entry_dancers where dancer_id = ${mergeId}
      on conflict do nothing`);
    // A removal request about either spelling is about the one kept.
    await tx.execute(sql`update removal_requests set dancer_id = ${keepId} where dancer_id = ${mergeId}`);
    await tx.execute(sql`delete from programme_dancers where id = ${mergeId}`);
    return { id: keepId, merged: mergeId };
  });
}

/**
 * Removes a dancer on request: the name goes from every entry, page and search at once; routines stay.
 * Her open removal requests are answered by it, and the audit log holds it (issue 28 item 4).
 */
export async function removeDancer(db: Db, id: string) {
  await db.transaction(async (tx) => {
    const { rows } = await tx.execute<{ name: string; showcaseName: string }>(sql`
      select d.name, s.name as "showcaseName" from programme_dancers d join showcases s on s.id = d.showcase_id
      where d.id = ${id} for update of d`);
    const dancer = rows[0];
    if (!dancer) throw notFound('Dancer not found');
    await tx.execute(sql`update removal_requests set status = 'done', resolved_at = now()
      where dancer_id = ${id} and status = 'open'`);
    await tx.execute(sql`delete from programme_dancers where id = ${id}`);
    await recordAudit(tx, {
      action: 'delete',
      subjectKind: 'dancer',
      subjectId: id,
      subjectName: `${dancer.name} (dancer), ${dancer.showcaseName}`,
    });
  });
}
