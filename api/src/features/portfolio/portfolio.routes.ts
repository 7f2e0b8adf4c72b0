import { Router, type Router as ExpressRouter } from 'express';
import { and, asc, desc, eq, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { z, ZodError } from 'zod';
import { images, portfolioItems } from '@app/shared/db';
import { hasAvifVariant, photoUrl } from '@app/shared/images';
import {
  ALT_REQUIRED_MESSAGE,
  createImageRequestSchema,
  createPortfolioPhotoSchema,
  imageUploadUrlRequestSchema,
  replacePortfolioPhotoSchema,
  updatePortfolioPhotoSchema,
  type AdminImage,
  type AdminPortfolioPhoto,
} from '@app/shared/schemas';
import { variantKey, type VariantFormat } from '@app/shared/storage';
import { deleteUnusedImages } from '@app/shared/uploaded-images';
import type { Deps } from '../../deps.ts';
import { notFound } from '../../http/errors.ts';
import { planUpload } from '../admin-content/uploads.service.ts';
import { negotiate, variantQuerySchema } from '../images/images.routes.ts';
import { recordUpload } from './portfolio.service.ts';

const photoIdSchema = z.coerce
  .number({ error: 'Photo id must be a number' })
  .int()
  .positive()
  .max(2_147_483_647);
const imageIdSchema = z.uuid({ error: 'Not an image id' });

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
const selectPhotos = (db: Deps['db']) =>
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

const formatOf: Record<ReturnType<typeof negotiate>, VariantFormat> = {
  avif: 'avif',
  webp: 'webp',
  original: 'jpeg',
};

/** Uploaded pictures, public: `/api/photos/<id>?w=` in the width and format the browser takes. */
export function photoRoutes({ db, storage, publicCache }: Deps): ExpressRouter {
  const router = Router();
  router.get('/api/photos/:id', async (req, res) => {
    const parsedId = imageIdSchema.safeParse(req.params.id);
    if (!parsedId.success) throw notFound('Image not found');
    const { w } = variantQuerySchema.parse(req.query);
    const image = await publicCache.value(`photo:${parsedId.data}`, async () => {
      const [row] = await db
        .select({ id: images.id, widths: images.widths, width: images.width, height: images.height })
        .from(images)
        .where(and(eq(images.id, parsedId.data), eq(images.status, 'ready')));
      return row;
    });
    if (!image?.widths?.length) throw notFound('Image not found');
    // The asked width, or the next one made (a picture narrower than it was never enlarged).
    const width = image.widths.find((made) => made >= (w ?? Infinity)) ?? image.widths.at(-1)!;
    let format = formatOf[negotiate(req.get('accept'))];
    // The widest variants of a tall picture are not made in AVIF (MAX_AVIF_PIXELS): WebP instead.
    if (format === 'avif' && !hasAvifVariant(width, image.width!, image.height!)) format = 'webp';
    const object = await storage.get(variantKey(image.id, width, format));
    if (!object) throw notFound('Image not found');
    res.set({
      'Content-Type': object.contentType,
      'Content-Length': String(object.size),
      // A picture never changes under its id: a replacement is a new image.
      'Cache-Control': 'public, max-age=31536000, immutable',
      Vary: 'Accept',
    });
    object.body.pipe(res);
  });
  return router;
}

/** The owner's portfolio (/admin/portfolio) and uploaded pictures (the image picker). */
export function registerPortfolioRoutes(admin: ExpressRouter, deps: Deps): void {
  const { db, storage, publicCache } = deps;

  async function findPhoto(id: number): Promise<AdminPortfolioPhoto> {
    const [row] = await selectPhotos(db).where(eq(portfolioItems.id, id));
    if (!row) throw notFound('Photo not found');
    return toAdminPhoto(row);
  }

  // Pictures go to `uploads/`, which no route serves: the camera's metadata is public only once stripped.
  admin.post('/api/admin/images/upload-url', async (req, res) => {
    const request = imageUploadUrlRequestSchema.parse(req.body ?? {});
    const target = await planUpload(storage, request, 'uploads');
    res.set('Cache-Control', 'no-store').json(target);
  });

  admin.post('/api/admin/images', async (req, res) => {
    const input = createImageRequestSchema.parse(req.body ?? {});
    const image = await recordUpload(deps, input);
    res.status(201).json(await findImage(image.id));
  });

  async function findImage(id: string): Promise<AdminImage> {
    // Not an id at all is as unknown as an id that is not there.
    if (!imageIdSchema.safeParse(id).success) throw notFound('Image not found');
    const [image] = await listImages(eq(images.id, id));
    if (!image) throw notFound('Image not found');
    return image;
  }

  async function listImages(where?: SQL): Promise<AdminImage[]> {
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
      .where(where)
      .orderBy(desc(images.createdAt));
    return rows.map((row) => ({
      ...row,
      purpose: row.purpose as AdminImage['purpose'],
      status: row.status as AdminImage['status'],
      url: photoUrl(row.id),
      createdAt: row.createdAt.toISOString(),
    }));
  }

  /** Every picture the picker can offer: uploaded and processed ones, portfolio photos among them. */
  admin.get('/api/admin/images', async (_req, res) => {
    res.set('Cache-Control', 'no-store').json(await listImages(eq(images.status, 'ready')));
  });

  admin.get('/api/admin/images/:id', async (req, res) => {
    res.set('Cache-Control', 'no-store').json(await findImage(req.params.id));
  });

  admin.get('/api/admin/portfolio', async (_req, res) => {
    const rows = await selectPhotos(db).orderBy(
      asc(portfolioItems.category),
      asc(portfolioItems.position),
      asc(portfolioItems.id),
    );
    res.set('Cache-Control', 'no-store').json(rows.map(toAdminPhoto));
  });

  admin.post('/api/admin/portfolio', async (req, res) => {
    const { awsKey, originalName, ...photo } = createPortfolioPhotoSchema.parse(req.body ?? {});
    const image = await recordUpload(deps, { awsKey, originalName, purpose: 'portfolio' });
    // New photos go to the end of their category, unpublished until the owner has written alt text.
    const [created] = await db
      .insert(portfolioItems)
      .values({
        ...photo,
        imageId: image.id,
        imageUrl: photoUrl(image.id),
        published: false,
        position: sql`(select coalesce(max(position) + 1, 0) from ${portfolioItems} where category = ${photo.category})`,
      })
      .returning({ id: portfolioItems.id });
    await publicCache.changed();
    res.status(201).json(await findPhoto(created!.id));
  });

  admin.patch('/api/admin/portfolio/:id', async (req, res) => {
    const id = photoIdSchema.parse(req.params.id);
    const changes = updatePortfolioPhotoSchema.parse(req.body ?? {});
    const current = await findPhoto(id);
    const alt = changes.alt ?? current.alt;
    const published = changes.published ?? current.published;
    if (published && alt === '')
      throw new ZodError([{ code: 'custom', path: ['alt'], message: ALT_REQUIRED_MESSAGE, input: alt }]);
    await db
      .update(portfolioItems)
      .set({ ...changes, updatedAt: new Date() })
      .where(eq(portfolioItems.id, id));
    await publicCache.changed();
    res.json(await findPhoto(id));
  });

  // The new picture is processed first; the photo keeps showing the old one until it is ready.
  admin.post('/api/admin/portfolio/:id/replace', async (req, res) => {
    const id = photoIdSchema.parse(req.params.id);
    const upload = replacePortfolioPhotoSchema.parse(req.body ?? {});
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
    res.json(await findPhoto(id));
  });

  admin.delete('/api/admin/portfolio/:id', async (req, res) => {
    const id = photoIdSchema.parse(req.params.id);
    const [photo] = await db.delete(portfolioItems).where(eq(portfolioItems.id, id)).returning({
      id: portfolioItems.id,
      imageId: portfolioItems.imageId,
      nextImageId: portfolioItems.nextImageId,
    });
    if (!photo) throw notFound('Photo not found');
    await publicCache.changed();
    await deleteUnusedImages(db, storage, [photo.imageId, photo.nextImageId]);
    res.json({ id: photo.id, deleted: true });
  });
}
