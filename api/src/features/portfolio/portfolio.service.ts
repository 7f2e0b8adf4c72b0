import { and, asc, eq, isNull, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { z, ZodError } from 'zod';
import { images, portfolioItems, type Db } from '@app/shared/db';
import type { PortfolioCategory } from '@app/shared/constants';
import { photoUrl } from '@app/shared/images';
import {
  ALT_REQUIRED_MESSAGE,
  type AdminPortfolioPhoto,
  type createPortfolioPhotoSchema,
  type PublicPortfolioImage,
  type UpdatePortfolioPhoto,
} from '@app/shared/schemas';
import { deleteUnusedImages } from '@app/shared/uploaded-images';
import type { Deps } from '../../deps.ts';
import { notFound } from '../../http/errors.ts';
import { recordUpload } from '../pictures/uploaded-photos.service.ts';

/** Published photos whose picture is ready (built-in pictures have none to wait for), in the owner's order. */
export function publicPortfolio(db: Db, category?: PortfolioCategory): Promise<PublicPortfolioImage[]> {
  return db
    .select({
      id: portfolioItems.id,
      imageUrl: portfolioItems.imageUrl,
      alt: portfolioItems.alt,
      category: portfolioItems.category,
      featured: portfolioItems.featured,
      width: images.width,
      height: images.height,
      placeholder: images.placeholder,
    })
    .from(portfolioItems)
    .leftJoin(images, eq(images.id, portfolioItems.imageId))
    .where(
      and(
        eq(portfolioItems.published, true),
        or(isNull(portfolioItems.imageId), eq(images.status, 'ready')),
        category ? eq(portfolioItems.category, category) : undefined,
      ),
    )
    .orderBy(
      ...(category ? [] : [asc(portfolioItems.category)]),
      asc(portfolioItems.position),
      asc(portfolioItems.id),
    );
}

const nextImages = alias(images, 'next_images');
const adminPhotoColumns = {
  id: portfolioItems.id,
  imageUrl: portfolioItems.imageUrl,
  alt: portfolioItems.alt,
  category: portfolioItems.category,
  featured: portfolioItems.featured,
  published: portfolioItems.published,
  position: portfolioItems.position,
  width: images.width,
  height: images.height,
  placeholder: images.placeholder,
  imageStatus: images.status,
  imageError: images.error,
  imageName: images.originalName,
  nextStatus: nextImages.status,
  nextError: nextImages.error,
  nextName: nextImages.originalName,
};

/** Photos with their picture's size and state, and a replacement's state (left joins: built-in pictures have none). */
const selectPhotos = (db: Db) =>
  db
    .select(adminPhotoColumns)
    .from(portfolioItems)
    .leftJoin(images, eq(images.id, portfolioItems.imageId))
    .leftJoin(nextImages, eq(nextImages.id, portfolioItems.nextImageId));
type AdminPhotoRow = Awaited<ReturnType<typeof selectPhotos>>[number];

function toAdminPhoto(row: AdminPhotoRow): AdminPortfolioPhoto {
  const { imageStatus, imageError, imageName, nextStatus, nextError, nextName, ...photo } = row;
  return {
    ...photo,
    category: photo.category as AdminPortfolioPhoto['category'],
    image: imageStatus
      ? { status: imageStatus as 'pending', error: imageError, originalName: imageName ?? '' }
      : null,
    nextImage: nextStatus
      ? { status: nextStatus as 'pending', error: nextError, originalName: nextName ?? '' }
      : null,
  };
}

export async function adminPhoto(db: Db, id: number): Promise<AdminPortfolioPhoto> {
  const [row] = await selectPhotos(db).where(eq(portfolioItems.id, id));
  if (!row) throw notFound('Photo not found');
  return toAdminPhoto(row);
}

export async function adminPortfolio(db: Db): Promise<AdminPortfolioPhoto[]> {
  const rows = await selectPhotos(db).orderBy(
    asc(portfolioItems.category),
    asc(portfolioItems.position),
    asc(portfolioItems.id),
  );
  return rows.map(toAdminPhoto);
}

/** A photo whose upload has completed: last in its category, unpublished until it has alt text. */
export async function createPhoto(
  deps: Pick<Deps, 'db' | 'storage' | 'producer'>,
  { awsKey, originalName, ...photo }: z.output<typeof createPortfolioPhotoSchema>,
): Promise<AdminPortfolioPhoto> {
  const image = await recordUpload(deps, { awsKey, originalName, purpose: 'portfolio' });
  const [created] = await deps.db
    .insert(portfolioItems)
    .values({
      ...photo,
      imageId: image.id,
      imageUrl: photoUrl(image.id),
      published: false,
      position: sql`(select coalesce(max(position) + 1, 0) from ${portfolioItems} where category = ${photo.category})`,
    })
    .returning({ id: portfolioItems.id });
  return adminPhoto(deps.db, created!.id);
}

export async function updatePhoto(
  db: Db,
  id: number,
  changes: UpdatePortfolioPhoto,
): Promise<AdminPortfolioPhoto> {
  const current = await adminPhoto(db, id);
  const alt = changes.alt ?? current.alt;
  const published = changes.published ?? current.published;
  if (published && alt === '')
    throw new ZodError([{ code: 'custom', path: ['alt'], message: ALT_REQUIRED_MESSAGE, input: alt }]);
  await db
    .update(portfolioItems)
    .set({ ...changes, updatedAt: new Date() })
    .where(eq(portfolioItems.id, id));
  return adminPhoto(db, id);
}

/** The new picture is processed first; the photo keeps showing the old one until it is ready. */
export async function replacePhoto(
  deps: Pick<Deps, 'db' | 'storage' | 'producer'>,
  id: number,
  upload: { awsKey: string; originalName: string },
): Promise<AdminPortfolioPhoto> {
  const { db, storage } = deps;
  const [photo] = await db
    .select({ nextImageId: portfolioItems.nextImageId })
    .from(portfolioItems)
    .where(eq(portfolioItems.id, id));
  if (!photo) throw notFound('Photo not found');
  const image = await recordUpload(deps, { ...upload, purpose: 'portfolio' });
  await db
    .update(portfolioItems)
    .set({ nextImageId: image.id, updatedAt: new Date() })
    .where(eq(portfolioItems.id, id));
  // A replacement replaced before it was ready is dropped.
  if (photo.nextImageId !== image.id) await deleteUnusedImages(db, storage, [photo.nextImageId]);
  return adminPhoto(db, id);
}

/** Deletes the photo, then (once the public lists have moved on) its pictures unless something else uses them. */
export async function deletePhoto(
  { db, storage, publicCache }: Pick<Deps, 'db' | 'storage' | 'publicCache'>,
  id: number,
): Promise<void> {
  const [photo] = await db.delete(portfolioItems).where(eq(portfolioItems.id, id)).returning({
    imageId: portfolioItems.imageId,
    nextImageId: portfolioItems.nextImageId,
  });
  if (!photo) throw notFound('Photo not found');
  await publicCache.changed();
  await deleteUnusedImages(db, storage, [photo.imageId, photo.nextImageId]);
}
