import { eq } from 'drizzle-orm';
import { images } from '@app/shared/db';
import type { Deps } from '../../deps.ts';
import { HttpError } from '../../http/errors.ts';

type Purpose = (typeof images.$inferInsert)['purpose'];

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
