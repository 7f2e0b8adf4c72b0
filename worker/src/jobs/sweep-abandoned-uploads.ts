import { and, eq, lt, sql } from 'drizzle-orm';
import { uploadFiles } from '@app/shared/db';
import type { JobHandler } from '../context.ts';

/**
 * How long a bulk file may sit unfinished: a part link lives 6 hours and a venue's evening may resume
 * the next day, so three days untouched (no part signed) is abandoned. S3's lifecycle rule
 * (docs/operations.md) catches what this misses, after 7 days.
 */
export const ABANDONED_AFTER_MS = 3 * 24 * 3600_000;
const BATCH = 200;

/**
 * Aborts the multipart uploads of bulk files untouched for ABANDONED_AFTER_MS, so their parts leave
 * storage, and marks the files failed with the reason (retry starts them again). A file whose upload
 * was completed but never reported (the browser closed between the two) is taken as uploaded instead.
 * Running it twice changes nothing more.
 */
export const sweepAbandonedUploads: JobHandler<'sweep-abandoned-uploads'> = async (
  _payload,
  { db, storage, logger },
) => {
  let aborted = 0;
  let arrived = 0;
  for (;;) {
    const stale = await db
      .select()
      .from(uploadFiles)
      .where(
        and(
          eq(uploadFiles.state, 'uploading'),
          lt(uploadFiles.updatedAt, new Date(Date.now() - ABANDONED_AFTER_MS)),
        ),
      )
      .orderBy(uploadFiles.updatedAt)
      .limit(BATCH);
    for (const file of stale) {
      const stored = file.contentHash ? await storage.head(file.awsKey) : null;
      if (stored && stored.size === file.size) {
        await db
          .update(uploadFiles)
          .set({ state: 'uploaded', uploadId: null, updatedAt: new Date() })
          .where(and(eq(uploadFiles.id, file.id), eq(uploadFiles.state, 'uploading')));
        arrived += 1;
        continue;
      }
      // Aborting an upload that is gone already is not an error (both drivers).
      if (file.uploadId) await storage.abortMultipartUpload(file.awsKey, file.uploadId);
      await db
        .update(uploadFiles)
        .set({
          state: 'failed',
          uploadId: null,
          contentHash: null,
          error:
            'The upload was left unfinished for three days and its parts were removed: retry to send it again',
          updatedAt: sql`now()`,
        })
        .where(and(eq(uploadFiles.id, file.id), eq(uploadFiles.state, 'uploading')));
      aborted += 1;
    }
    if (stale.length < BATCH) break;
  }
  if (aborted + arrived === 0) return 'skipped';
  logger.info({ aborted, arrived }, 'abandoned bulk uploads swept');
  return { status: 'done', aborted, arrived };
};
