import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { inArray } from 'drizzle-orm';
import {
  contacts,
  events,
  portfolioItems,
  purchaseItems,
  purchases,
  showcases,
  videos,
  type Db,
} from '@app/shared/db';
import type { VideoMedia } from '@app/shared/schemas';

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

/** What the worker found and made for a processed 1080p H.264/AAC video; tests override what they care about. */
export const processedMedia = (overrides: Partial<VideoMedia> = {}): VideoMedia => ({
  durationSeconds: 30,
  width: 1920,
  height: 1080,
  videoCodec: 'h264',
  audioCodec: 'aac',
  sizeBytes: 1,
  fastStart: true,
  posterKey: 'previews/posters/duo.jpg',
  clipKey: null,
  streamKey: null,
  ...overrides,
});

export async function createShowcase(db: Db, overrides: Partial<typeof showcases.$inferInsert> = {}) {
  const [showcase] = await db
    .insert(showcases)
    .values({ name: `Showcase ${randomUUID().slice(0, 8)}`, description: 'A test showcase', ...overrides })
    .returning();
  return showcase!;
}

/**
 * A purchase (pending Stripe checkout unless overridden) with a unique session id, holding `videoId`
 * or `videoIds` (an item each, priced as the video) and `bundleShowcaseIds` (a bundle line each).
 */
export async function createPurchase(
  db: Db,
  {
    videoId,
    videoIds = videoId ? [videoId] : [],
    bundleShowcaseIds = [],
    ...overrides
  }: Partial<typeof purchases.$inferInsert> & {
    videoId?: string;
    videoIds?: string[];
    bundleShowcaseIds?: string[];
  },
) {
  const bought = videoIds.length
    ? await db
        .select({ id: videos.id, title: videos.title, priceCents: videos.priceCents })
        .from(videos)
        .where(inArray(videos.id, videoIds))
    : [];
  const bundles = bundleShowcaseIds.length
    ? await db
        .select({ id: showcases.id, name: showcases.name, priceCents: showcases.bundlePriceCents })
        .from(showcases)
        .where(inArray(showcases.id, bundleShowcaseIds))
    : [];
  const [purchase] = await db
    .insert(purchases)
    .values({
      checkoutSessionId: `cs_test_${randomUUID().replaceAll('-', '')}`,
      buyerName: 'Test Buyer',
      buyerEmail: `buyer-${randomUUID().slice(0, 8)}@example.nz`,
      amountCents: 1000,
      currency: 'nzd',
      ...overrides,
    })
    .returning();
  const lines = [
    ...videoIds.map((id) => {
      const video = bought.find((row) => row.id === id)!;
      return { videoId: id, bundleShowcaseId: null, title: video.title, price: video.priceCents };
    }),
    ...bundles.map((bundle) => ({
      videoId: null,
      bundleShowcaseId: bundle.id,
      title: bundle.name,
      price: bundle.priceCents ?? 0,
    })),
  ];
  if (lines.length > 0) {
    // A one-video purchase's item costs what the purchase does (tests often set only amountCents).
    const single = lines.length === 1 ? purchase!.amountCents : undefined;
    await db.insert(purchaseItems).values(
      lines.map(({ price, ...line }, position) => ({
        ...line,
        purchaseId: purchase!.id,
        listPriceCents: single ?? price,
        amountCents: single ?? price,
        position,
      })),
    );
  }
  return purchase!;
}

/** Portfolio images (solo unless overridden), each with a unique alt text `${alt} 1`, `${alt} 2`... */
export async function createPortfolioItems(
  db: Db,
  count: number,
  overrides: Partial<typeof portfolioItems.$inferInsert> = {},
) {
  const alt = overrides.alt ?? `Portfolio image ${randomUUID().slice(0, 8)}`;
  return db
    .insert(portfolioItems)
    .values(
      Array.from({ length: count }, (_, index) => ({
        imageUrl: '/api/images/portfolio/solo-01.jpg',
        category: 'solo',
        ...overrides,
        alt: `${alt} ${index + 1}`,
      })),
    )
    .returning();
}

/** A competition a month from now, without a booking link unless one is given. */
export async function createEvent(db: Db, overrides: Partial<typeof events.$inferInsert> = {}) {
  const inAMonth = new Date(Date.now() + 30 * 24 * 3600_000).toISOString().slice(0, 10);
  const [event] = await db
    .insert(events)
    .values({
      title: `Competition ${randomUUID().slice(0, 8)}`,
      description: 'All sections',
      date: inAMonth,
      location: 'Christchurch',
      eventType: 'competition',
      imageUrl: '/api/images/attached_assets/event-01.jpg',
      ...overrides,
    })
    .returning();
  return event!;
}

/** An enquiry from the contact form: Kiri Tane's, which the owner's screens are tested with. */
export async function createEnquiry(db: Db, overrides: Partial<typeof contacts.$inferInsert> = {}) {
  const [contact] = await db
    .insert(contacts)
    .values({
      firstName: 'Kiri',
      lastName: 'Tane',
      email: 'kiri@example.nz',
      eventType: 'dance-competition',
      message: 'Can you cover our regional competition?',
      ...overrides,
    })
    .returning();
  return contact!;
}

/** The small playable mp4 the seed stores (a real video, so players load it without errors). */
export const SAMPLE_VIDEO_PATH = fileURLToPath(
  new URL('../../scripts/seed/sample-performance.mp4', import.meta.url),
);
