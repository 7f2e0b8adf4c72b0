import { desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import { showcases, videos } from '@app/shared/db';
import { hashPassword } from '@app/shared/password';
import type {
  adminVideoListQuerySchema,
  BulkVideoAction,
  BulkVideoResult,
  insertVideoSchema,
  updateVideoSchema,
} from '@app/shared/schemas';
import type { Deps } from '../../deps.ts';
import { HttpError, notFound } from '../../http/errors.ts';
import { publicVideoColumns } from '../videos/videos.queries.ts';
import { issueVideoToken } from '../videos/access.ts';
import {
  describeProcessing,
  needsClip,
  ownerPosterUrl,
  posterUrlColumn,
  queueProcessingAfterSave,
  removeOutputsIfUnused,
} from '../video-processing/video-processing.service.ts';
import { nothingToFind, resolveScope, searchWords, sortedVideos } from '../videos/library.service.ts';
import {
  auditPublishedChange,
  checkPreview,
  checkPublishable,
  deleteVideo,
  fieldError,
  storedFileSize,
  storedFileSizes,
  withdrawnNotPublished,
} from './video-publishing.service.ts';

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

/**
 * Videos as the admin screen reads them: processing state, progress and findings in one field, and
 * the stored file's size looked up now (null: missing), so a file deleted since is flagged at once.
 */
async function adminVideos(deps: Deps, where?: SQL) {
  const rows = await deps.db
    .select(adminVideoColumns)
    .from(videos)
    .where(where)
    .orderBy(desc(videos.createdAt));
  const sizes = await storedFileSizes(
    deps.storage,
    rows.map((row) => row.awsKey),
  );
  return Promise.all(
    rows.map(async ({ processingState, processingError, media, ...video }) => ({
      ...video,
      // Her list shows a protected video's frame too: with a token of that video, as a buyer would.
      posterUrl: ownerPosterUrl(
        video.posterUrl,
        video.passwordProtected,
        () => issueVideoToken(deps, video.id).token,
      ),
      fileSize: sizes.get(video.awsKey) ?? null,
      processing: await describeProcessing(deps, { ...video, processingState, processingError, media }),
    })),
  );
}

async function adminVideo(deps: Deps, id: string) {
  const [video] = await adminVideos(deps, eq(videos.id, id));
  if (!video) throw notFound('Video not found');
  return video;
}

async function checkShowcase(deps: Deps, showcaseId: string | null | undefined): Promise<void> {
  if (showcaseId && (await deps.db.$count(showcases, eq(showcases.id, showcaseId))) === 0)
    throw fieldError('showcaseId', 'That showcase does not exist');
}

/** Paged and searched like the library (library.service.ts), in the owner's chosen order. */
export async function listAdminVideos(
  deps: Deps,
  { page, pageSize, q, showcase, sort }: z.output<typeof adminVideoListQuerySchema>,
) {
  const scope = await resolveScope(deps.db, showcase, { includeHidden: true });
  if (!scope || nothingToFind(q)) return { videos: [], page, pageSize, total: 0 };
  const words = searchWords(q);
  const { rows, total = 0 } = await sortedVideos<{ id: string }>(
    deps.db,
    { words, scope, includeHidden: true },
    { limit: pageSize, offset: (page - 1) * pageSize, withTotal: true },
    { columns: idOnly, sort: sort === 'relevance' ? undefined : sort },
  );
  const ids = rows.map((row) => row.id);
  const found = ids.length ? await adminVideos(deps, inArray(videos.id, ids)) : [];
  return { videos: ids.flatMap((id) => found.filter((video) => video.id === id)), page, pageSize, total };
}

/** Many videos at once, after a competition is uploaded: move, price, delete the unsold. */
export async function bulkVideoAction(deps: Deps, input: BulkVideoAction): Promise<BulkVideoResult> {
  const ids = [...new Set(input.ids)];
  if (input.action === 'move') {
    await checkShowcase(deps, input.showcaseId);
    const moved = await deps.db
      .update(videos)
      .set({ showcaseId: input.showcaseId })
      .where(inArray(videos.id, ids));
    return { changed: moved.rowCount ?? 0, kept: [] };
  }
  if (input.action === 'price') {
    const priced = await deps.db
      .update(videos)
      .set({ priceCents: input.priceCents })
      .where(inArray(videos.id, ids));
    return { changed: priced.rowCount ?? 0, kept: [] };
  }
  // The single delete's rules, video by video: sold videos and open checkouts stay (named in `kept`).
  let changed = 0;
  const kept: string[] = [];
  for (const id of ids) {
    try {
      await removeVideo(deps, id);
      changed += 1;
    } catch (error) {
      if (!(error instanceof HttpError) || error.status !== 409) throw error;
      kept.push(id);
    }
  }
  return { changed, kept };
}

export async function createVideo(deps: Deps, body: z.output<typeof insertVideoSchema>) {
  const { password, ...input } = body;
  if (input.passwordProtected && !password)
    throw fieldError('password', 'A password is required for a protected video');
  await checkShowcase(deps, input.showcaseId);
  await checkPreview(deps.storage, input.previewUrl);
  const fileSize = await storedFileSize(deps.storage, input.awsKey);
  checkPublishable(input, fileSize);
  const [video] = await deps.db
    .insert(videos)
    .values({
      ...input,
      fileSize,
      passwordHash: input.passwordProtected && password ? await hashPassword(password) : null,
    })
    .returning({ id: videos.id, awsKey: videos.awsKey });
  await queueProcessingAfterSave(deps, video!);
  return adminVideo(deps, video!.id);
}

export async function updateVideo(deps: Deps, id: string, body: z.output<typeof updateVideoSchema>) {
  const { password, ...input } = body;
  const [existing] = await deps.db.select().from(videos).where(eq(videos.id, id));
  if (!existing) throw notFound('Video not found');
  if (input.published && !existing.published && existing.withdrawnAt) throw withdrawnNotPublished();
  await checkShowcase(deps, input.showcaseId);
  const protectedNow = input.passwordProtected ?? existing.passwordProtected;
  // A new password replaces the old; none keeps it; turning protection off clears it.
  const passwordHash = !protectedNow ? null : password ? await hashPassword(password) : existing.passwordHash;
  if (protectedNow && !passwordHash)
    throw fieldError('password', 'A password is required for a protected video');
  await checkPreview(deps.storage, input.previewUrl);
  const fileSize = await storedFileSize(deps.storage, input.awsKey ?? existing.awsKey);
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
  // Her own words for a video of a programme entry: the entry's later changes leave them (decision 032).
  const ownText =
    existing.ownText ||
    (input.title !== undefined && input.title !== existing.title) ||
    (input.description !== undefined && input.description !== existing.description) ||
    (input.tags !== undefined && input.tags.join('\n') !== existing.tags.join('\n'));
  await deps.db.transaction(async (tx) => {
    await tx
      .update(videos)
      .set({
        ...input,
        ownText,
        passwordProtected: protectedNow,
        passwordHash,
        fileSize,
        ...(newFile && { media: null, processingState: 'queued', processingError: null }),
      })
      .where(eq(videos.id, id));
    // The form's "Shown on the site" tick hides or publishes as the row's buttons do: in the log too.
    await auditPublishedChange(
      tx,
      { kind: 'video', id, name: input.title ?? existing.title },
      existing.published,
      input.published,
    );
  });
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
  return adminVideo(deps, id);
}

/** Deletes an unsold video and the files the worker made for it (when no other video uses them). */
export async function removeVideo(deps: Deps, id: string): Promise<void> {
  const video = await deleteVideo(deps.db, id);
  await removeOutputsIfUnused(deps, video.awsKey, video.media);
}
