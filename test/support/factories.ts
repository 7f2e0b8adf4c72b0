import { randomUUID } from 'node:crypto';
import { showcases, videos, type Db } from '@app/shared/db';

/** Valid rows with unique values; tests override what they care about. */
export async function createVideo(db: Db, overrides: Partial<typeof videos.$inferInsert> = {}) {
  const [video] = await db
    .insert(videos)
    .values({
      title: `Video ${randomUUID().slice(0, 8)}`,
      description: 'A test video',
      tags: ['test'],
      awsKey: `videos/${randomUUID()}.mp4`,
      ...overrides,
    })
    .returning();
  return video!;
}

export async function createShowcase(db: Db, overrides: Partial<typeof showcases.$inferInsert> = {}) {
  const [showcase] = await db
    .insert(showcases)
    .values({ name: `Showcase ${randomUUID().slice(0, 8)}`, description: 'A test showcase', ...overrides })
    .returning();
  return showcase!;
}
