import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { z } from 'zod';
import {
  programmeEntries,
  showcases,
  uploadBatches,
  uploadFiles,
  uploadNotFilmed,
  videos,
} from '@app/shared/db';
import { applyEntryText } from '@app/shared/programme';
import {
  bulkPartSize,
  type confirmUploadBatchSchema,
  type registerUploadFileSchema,
  type SignUploadRequest,
  type UploadBatch,
  type UploadFile,
  type UploadStage,
} from '@app/shared/schemas';
import { StorageError } from '@app/shared/storage';
import type { Deps } from '../../deps.ts';
import { HttpError, notFound } from '../../http/errors.ts';
import {
  describeProcessing,
  queueProcessingAfterSave,
} from '../video-processing/video-processing.service.ts';
import { compositeEtag, PART_LINK_SECONDS, uploadKey } from '../uploads/uploads.service.ts';

// One evening's files to a showcase (decision 033). Every step can be run again: a file is one row per
// name and size in its batch (a reload or a second tab continues the same multipart upload), a file
// becomes at most one video (its row holds the video; videos.content_hash is unique), and the steps
// after a crash pick up from the rows.

type FileRow = typeof uploadFiles.$inferSelect;

const titleFromFileName = (name: string) =>
  name
    .replace(/\.[^.]+$/, '')
    .replace(/[-_]+/g, ' ')
    .trim()
    .slice(0, 200) || 'Untitled';

async function batchRow(deps: Pick<Deps, 'db'>, batchId: string) {
  const [batch] = await deps.db.select().from(uploadBatches).where(eq(uploadBatches.id, batchId));
  if (!batch) throw notFound('Upload batch not found');
  return batch;
}

async function fileRow(deps: Pick<Deps, 'db'>, batchId: string, fileId: string): Promise<FileRow> {
  const [file] = await deps.db
    .select()
    .from(uploadFiles)
    .where(and(eq(uploadFiles.id, fileId), eq(uploadFiles.batchId, batchId)));
  if (!file) throw notFound('File not found in this upload');
  return file;
}

async function checkEntry(deps: Pick<Deps, 'db'>, showcaseId: string, entryId: string | null) {
  if (!entryId) return;
  const found = await deps.db.$count(
    programmeEntries,
    and(eq(programmeEntries.id, entryId), eq(programmeEntries.showcaseId, showcaseId)),
  );
  if (found === 0) throw new HttpError(400, "That entry is not in this showcase's programme");
}

export async function createBatch(deps: Pick<Deps, 'db'>, showcaseId: string): Promise<{ id: string }> {
  if ((await deps.db.$count(showcases, eq(showcases.id, showcaseId))) === 0)
    throw notFound('Showcase not found');
  const [batch] = await deps.db
    .insert(uploadBatches)
    .values({ showcaseId })
    .returning({ id: uploadBatches.id });
  return batch!;
}

/** A file's stage for the batch screen: the upload's state, then its video's processing. */
async function describeFile(deps: Deps, file: FileRow, video: VideoState | undefined): Promise<UploadFile> {
  let stage: UploadStage = file.state === 'uploading' ? 'uploading' : file.state;
  let progress: number | null = null;
  let reason = file.error;
  if (file.state === 'uploaded' && video) {
    const processing = await describeProcessing(deps, video);
    progress = processing.progress;
    if (video.processingState === 'ready') stage = 'ready';
    else if (video.processingState === 'failed') {
      stage = 'failed';
      reason = video.processingError ?? 'The file could not be processed';
    } else if (video.processingState === 'processing')
      // process-video's own stages (worker/src/jobs/process-video.ts): download and probe to 20 %,
      // the poster to 25 %, then the preview clip and the rest.
      stage = (progress ?? 0) < 20 ? 'probing' : (progress ?? 0) < 25 ? 'poster' : 'preview';
  }
  return {
    id: file.id,
    fileName: file.fileName,
    size: file.size,
    contentType: file.contentType,
    capturedAt: file.capturedAt?.getTime() ?? null,
    awsKey: file.awsKey,
    uploadId: file.state === 'uploading' ? file.uploadId : null,
    partSize: file.partSize,
    entryId: file.entryId,
    matchedBy: file.matchedBy,
    videoId: file.videoId,
    stage,
    progress,
    reason,
  };
}

type VideoState = Parameters<typeof describeProcessing>[1];

export async function getBatch(deps: Deps, batchId: string): Promise<UploadBatch> {
  const batch = await batchRow(deps, batchId);
  const [showcase] = await deps.db
    .select({ name: showcases.name })
    .from(showcases)
    .where(eq(showcases.id, batch.showcaseId));
  const files = await deps.db
    .select()
    .from(uploadFiles)
    .where(eq(uploadFiles.batchId, batchId))
    .orderBy(asc(uploadFiles.fileName));
  const videoIds = files.flatMap((file) => (file.videoId ? [file.videoId] : []));
  const videoRows = videoIds.length
    ? await deps.db
        .select({
          id: videos.id,
          awsKey: videos.awsKey,
          processingState: videos.processingState,
          processingError: videos.processingError,
          media: videos.media,
        })
        .from(videos)
        .where(inArray(videos.id, videoIds))
    : [];
  const videoOf = new Map(videoRows.map((video) => [video.id, video]));
  const entries = await deps.db
    .select({
      id: programmeEntries.id,
      entryNumber: programmeEntries.entryNumber,
      entrySort: programmeEntries.entrySort,
      section: programmeEntries.section,
      title: programmeEntries.title,
    })
    .from(programmeEntries)
    .where(eq(programmeEntries.showcaseId, batch.showcaseId))
    .orderBy(asc(programmeEntries.entrySort), asc(programmeEntries.entryNumber));
  const marked = new Set(
    (
      await deps.db
        .select({ entryId: uploadNotFilmed.entryId })
        .from(uploadNotFilmed)
        .where(eq(uploadNotFilmed.batchId, batchId))
    ).map((mark) => mark.entryId),
  );
  return {
    id: batch.id,
    showcaseId: batch.showcaseId,
    showcaseName: showcase?.name ?? '',
    publish: batch.publish,
    priceCents: batch.priceCents,
    confirmedAt: batch.confirmedAt?.toISOString() ?? null,
    files: await Promise.all(
      files.map((file) => describeFile(deps, file, file.videoId ? videoOf.get(file.videoId) : undefined)),
    ),
    entries,
    notFilmed: entries.flatMap((entry) => (marked.has(entry.id) ? [entry.id] : [])),
    firstEntryId: batch.firstEntryId,
  };
}

/**
 * Registers a file of the batch, or finds it again (same name and size: a reload, a second tab), with
 * its multipart upload. The row is written before the storage's upload is made, so a crash between the
 * two leaves a row the abandoned-upload sweep sees, never an upload nothing knows of.
 */
export async function registerFile(
  deps: Deps,
  batchId: string,
  input: z.output<typeof registerUploadFileSchema>,
): Promise<UploadFile> {
  const batch = await batchRow(deps, batchId);
  await checkEntry(deps, batch.showcaseId, input.entryId);
  const partSize = bulkPartSize(input.size);
  await deps.db
    .insert(uploadFiles)
    .values({
      batchId,
      fileName: input.fileName,
      size: input.size,
      contentType: input.contentType,
      capturedAt: input.capturedAt === null ? null : new Date(input.capturedAt),
      awsKey: uploadKey(input.fileName),
      partSize,
      entryId: input.entryId,
      matchedBy: input.entryId ? input.matchedBy : null,
    })
    .onConflictDoNothing();
  const [found] = await deps.db
    .select()
    .from(uploadFiles)
    .where(
      and(
        eq(uploadFiles.batchId, batchId),
        eq(uploadFiles.fileName, input.fileName),
        eq(uploadFiles.size, input.size),
      ),
    );
  let file = found!;
  if (file.state === 'uploading') file = await ensureUpload(deps, file);
  return describeFile(deps, file, undefined);
}

/** The file's multipart upload: made if it has none; a finished one (completed, never reported) is taken as uploaded. */
async function ensureUpload(deps: Deps, file: FileRow): Promise<FileRow> {
  if (file.uploadId) {
    const arrived = await deps.storage.head(file.awsKey);
    if (arrived && arrived.size === file.size && file.contentHash) return markUploaded(deps, file);
    return file;
  }
  const { uploadId } = await deps.storage.createMultipartUpload(file.awsKey, file.contentType, file.partSize);
  const [updated] = await deps.db
    .update(uploadFiles)
    .set({ uploadId, updatedAt: new Date() })
    .where(and(eq(uploadFiles.id, file.id), sql`${uploadFiles.uploadId} is null`))
    .returning();
  if (updated) return updated;
  // Another tab made one first: use it, and drop ours.
  await deps.storage.abortMultipartUpload(file.awsKey, uploadId);
  const [current] = await deps.db.select().from(uploadFiles).where(eq(uploadFiles.id, file.id));
  return current!;
}

/**
 * A signed link for one S3 request on the file's own upload (never another key). Signing the
 * completion reads the stored parts first and keeps their content hash (S3's multipart ETag).
 */
export async function signRequest(
  deps: Deps,
  batchId: string,
  fileId: string,
  request: SignUploadRequest,
): Promise<{ url: string }> {
  const file = await fileRow(deps, batchId, fileId);
  if (file.state !== 'uploading' || !file.uploadId)
    throw new HttpError(409, `${file.fileName} has already been uploaded`);
  const options = { expiresInSeconds: PART_LINK_SECONDS };
  const { awsKey, uploadId } = file;
  if (request.action === 'part') {
    if (request.partNumber > Math.ceil(file.size / file.partSize))
      throw new HttpError(400, `${file.fileName} has no part ${request.partNumber}`);
    // Touched: the abandoned-upload sweep leaves uploads in progress alone.
    await deps.db.update(uploadFiles).set({ updatedAt: new Date() }).where(eq(uploadFiles.id, file.id));
    return { url: await deps.storage.signedPartUrl(awsKey, uploadId, request.partNumber, options) };
  }
  if (request.action === 'complete') {
    const parts = await deps.storage.listParts(awsKey, uploadId).catch((error: unknown) => {
      if (error instanceof StorageError) throw new HttpError(409, `${file.fileName} must be uploaded again`);
      throw error;
    });
    const expected = Math.ceil(file.size / file.partSize);
    const stored = parts.reduce((sum, part) => sum + part.size, 0);
    if (parts.length !== expected || (stored !== file.size && deps.storage.driver === 'local'))
      throw new HttpError(
        409,
        `${file.fileName} is not complete: ${parts.length} of ${expected} parts arrived`,
      );
    await deps.db
      .update(uploadFiles)
      .set({ contentHash: compositeEtag(parts.map((part) => part.etag)), updatedAt: new Date() })
      .where(eq(uploadFiles.id, file.id));
  }
  return { url: await deps.storage.signedMultipartUrl(awsKey, uploadId, request.action, options) };
}

async function markUploaded(deps: Deps, file: FileRow): Promise<FileRow> {
  const [updated] = await deps.db
    .update(uploadFiles)
    .set({ state: 'uploaded', uploadId: null, error: null, updatedAt: new Date() })
    .where(and(eq(uploadFiles.id, file.id), eq(uploadFiles.state, 'uploading')))
    .returning();
  return updated ?? file;
}

/**
 * The browser says the file has arrived: the stored object is checked (its size), the file is uploaded
 * and, once the batch is confirmed, becomes its video at once.
 */
export async function fileUploaded(deps: Deps, batchId: string, fileId: string): Promise<UploadFile> {
  const file = await fileRow(deps, batchId, fileId);
  if (file.state === 'uploading') {
    const stored = await deps.storage.head(file.awsKey);
    if (!stored || !file.contentHash)
      throw new HttpError(409, `${file.fileName} has not arrived yet: its upload continues`);
    if (stored.size !== file.size) {
      await deps.storage.delete(file.awsKey);
      await deps.db
        .update(uploadFiles)
        .set({
          state: 'failed',
          uploadId: null,
          error: 'The stored file has the wrong size: upload it again',
        })
        .where(eq(uploadFiles.id, file.id));
      throw new HttpError(409, `${file.fileName} arrived with the wrong size: upload it again`);
    }
    await markUploaded(deps, file);
  }
  await makeVideos(deps, batchId, [fileId]);
  return getBatch(deps, batchId).then((batch) => batch.files.find((found) => found.id === fileId)!);
}

/** The owner's own match (or none): her choice stays, whatever later matching says. */
export async function matchFile(
  deps: Deps,
  batchId: string,
  fileId: string,
  { entryId, matchedBy }: { entryId: string | null; matchedBy: 'order' | 'hand' },
) {
  const batch = await batchRow(deps, batchId);
  const file = await fileRow(deps, batchId, fileId);
  await checkEntry(deps, batch.showcaseId, entryId);
  await deps.db.transaction(async (tx) => {
    await tx
      .update(uploadFiles)
      .set({ entryId, matchedBy: entryId ? matchedBy : null, updatedAt: new Date() })
      .where(eq(uploadFiles.id, file.id));
    if (file.videoId) {
      // Already a video: it follows the entry's text (or keeps its own words without one).
      await tx
        .update(videos)
        .set({ entryId, ownText: entryId === null })
        .where(eq(videos.id, file.videoId));
      if (entryId) await applyEntryText(tx, [entryId]);
    }
  });
}

/**
 * Marks an entry of the batch's programme as not filmed, or filmed after all: kept with the batch, so
 * a reload or another laptop matching the same files skips the same entries. Again: nothing changes.
 */
export async function markNotFilmed(deps: Deps, batchId: string, entryId: string, notFilmed: boolean) {
  const batch = await batchRow(deps, batchId);
  await checkEntry(deps, batch.showcaseId, entryId);
  if (notFilmed) await deps.db.insert(uploadNotFilmed).values({ batchId, entryId }).onConflictDoNothing();
  else
    await deps.db
      .delete(uploadNotFilmed)
      .where(and(eq(uploadNotFilmed.batchId, batchId), eq(uploadNotFilmed.entryId, entryId)));
}

/**
 * The entry her first camera-named file belongs to (null: none chosen), kept with the batch like the
 * not-filmed marks, so after a reload the files she adds and the marks she changes follow the same order.
 */
export async function setFirstEntry(deps: Deps, batchId: string, entryId: string | null) {
  const batch = await batchRow(deps, batchId);
  await checkEntry(deps, batch.showcaseId, entryId);
  await deps.db.update(uploadBatches).set({ firstEntryId: entryId }).where(eq(uploadBatches.id, batchId));
}

/** Confirms the batch: its uploaded files become videos now, the others as each arrives. Again: nothing changes. */
export async function confirmBatch(
  deps: Deps,
  batchId: string,
  input: z.output<typeof confirmUploadBatchSchema>,
): Promise<UploadBatch> {
  await batchRow(deps, batchId);
  await deps.db
    .update(uploadBatches)
    .set({ confirmedAt: sql`coalesce(${uploadBatches.confirmedAt}, now())`, ...input })
    .where(eq(uploadBatches.id, batchId));
  const files = await deps.db
    .select({ id: uploadFiles.id })
    .from(uploadFiles)
    .where(eq(uploadFiles.batchId, batchId));
  await makeVideos(
    deps,
    batchId,
    files.map((file) => file.id),
  );
  return getBatch(deps, batchId);
}

/**
 * Each uploaded file of a confirmed batch without a video becomes one (hidden until the worker has
 * made it ready), linked to its entry with the entry's text; a file whose content another video already
 * holds is marked a duplicate of it instead. Then processing is queued for every new or still-queued
 * video (its job id is fixed, so queuing again is a no-op).
 */
async function makeVideos(deps: Deps, batchId: string, fileIds: string[]): Promise<void> {
  const queued: Array<{ id: string; awsKey: string }> = [];
  for (const fileId of fileIds) {
    const made = await deps.db.transaction(async (tx) => {
      const [row] = await tx
        .select({ file: uploadFiles, batch: uploadBatches })
        .from(uploadFiles)
        .innerJoin(uploadBatches, eq(uploadBatches.id, uploadFiles.batchId))
        .where(and(eq(uploadFiles.id, fileId), eq(uploadFiles.batchId, batchId)))
        .for('update', { of: uploadFiles });
      if (!row?.batch.confirmedAt || row.file.state !== 'uploaded') return null;
      const { file, batch } = row;
      if (file.videoId) {
        const [video] = await tx
          .select({ id: videos.id, awsKey: videos.awsKey, state: videos.processingState })
          .from(videos)
          .where(eq(videos.id, file.videoId));
        return video?.state === 'queued' ? video : null;
      }
      const [inserted] = await tx
        .insert(videos)
        .values({
          title: titleFromFileName(file.fileName),
          description: '',
          showcaseId: batch.showcaseId,
          priceCents: batch.priceCents,
          awsKey: file.awsKey,
          published: false,
          fileSize: file.size,
          entryId: file.entryId,
          ownText: file.entryId === null,
          contentHash: file.contentHash,
          processingState: 'queued',
        })
        .onConflictDoNothing()
        .returning({ id: videos.id, awsKey: videos.awsKey });
      if (!inserted) {
        // The same content is already a video (uploaded before, or twice in this batch).
        const [original] = await tx
          .select({ id: videos.id, title: videos.title })
          .from(videos)
          .where(eq(videos.contentHash, file.contentHash!));
        await tx
          .update(uploadFiles)
          .set({
            state: 'duplicate',
            videoId: original?.id ?? null,
            error: `The same file as the video "${original?.title ?? 'another video'}": not made again`,
            updatedAt: new Date(),
          })
          .where(eq(uploadFiles.id, file.id));
        // Its stored copy is not needed.
        return { drop: file.awsKey };
      }
      if (file.entryId) await applyEntryText(tx, [file.entryId]);
      await tx
        .update(uploadFiles)
        .set({ videoId: inserted.id, updatedAt: new Date() })
        .where(eq(uploadFiles.id, file.id));
      return inserted;
    });
    if (made && 'drop' in made) await deps.storage.delete(made.drop);
    else if (made) queued.push(made);
  }
  for (const video of queued) await queueProcessingAfterSave(deps, video);
}

/** Retry: a failed upload starts a new multipart upload; a failed video is processed again. */
export async function retryFile(deps: Deps, batchId: string, fileId: string): Promise<UploadFile> {
  const file = await fileRow(deps, batchId, fileId);
  if (file.state === 'failed') {
    await deps.db
      .update(uploadFiles)
      .set({
        state: 'uploading',
        uploadId: null,
        contentHash: null,
        error: null,
        awsKey: uploadKey(file.fileName),
        updatedAt: new Date(),
      })
      .where(eq(uploadFiles.id, file.id));
    const [again] = await deps.db.select().from(uploadFiles).where(eq(uploadFiles.id, file.id));
    return describeFile(deps, await ensureUpload(deps, again!), undefined);
  }
  if (file.videoId) {
    const [video] = await deps.db
      .select({ id: videos.id, awsKey: videos.awsKey, state: videos.processingState })
      .from(videos)
      .where(eq(videos.id, file.videoId));
    if (video?.state === 'failed') await queueProcessingAfterSave(deps, video, { again: true });
  }
  return getBatch(deps, batchId).then((batch) => batch.files.find((found) => found.id === fileId)!);
}

/** Removes a file not yet made a video: its upload is aborted and nothing stays in storage. */
export async function removeFile(deps: Deps, batchId: string, fileId: string): Promise<void> {
  const file = await fileRow(deps, batchId, fileId);
  if (file.videoId) throw new HttpError(409, `${file.fileName} is a video now: delete the video instead`);
  if (file.uploadId) await deps.storage.abortMultipartUpload(file.awsKey, file.uploadId);
  await deps.storage.delete(file.awsKey);
  await deps.db.delete(uploadFiles).where(eq(uploadFiles.id, file.id));
}
