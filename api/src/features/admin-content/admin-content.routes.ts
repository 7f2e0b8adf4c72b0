import type { Router } from 'express';
import { asc, desc, eq, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { events, showcases, videos } from '@app/shared/db';
import { hashPassword } from '@app/shared/password';
import {
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

  admin.get('/api/admin/events', async (_req, res) => {
    const rows = await db.select().from(events).orderBy(asc(events.date), asc(events.id));
    res.set('Cache-Control', 'no-store').json(rows);
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

  admin.get('/api/admin/videos', async (_req, res) => {
    res.set('Cache-Control', 'no-store').json(await adminVideos());
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
      .select()
      .from(showcases)
      .orderBy(asc(showcases.orderPriority), asc(showcases.createdAt));
    res.set('Cache-Control', 'no-store').json(rows);
  });

  admin.post('/api/admin/showcases', async (req, res) => {
    const input = insertShowcaseSchema.parse(req.body ?? {});
    const [showcase] = await db.insert(showcases).values(input).returning();
    await publicCache.changed();
    res.status(201).json(showcase);
  });

  admin.patch('/api/admin/showcases/:id', async (req, res) => {
    const id = textIdSchema.parse(req.params.id);
    const input = updateShowcaseSchema.parse(req.body ?? {});
    if (Object.keys(input).length === 0) throw new HttpError(400, 'Nothing to update');
    const [showcase] = await db.update(showcases).set(input).where(eq(showcases.id, id)).returning();
    if (!showcase) throw notFound('Showcase not found');
    await publicCache.changed();
    res.json(showcase);
  });
}
