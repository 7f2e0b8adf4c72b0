import { eq } from 'drizzle-orm';
import { videos, type Db } from '@app/shared/db';
import { videoAvailability } from '@app/shared/sales';
import { previewClipUrlColumn, previewUrlColumn } from '../video-processing/video-processing.service.ts';
import { notFound } from '../../http/errors.ts';

/** What visitors may see of a video: never its password hash or storage key. */
export const publicVideoColumns = {
  id: videos.id,
  title: videos.title,
  description: videos.description,
  tags: videos.tags,
  showcaseId: videos.showcaseId,
  priceCents: videos.priceCents,
  previewUrl: previewUrlColumn,
  previewClipUrl: previewClipUrlColumn,
  passwordProtected: videos.passwordProtected,
  availability: videoAvailability,
  createdAt: videos.createdAt,
};

/** One video as visitors see it (whether they may is the caller's question). */
export async function publicVideo(db: Db, id: string) {
  const [video] = await db.select(publicVideoColumns).from(videos).where(eq(videos.id, id));
  if (!video) throw notFound('Video not found');
  return video;
}
