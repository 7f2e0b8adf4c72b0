import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import { images, type Db } from '@app/shared/db';

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
