import { and, asc, desc, eq, gt, inArray } from 'drizzle-orm';
import { showcases, videos, type Db } from '../db/index.ts';
import { sellableVideo } from './availability.ts';

/**
 * What a showcase bundle holds (docs/decisions/023): the showcase's published videos that are sold
 * (a price above 0) and not password protected. Free videos need no buying, and a protected video
 * stays behind its password for everyone, bundle or not. Checkout counts and prices these; payment
 * grants the ones there are at that moment. A video whose file failed processing, or is still being
 * processed, is not in it (availability.ts).
 */
export async function bundleVideos(db: Pick<Db, 'select'>, showcaseIds: string[]) {
  if (showcaseIds.length === 0) return [];
  return db
    .select({
      id: videos.id,
      title: videos.title,
      showcaseId: videos.showcaseId,
      priceCents: videos.priceCents,
    })
    .from(videos)
    .where(
      and(
        inArray(videos.showcaseId, showcaseIds),
        eq(videos.published, true),
        eq(videos.passwordProtected, false),
        gt(videos.priceCents, 0),
        // Only what can be delivered: processed and ready (or never processed).
        sellableVideo,
      ),
    )
    .orderBy(asc(videos.showcaseId), desc(videos.createdAt), desc(videos.id));
}

/** A showcase's "Buy all" offer, or null when it has no bundle price or nothing to sell. */
export async function showcaseBundle(db: Db, showcaseId: string) {
  const [showcase] = await db
    .select({
      id: showcases.id,
      name: showcases.name,
      published: showcases.published,
      bundlePriceCents: showcases.bundlePriceCents,
    })
    .from(showcases)
    .where(eq(showcases.id, showcaseId));
  if (!showcase?.published || showcase.bundlePriceCents === null) return null;
  const list = await bundleVideos(db, [showcase.id]);
  if (list.length === 0) return null;
  const separateCents = list.reduce((sum, video) => sum + video.priceCents, 0);
  return {
    showcaseId: showcase.id,
    name: showcase.name,
    videoCount: list.length,
    priceCents: showcase.bundlePriceCents,
    separateCents,
    savingCents: Math.max(0, separateCents - showcase.bundlePriceCents),
    videoIds: list.map((video) => video.id),
  };
}

/**
 * Splits `total` cents in proportion to `weights` (largest remainder, so the parts add up exactly);
 * evenly when every weight is 0.
 */
export function allocate(total: number, weights: number[]): number[] {
  if (weights.length === 0) return [];
  const sum = weights.reduce((a, b) => a + b, 0);
  const shares = sum > 0 ? weights : weights.map(() => 1);
  const whole = sum > 0 ? sum : weights.length;
  const exact = shares.map((weight) => (total * weight) / whole);
  const parts = exact.map(Math.floor);
  let left = total - parts.reduce((a, b) => a + b, 0);
  const order = exact
    .map((value, index) => ({ index, rest: value - Math.floor(value) }))
    .sort((a, b) => b.rest - a.rest || a.index - b.index);
  for (const { index } of order) {
    if (left <= 0) break;
    parts[index]!++;
    left--;
  }
  return parts;
}
