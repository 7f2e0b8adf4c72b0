import { and, eq, gte, inArray, ne, notExists } from 'drizzle-orm';
import { ZodError } from 'zod';
import { purchaseItems, purchases, sales, showcases, videos, type Db } from '@app/shared/db';
import type { Storage } from '@app/shared/storage';
import type { Deps } from '../../deps.ts';
import { HttpError, notFound } from '../../http/errors.ts';
import { recordAudit } from '../privacy/privacy.service.ts';

/** Stripe keeps a Checkout Session open this long: a younger pending checkout may still be paid. */
const OPEN_CHECKOUT_MS = 24 * 3600 * 1000;
/** How many storage lookups the admin list makes at once (S3 HEADs are one request each). */
const LOOKUPS_AT_ONCE = 8;

/** A 400 that names the field, as a schema failure would. */
export const fieldError = (path: string, message: string) =>
  new ZodError([{ code: 'custom', path: [path], message, input: undefined }]);

/** The stored file's size, or null when no object is stored under `key`. */
export async function storedFileSize(storage: Storage, key: string): Promise<number | null> {
  return (await storage.head(key))?.size ?? null;
}

/** Sizes of many keys (the admin list), a few lookups at a time. */
export async function storedFileSizes(storage: Storage, keys: string[]): Promise<Map<string, number | null>> {
  const sizes = new Map<string, number | null>();
  const unique = [...new Set(keys)];
  for (let start = 0; start < unique.length; start += LOOKUPS_AT_ONCE) {
    const batch = unique.slice(start, start + LOOKUPS_AT_ONCE);
    const found = await Promise.all(batch.map((key) => storedFileSize(storage, key)));
    batch.forEach((key, index) => sizes.set(key, found[index] ?? null));
  }
  return sizes;
}

interface Sellable {
  published: boolean;
  priceCents: number;
  passwordProtected: boolean;
}

/** A buyer must never pay for (or unlock) a file that is not there: such a video stays hidden. */
export function checkPublishable(video: Sellable, fileSize: number | null): void {
  if (video.published && fileSize === null && (video.priceCents > 0 || video.passwordProtected))
    throw fieldError(
      'awsKey',
      'No file is stored under this storage key, so this paid or protected video cannot be published. Upload the file (or correct the key), or save the video hidden.',
    );
}

/** A preview key must name a stored picture (an /api/ path is served by the site itself). */
export async function checkPreview(storage: Storage, previewUrl: string | null | undefined): Promise<void> {
  if (previewUrl && !previewUrl.startsWith('/api/') && !(await storage.head(previewUrl)))
    throw fieldError('previewUrl', 'No preview picture is stored under this key');
}

/** Publishing what is published (or hiding what is hidden): another tab or person got there first. */
const alreadySo = (what: 'video' | 'showcase', published: boolean) =>
  new HttpError(409, `This ${what} is already ${published ? 'published' : 'hidden'}`);

/** Publishing a withdrawn video (decision 030): restoring it for its buyers comes first. */
export const withdrawnNotPublished = () =>
  new HttpError(409, 'This video was withdrawn after a removal request: restore it first, then publish it.');

/**
 * The audit entry of a hide or unhide (issue 28), by whichever screen it was made: the row's button,
 * the edit form's "Shown on the site" tick or the showcase form. Nothing when `published` is unchanged.
 */
export async function auditPublishedChange(
  tx: Parameters<typeof recordAudit>[0],
  subject: { kind: 'video' | 'showcase'; id: string; name: string },
  before: boolean,
  after: boolean | undefined,
): Promise<void> {
  if (after === undefined || after === before) return;
  await recordAudit(tx, {
    action: after ? 'unhide' : 'hide',
    subjectKind: subject.kind,
    subjectId: subject.id,
    subjectName: subject.name,
  });
}

/** Hides or publishes a video; publishing checks its file again (it may have gone since it was saved). */
export async function setVideoPublished(
  { db, storage }: Pick<Deps, 'db' | 'storage'>,
  id: string,
  published: boolean,
): Promise<{ id: string; published: boolean }> {
  const [video] = await db.select().from(videos).where(eq(videos.id, id));
  if (!video) throw notFound('Video not found');
  if (video.published === published) throw alreadySo('video', published);
  if (published && video.withdrawnAt) throw withdrawnNotPublished();
  const fileSize = published ? await storedFileSize(storage, video.awsKey) : video.fileSize;
  if (published) checkPublishable({ ...video, published }, fileSize);
  await db.transaction(async (tx) => {
    await tx.update(videos).set({ published, fileSize }).where(eq(videos.id, id));
    await auditPublishedChange(tx, { kind: 'video', id, name: video.title }, video.published, published);
  });
  return { id, published };
}

/** Hides or publishes a showcase with its videos, in one conditional update: of two clicks at once, one wins. */
export async function setShowcasePublished(
  db: Db,
  id: string,
  published: boolean,
): Promise<{ id: string; published: boolean }> {
  const changed = await db.transaction(async (tx) => {
    const rows = await tx
      .update(showcases)
      .set({ published })
      .where(and(eq(showcases.id, id), ne(showcases.published, published)))
      .returning({ id: showcases.id, name: showcases.name });
    for (const row of rows)
      await auditPublishedChange(tx, { kind: 'showcase', id: row.id, name: row.name }, !published, published);
    return rows;
  });
  if (changed.length > 0) return { id, published };
  const [showcase] = await db.select({ id: showcases.id }).from(showcases).where(eq(showcases.id, id));
  throw showcase ? alreadySo('showcase', published) : notFound('Showcase not found');
}

/**
 * Deletes a video nobody has paid for. Checkouts that ended without a payment (failed, expired, or
 * pending for longer than Stripe keeps them open) go with it; sales are never deleted, so a video
 * with a sale, a paid or refunded purchase, or a checkout that may still be paid is refused with a
 * 409 that offers hiding instead.
 */
export async function deleteVideo(db: Db, id: string) {
  return db.transaction(async (tx) => {
    const [video] = await tx.select({ id: videos.id }).from(videos).where(eq(videos.id, id)).for('update');
    if (!video) throw notFound('Video not found');
    // Purchases that hold this video (one item of a cart, or a purchase of it alone).
    const holding = (condition: ReturnType<typeof and>) =>
      tx.$count(
        purchases,
        and(
          condition,
          inArray(
            purchases.id,
            tx
              .select({ id: purchaseItems.purchaseId })
              .from(purchaseItems)
              .where(eq(purchaseItems.videoId, id)),
          ),
        ),
      );
    const sold =
      (await tx.$count(sales, eq(sales.videoId, id))) +
      (await holding(inArray(purchases.status, ['paid', 'refunded'])));
    if (sold > 0)
      throw new HttpError(
        409,
        'This video has been sold, so it cannot be deleted: its buyers keep their downloads. Hide it instead to take it off the site.',
      );
    const stillOpen = await holding(
      and(eq(purchases.status, 'pending'), gte(purchases.createdAt, new Date(Date.now() - OPEN_CHECKOUT_MS))),
    );
    if (stillOpen > 0)
      throw new HttpError(
        409,
        'Someone started buying this video less than a day ago and could still pay, so it cannot be deleted yet. Hide it now, and delete it tomorrow if nobody paid.',
      );
    // Only unpaid checkouts are left holding it: the video leaves them, and those left empty go.
    await tx.delete(purchaseItems).where(eq(purchaseItems.videoId, id));
    await tx
      .delete(purchases)
      .where(
        and(
          inArray(purchases.status, ['pending', 'failed', 'expired']),
          notExists(
            tx
              .select({ id: purchaseItems.id })
              .from(purchaseItems)
              .where(eq(purchaseItems.purchaseId, purchases.id)),
          ),
        ),
      );
    const [deleted] = await tx
      .delete(videos)
      .where(eq(videos.id, id))
      .returning({ awsKey: videos.awsKey, media: videos.media, title: videos.title });
    await recordAudit(tx, {
      action: 'delete',
      subjectKind: 'video',
      subjectId: id,
      subjectName: deleted!.title,
    });
    return deleted!;
  });
}
