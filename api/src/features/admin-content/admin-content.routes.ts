import type { Router } from 'express';
import { and, asc, desc, eq, gte, ilike, inArray, like, lt, or, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import {
  containsPattern,
  events,
  postgresErrorCode,
  showcaseSlugRedirects,
  showcases,
  videos,
} from '@app/shared/db';
import { hashPassword } from '@app/shared/password';
import {
  adminEventListQuerySchema,
  adminVideoListQuerySchema,
  bulkVideoActionSchema,
  MORE_VIDEOS_SLUG,
  slugify,
  insertEventSchema,
  insertShowcaseSchema,
  insertVideoSchema,
  updateShowcaseSchema,
  updateVideoSchema,
} from '@app/shared/schemas';
import type { Deps } from '../../deps.ts';
import { HttpError, notFound } from '../../http/errors.ts';
import { publicVideoColumns } from '../videos/videos.routes.ts';
import {
  describeProcessing,
  needsClip,
  posterUrlColumn,
  queueProcessingAfterSave,
  removeOutputsIfUnused,
} from '../video-processing/video-processing.service.ts';
import {
  checkPreview,
  checkPublishable,
  deleteVideo,
  fieldError,
  setShowcasePublished,
  setVideoPublished,
  storedFileSize,
  storedFileSizes,
} from './video-publishing.service.ts';
import {
  nothingToFind,
  resolveScope,
  searchWords,
  showcaseColumns,
  sortedVideos,
} from '../videos/library.service.ts';

const eventIdSchema = z.coerce
  .number({ error: 'Event id must be a number' })
  .int()
  .positive()
  .max(2_147_483_647);
const textIdSchema = z.string().trim().min(1).max(100);

/** The owner's view of a video: counters and storage key, never the password hash. */
const adminVideoColumns = {
  ...publicVideoColumns,
  // Her own picture (the edit form's field); posterUrl is the frame the worker took.
  previewUrl: videos.previewUrl,
  posterUrl: posterUrlColumn,
  awsKey: videos.awsKey,
  views: videos.views,
  downloads: videos.downloads,
  processingState: videos.processingState,
  processingError: videos.processingError,
  media: videos.media,
  published: videos.published,
  fileSize: videos.fileSize,
};

/** The admin list's page is found by the library's search and order; its rows are read as adminVideos. */
const idOnly = sql.raw('v.id');

/** Events, videos and showcases for the owner (all on the admin router, so all need the session). */
export function registerAdminContentRoutes(admin: Router, deps: Deps): void {
  const { db, publicCache, storage } = deps;
  /**
   * Videos as the admin screen reads them: processing state, progress and findings in one field, and
   * the stored file's size looked up now (null: missing), so a file deleted since is flagged at once.
   */
  async function adminVideos(where?: SQL) {
    const rows = await db.select(adminVideoColumns).from(videos).where(where).orderBy(desc(videos.createdAt));
    const sizes = await storedFileSizes(
      storage,
      rows.map((row) => row.awsKey),
    );
    return Promise.all(
      rows.map(async ({ processingState, processingError, media, ...video }) => ({
        ...video,
        fileSize: sizes.get(video.awsKey) ?? null,
        processing: await describeProcessing(deps, { ...video, processingState, processingError, media }),
      })),
    );
  }

  async function checkShowcase(showcaseId: string | null | undefined): Promise<void> {
    if (showcaseId && (await db.$count(showcases, eq(showcases.id, showcaseId))) === 0)
      throw fieldError('showcaseId', 'That showcase does not exist');
  }

  admin.get('/api/admin/events', async (req, res) => {
    const { page, pageSize, q, when } = adminEventListQuerySchema.parse(req.query);
    // "Today" is New Zealand's calendar day, as event dates are.
    const today = sql`(now() at time zone 'Pacific/Auckland')::date`;
    const text = q?.trim();
    const where = and(
      when === 'upcoming' ? gte(events.date, today) : lt(events.date, today),
      text ? ilike(events.title, containsPattern(text)) : undefined,
    );
    const [rows, total] = await Promise.all([
      db
        .select()
        .from(events)
        .where(where)
        .orderBy(
          ...(when === 'upcoming'
            ? [asc(events.date), asc(events.id)]
            : [desc(events.date), desc(events.id)]),
        )
        .limit(pageSize)
        .offset((page - 1) * pageSize),
      db.$count(events, where),
    ]);
    res.set('Cache-Control', 'no-store').json({ events: rows, page, pageSize, total });
  });

  admin.post('/api/admin/events', async (req, res) => {
    const input = insertEventSchema.parse(req.body ?? {});
    const [event] = await db.insert(events).values(input).returning();
    await publicCache.changed();
    res.status(201).json(event);
  });

  admin.put('/api/admin/events/:id', async (req, res) => {
    const id = eventIdSchema.parse(req.params.id);
    const input = insertEventSchema.parse(req.body ?? {});
    const [event] = await db
      .update(events)
      .set({ ...input, updatedAt: new Date() })
      .where(eq(events.id, id))
      .returning();
    if (!event) throw notFound('Event not found');
    await publicCache.changed();
    res.json(event);
  });

  admin.delete('/api/admin/events/:id', async (req, res) => {
    const id = eventIdSchema.parse(req.params.id);
    const [event] = await db.delete(events).where(eq(events.id, id)).returning({ id: events.id });
    if (!event) throw notFound('Event not found');
    await publicCache.changed();
    res.json({ id: event.id, deleted: true });
  });

  // Paged and searched like the library (library.service.ts), in the owner's chosen order.
  admin.get('/api/admin/videos', async (req, res) => {
    const { page, pageSize, q, showcase, sort } = adminVideoListQuerySchema.parse(req.query);
    const scope = await resolveScope(db, showcase, { includeHidden: true });
    if (!scope || nothingToFind(q)) {
      res.set('Cache-Control', 'no-store').json({ videos: [], page, pageSize, total: 0 });
      return;
    }
    const words = searchWords(q);
    const { rows, total = 0 } = await sortedVideos<{ id: string }>(
      db,
      { words, scope, includeHidden: true },
      { limit: pageSize, offset: (page - 1) * pageSize, withTotal: true },
      { columns: idOnly, sort: sort === 'relevance' ? undefined : sort },
    );
    const ids = rows.map((row) => row.id);
    const found = ids.length ? await adminVideos(inArray(videos.id, ids)) : [];
    const list = ids.flatMap((id) => found.filter((video) => video.id === id));
    res.set('Cache-Control', 'no-store').json({ videos: list, page, pageSize, total });
  });

  // Many videos at once, after a competition is uploaded: move, price, delete the unsold.
  admin.post('/api/admin/videos/bulk', async (req, res) => {
    const input = bulkVideoActionSchema.parse(req.body ?? {});
    const ids = [...new Set(input.ids)];
    let changed = 0;
    const kept: string[] = [];
    if (input.action === 'move') {
      await checkShowcase(input.showcaseId);
      changed =
        (await db.update(videos).set({ showcaseId: input.showcaseId }).where(inArray(videos.id, ids)))
          .rowCount ?? 0;
    } else if (input.action === 'price') {
      changed =
        (await db.update(videos).set({ priceCents: input.priceCents }).where(inArray(videos.id, ids)))
          .rowCount ?? 0;
    } else {
      // The single delete's rules, video by video: sold videos and open checkouts stay (named in `kept`).
      for (const id of ids) {
        try {
          const video = await deleteVideo(db, id);
          await removeOutputsIfUnused(deps, video.awsKey, video.media);
          changed += 1;
        } catch (error) {
          if (!(error instanceof HttpError) || error.status !== 409) throw error;
          kept.push(id);
        }
      }
    }
    if (changed > 0) await publicCache.changed();
    res.json({ changed, kept });
  });

  admin.post('/api/admin/videos', async (req, res) => {
    const { password, ...input } = insertVideoSchema.parse(req.body ?? {});
    if (input.passwordProtected && !password)
      throw fieldError('password', 'A password is required for a protected video');
    await checkShowcase(input.showcaseId);
    await checkPreview(storage, input.previewUrl);
    const fileSize = await storedFileSize(storage, input.awsKey);
    checkPublishable(input, fileSize);
    const [video] = await db
      .insert(videos)
      .values({
        ...input,
        fileSize,
        passwordHash: input.passwordProtected && password ? await hashPassword(password) : null,
      })
      .returning({ id: videos.id, awsKey: videos.awsKey });
    await queueProcessingAfterSave(deps, video!);
    await publicCache.changed();
    res.status(201).json((await adminVideos(eq(videos.id, video!.id)))[0]);
  });

  admin.put('/api/admin/videos/:id', async (req, res) => {
    const id = textIdSchema.parse(req.params.id);
    const { password, ...input } = updateVideoSchema.parse(req.body ?? {});
    const [existing] = await db.select().from(videos).where(eq(videos.id, id));
    if (!existing) throw notFound('Video not found');
    await checkShowcase(input.showcaseId);
    const protectedNow = input.passwordProtected ?? existing.passwordProtected;
    // A new password replaces the old; none keeps it; turning protection off clears it.
    const passwordHash = !protectedNow
      ? null
      : password
        ? await hashPassword(password)
        : existing.passwordHash;
    if (protectedNow && !passwordHash)
      throw fieldError('password', 'A password is required for a protected video');
    await checkPreview(storage, input.previewUrl);
    const fileSize = await storedFileSize(storage, input.awsKey ?? existing.awsKey);
    checkPublishable(
      {
        published: input.published ?? existing.published,
        priceCents: input.priceCents ?? existing.priceCents,
        passwordProtected: protectedNow,
      },
      fileSize,
    );
    // Another file: what the worker found and made belongs to the old one, and the new one is processed.
    const newFile = input.awsKey !== undefined && input.awsKey !== existing.awsKey;
    await db
      .update(videos)
      .set({
        ...input,
        passwordProtected: protectedNow,
        passwordHash,
        fileSize,
        ...(newFile && { media: null, processingState: 'queued', processingError: null }),
      })
      .where(eq(videos.id, id));
    const updated = { id, awsKey: input.awsKey ?? existing.awsKey };
    if (newFile) {
      await queueProcessingAfterSave(deps, updated);
      await removeOutputsIfUnused(deps, existing.awsKey, existing.media);
    } else if (
      needsClip({ priceCents: input.priceCents ?? existing.priceCents, passwordProtected: protectedNow }) &&
      existing.processingState === 'ready' &&
      !existing.media?.clipKey
    ) {
      // A free video now sells access: it needs its preview clip.
      await queueProcessingAfterSave(deps, updated, { again: true });
    }
    await publicCache.changed();
    res.json((await adminVideos(eq(videos.id, id)))[0]);
  });

  admin.delete('/api/admin/videos/:id', async (req, res) => {
    const id = textIdSchema.parse(req.params.id);
    const video = await deleteVideo(db, id);
    await removeOutputsIfUnused(deps, video.awsKey, video.media);
    await publicCache.changed();
    res.json({ id, deleted: true });
  });

  // Hide takes a video (or a showcase with its videos) off the public site at once; publish brings it back.
  for (const [action, published] of [
    ['hide', false],
    ['publish', true],
  ] as const) {
    admin.post(`/api/admin/videos/:id/${action}`, async (req, res) => {
      const state = await setVideoPublished({ db, storage }, textIdSchema.parse(req.params.id), published);
      await publicCache.changed();
      res.json(state);
    });
    admin.post(`/api/admin/showcases/:id/${action}`, async (req, res) => {
      const state = await setShowcasePublished(db, textIdSchema.parse(req.params.id), published);
      await publicCache.changed();
      res.json(state);
    });
  }

  // Hidden ones too (the public /api/showcases leaves them out).
  admin.get('/api/admin/showcases', async (_req, res) => {
    const rows = await db
      .select({
        ...showcaseColumns,
        videoCount: sql<number>`(select count(*) from videos v where v.showcase_id = showcases.id)::int`,
      })
      .from(showcases)
      .orderBy(asc(showcases.orderPriority), asc(showcases.createdAt));
    res.set('Cache-Control', 'no-store').json(rows);
  });

  /** The first free slug from the name's: "jazz-2026", then "jazz-2026-2", ... */
  async function freeSlug(name: string): Promise<string> {
    const base = slugify(name);
    const taken = new Set(
      (
        await db
          .select({ slug: showcases.slug })
          .from(showcases)
          .where(or(eq(showcases.slug, base), like(showcases.slug, `${base}-%`)))
      ).map((row) => row.slug),
    );
    if (!taken.has(base) && base !== MORE_VIDEOS_SLUG) return base;
    for (let number = 2; ; number++) if (!taken.has(`${base}-${number}`)) return `${base}-${number}`;
  }

  const slugTaken = (error: unknown) => {
    if (postgresErrorCode(error) === '23505')
      throw fieldError('slug', 'Another showcase already uses this address');
    throw error;
  };

  admin.post('/api/admin/showcases', async (req, res) => {
    const input = insertShowcaseSchema.parse(req.body ?? {});
    const [showcase] = await db
      .insert(showcases)
      .values({ ...input, slug: input.slug ?? (await freeSlug(input.name)) })
      .returning(showcaseColumns)
      .catch(slugTaken);
    await publicCache.changed();
    res.status(201).json(showcase);
  });

  admin.patch('/api/admin/showcases/:id', async (req, res) => {
    const id = textIdSchema.parse(req.params.id);
    const input = updateShowcaseSchema.parse(req.body ?? {});
    if (Object.keys(input).length === 0) throw new HttpError(400, 'Nothing to update');
    const showcase = await db
      .transaction(async (tx) => {
        const [before] = await tx
          .select({ slug: showcases.slug })
          .from(showcases)
          .where(eq(showcases.id, id));
        if (!before) throw notFound('Showcase not found');
        const [after] = await tx
          .update(showcases)
          .set(input)
          .where(eq(showcases.id, id))
          .returning(showcaseColumns);
        // The old address keeps working (301), and the new one is no longer anyone's old address.
        if (input.slug && input.slug !== before.slug) {
          await tx
            .insert(showcaseSlugRedirects)
            .values({ slug: before.slug, showcaseId: id })
            .onConflictDoUpdate({ target: showcaseSlugRedirects.slug, set: { showcaseId: id } });
          await tx.delete(showcaseSlugRedirects).where(eq(showcaseSlugRedirects.slug, input.slug));
        }
        return after;
      })
      .catch(slugTaken);
    await publicCache.changed();
    res.json(showcase);
  });
}
