import { inArray, sql } from 'drizzle-orm';
import { images, portfolioItems, type Db } from './db/index.ts';
import { imageKeys, type Storage } from './storage/index.ts';

/**
 * Deletes, with their files, the given pictures that no portfolio photo, event or video preview shows
 * any more. Called after a photo is deleted or replaced: a picture an event or a video chose from the
 * portfolio stays.
 */
export async function deleteUnusedImages(
  db: Db,
  storage: Storage,
  imageIds: ReadonlyArray<string | null>,
): Promise<void> {
  const ids = imageIds.filter((id): id is string => id !== null);
  if (ids.length === 0) return;
  // Column names spelt out: drizzle leaves the table off a column in a one-table query, and there
  // "id" alone would name the subquery's own column.
  const removed = await db
    .delete(images)
    .where(
      sql`${inArray(images.id, ids)}
        and not exists (select 1 from events e where e.image_url = '/api/photos/' || "images"."id")
        and not exists (select 1 from videos v where v.preview_url = '/api/photos/' || "images"."id")
        and not exists (select 1 from ${portfolioItems} p where p.image_id = "images"."id" or p.next_image_id = "images"."id")`,
    )
    .returning({ id: images.id, widths: images.widths, sourceKey: images.sourceKey });
  for (const image of removed)
    await Promise.all(
      [image.sourceKey, ...imageKeys(image.id, image.widths ?? [])].map((key) => storage.delete(key)),
    );
}
