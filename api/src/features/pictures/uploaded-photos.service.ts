import { and, desc, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import { images, portfolioItems, type Db } from '@app/shared/db';
import { photoUrl } from '@app/shared/images';
import type { AdminImage } from '@app/shared/schemas';
import type { Deps } from '../../deps.ts';
import { HttpError, notFound } from '../../http/errors.ts';

// The owner's uploaded pictures (portfolio photos, event pictures, video previews): recorded once
// their upload arrived, made into every width by process-image, served at /api/photos/<id>.

type Purpose = (typeof images.$inferInsert)['purpose'];

export const imageIdSchema = z.uuid({ error: 'Not an image id' });

/**
 * The widths made of a processed picture, and its size (which widths have an AVIF); undefined while
 * pending or failed (so it is not kept).
 */
export async function readyImageVariants(db: Db, id: string) {
  const [row] = await db
    .select({ widths: images.widths, width: images.width, height: images.height })
    .from(images)
    .where(and(eq(images.id, id), eq(images.status, 'ready')));
  return row;
}

/**
 * The upload-complete hook of every picture: checks the upload is in storage, records it, and queues
 * process-image. The same key twice gives the same image (one row and one job per storage key).
 */
export async function recordUpload(
  { db, storage, producer }: Pick<Deps, 'db' | 'storage' | 'producer'>,
  upload: { awsKey: string; originalName: string; purpose: Purpose },
): Promise<typeof images.$inferSelect> {
  if (!(await storage.head(upload.awsKey)))
    throw new HttpError(400, 'The upload did not arrive: upload the file again');
  await db
    .insert(images)
    .values({ sourceKey: upload.awsKey, originalName: upload.originalName, purpose: upload.purpose })
    .onConflictDoNothing({ target: images.sourceKey });
  const [image] = await db.select().from(images).where(eq(images.sourceKey, upload.awsKey));
  if (image!.status === 'pending') await producer.enqueue('process-image', { imageId: image!.id });
  return image!;
}

/** Uploaded pictures as the picker lists them, newest first. */
export async function adminImages(
  db: Db,
  which: { readyOnly?: boolean; id?: string },
): Promise<AdminImage[]> {
  const rows = await db
    .select({
      id: images.id,
      purpose: images.purpose,
      originalName: images.originalName,
      status: images.status,
      error: images.error,
      width: images.width,
      height: images.height,
      placeholder: images.placeholder,
      alt: sql<
        string | null
      >`(select p.alt from ${portfolioItems} p where p.image_id = "images"."id" limit 1)`,
      createdAt: images.createdAt,
    })
    .from(images)
    .where(
      and(
        which.id ? eq(images.id, which.id) : undefined,
        which.readyOnly ? eq(images.status, 'ready') : undefined,
      ),
    )
    .orderBy(desc(images.createdAt));
  return rows.map((row) => ({
    ...row,
    purpose: row.purpose as AdminImage['purpose'],
    status: row.status as AdminImage['status'],
    url: photoUrl(row.id),
    createdAt: row.createdAt.toISOString(),
  }));
}

export async function adminImage(db: Db, id: string): Promise<AdminImage> {
  // Not an id at all is as unknown as an id that is not there.
  if (!imageIdSchema.safeParse(id).success) throw notFound('Image not found');
  const [image] = await adminImages(db, { id });
  if (!image) throw notFound('Image not found');
  return image;
}
