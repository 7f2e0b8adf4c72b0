import { UnrecoverableError } from 'bullmq';
import { and, asc, eq, lt } from 'drizzle-orm';
import { images, portfolioItems } from '@app/shared/db';
import { MAX_IMAGE_BYTES, photoUrl } from '@app/shared/images';
import { markPublicContentChanged } from '@app/shared/cache-version';
import { deleteUnusedImages } from '@app/shared/uploaded-images';
import { masterKey, variantKey, type Storage } from '@app/shared/storage';
import type { JobHandler } from '../context.ts';
import { ImageRejected, processImage as makeVariants } from '../images/pipeline.ts';

async function readUpload(storage: Storage, key: string): Promise<Buffer> {
  const stored = await storage.head(key);
  if (!stored) throw new ImageRejected('The upload did not arrive: upload the file again');
  if (stored.size === 0) throw new ImageRejected('The file is empty');
  if (stored.size > MAX_IMAGE_BYTES) throw new ImageRejected('Pictures up to 50 MB can be uploaded');
  const object = await storage.get(key);
  if (!object) throw new ImageRejected('The upload did not arrive: upload the file again');
  const chunks: Buffer[] = [];
  for await (const chunk of object.body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** How long a picture may wait before the sweep takes its job for lost; queuing it again is harmless. */
export const STUCK_IMAGE_MS = 5 * 60_000;

/**
 * Makes an uploaded picture publishable: reads the upload, writes its master and variants
 * (pipeline.ts), marks the image ready with its size and placeholder, puts a portfolio photo's
 * replacement in place, and deletes the upload, which still carries the camera's metadata. A file it
 * refuses marks the image failed with the reason, deletes the upload, and ends unrecoverable.
 * Running it again after success skips; after a crash midway it writes the same keys again.
 */
export const processImage: JobHandler<'process-image'> = async ({ imageId }, context) => {
  if (imageId === undefined) return sweep(context);
  const { db, storage, redis, config } = context;
  const [image] = await db.select().from(images).where(eq(images.id, imageId));
  if (!image || image.status !== 'pending') return 'skipped';

  let processed;
  try {
    processed = await makeVariants(await readUpload(storage, image.sourceKey));
  } catch (error) {
    if (!(error instanceof ImageRejected)) throw error;
    await db
      .update(images)
      .set({ status: 'failed', error: error.message, processedAt: new Date() })
      .where(eq(images.id, imageId));
    await storage.delete(image.sourceKey);
    throw new UnrecoverableError(error.message);
  }

  await storage.put(masterKey(imageId), processed.master, 'image/jpeg');
  for (const variant of processed.variants)
    await storage.put(
      variantKey(imageId, variant.width, variant.format),
      variant.data,
      `image/${variant.format}`,
    );
  const widths = [...new Set(processed.variants.map((variant) => variant.width))];

  const replaced = await db.transaction(async (tx) => {
    await tx
      .update(images)
      .set({
        status: 'ready',
        error: null,
        width: processed.width,
        height: processed.height,
        widths,
        placeholder: processed.placeholder,
        processedAt: new Date(),
      })
      .where(eq(images.id, imageId));
    // A replacement takes its photo's place now, so the old picture showed until this moment.
    const replacing = await tx
      .select({ previous: portfolioItems.imageId })
      .from(portfolioItems)
      .where(eq(portfolioItems.nextImageId, imageId))
      .for('update');
    await tx
      .update(portfolioItems)
      .set({ imageId, nextImageId: null, imageUrl: photoUrl(imageId), updatedAt: new Date() })
      .where(eq(portfolioItems.nextImageId, imageId));
    return replacing;
  });
  await markPublicContentChanged(redis, config.QUEUE_PREFIX);
  await storage.delete(image.sourceKey);
  await deleteUnusedImages(
    db,
    storage,
    replaced.map((row) => row.previous),
  );
  return { status: 'done', width: processed.width, height: processed.height, widths };
};

/**
 * Queues again every picture still pending a few minutes after its upload: its job may be gone with a
 * Redis that lost its data. A job that still exists keeps its id (`image-<id>`), so queuing it again
 * changes nothing, and a second run of a finished picture skips.
 */
async function sweep({ db, producer }: Parameters<typeof processImage>[1]) {
  const stuck = await db
    .select({ id: images.id })
    .from(images)
    .where(and(eq(images.status, 'pending'), lt(images.createdAt, new Date(Date.now() - STUCK_IMAGE_MS))))
    .orderBy(asc(images.createdAt))
    .limit(500);
  for (const { id } of stuck) await producer.enqueue('process-image', { imageId: id });
  return stuck.length ? { status: 'done' as const, queued: stuck.length } : 'skipped';
}
