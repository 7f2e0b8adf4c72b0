import { UnrecoverableError } from 'bullmq';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { images, portfolioItems } from '@app/shared/db';
import { imageKeys } from '@app/shared/storage';
import { processImage, STUCK_IMAGE_MS } from './process-image.ts';
import { useTestWorld } from '../../../test/support/world.ts';
import { drain, startTestWorker } from '../../../test/support/worker.ts';
import { schedulesFor } from '../schedules.ts';

const { env, context } = useTestWorld({ context: true });

async function uploaded(name: string, body: Buffer) {
  const sourceKey = `uploads/${crypto.randomUUID()}-${name}`;
  await context.storage.put(sourceKey, body, 'image/jpeg');
  const [image] = await env.database.db
    .insert(images)
    .values({ sourceKey, purpose: 'portfolio', originalName: name })
    .returning();
  return image!;
}

const exists = async (keys: string[]) =>
  Promise.all(keys.map(async (key) => (await context.storage.head(key)) !== null));

describe('process-image', () => {
  it('makes the master and every variant once; a second run skips and leaves the same state', async () => {
    const jpeg = await sharp({ create: { width: 700, height: 500, channels: 3, background: '#884422' } })
      .jpeg()
      .toBuffer();
    const image = await uploaded('photo.jpg', jpeg);
    expect(await processImage({ imageId: image.id }, context)).toEqual({
      status: 'done',
      width: 700,
      height: 500,
      widths: [320, 480, 640],
    });
    const [after] = await env.database.db.select().from(images).where(eq(images.id, image.id));
    expect(after).toMatchObject({ status: 'ready', width: 700, height: 500, widths: [320, 480, 640] });
    expect(await exists(imageKeys(image.id, [320, 480, 640]))).toEqual(Array(10).fill(true));
    expect(await context.storage.head(image.sourceKey)).toBeNull();

    expect(await processImage({ imageId: image.id }, context)).toBe('skipped');
    const [again] = await env.database.db.select().from(images).where(eq(images.id, image.id));
    expect(again).toEqual(after);
    expect(await exists(imageKeys(image.id, [320, 480, 640]))).toEqual(Array(10).fill(true));
  });

  it('puts a replacement in place of the picture it replaces, and deletes the old files', async () => {
    const picture = (colour: string) =>
      sharp({ create: { width: 400, height: 300, channels: 3, background: colour } })
        .jpeg()
        .toBuffer();
    const old = await uploaded('old.jpg', await picture('#112233'));
    await processImage({ imageId: old.id }, context);
    const next = await uploaded('new.jpg', await picture('#332211'));
    const [photo] = await env.database.db
      .insert(portfolioItems)
      .values({
        imageUrl: `/api/photos/${old.id}`,
        alt: 'x',
        category: 'solo',
        imageId: old.id,
        nextImageId: next.id,
      })
      .returning();
    await processImage({ imageId: next.id }, context);
    const [after] = await env.database.db
      .select()
      .from(portfolioItems)
      .where(eq(portfolioItems.id, photo!.id));
    expect(after).toMatchObject({ imageId: next.id, nextImageId: null, imageUrl: `/api/photos/${next.id}` });
    expect(await env.database.db.$count(images, eq(images.id, old.id))).toBe(0);
    expect(await exists(imageKeys(old.id, [320]))).toEqual([false, false, false, false]);
  });

  it('marks a file it refuses as failed with the reason, and ends unrecoverable', async () => {
    const image = await uploaded('notes.jpg', Buffer.from('not a picture at all'));
    const error = await processImage({ imageId: image.id }, context).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UnrecoverableError);
    const [after] = await env.database.db.select().from(images).where(eq(images.id, image.id));
    expect(after).toMatchObject({ status: 'failed', error: 'This file is not a JPEG, PNG or WebP picture' });
    expect(await context.storage.head(image.sourceKey)).toBeNull();
    expect(await processImage({ imageId: image.id }, context)).toBe('skipped');
  });

  it('queues again the pictures left pending when Redis lost their job, once each', async () => {
    const jpeg = await sharp({ create: { width: 400, height: 300, channels: 3, background: '#223344' } })
      .jpeg()
      .toBuffer();
    const lost = await uploaded('lost.jpg', jpeg);
    const recent = await uploaded('recent.jpg', jpeg);
    await env.database.db
      .update(images)
      .set({ createdAt: new Date(Date.now() - STUCK_IMAGE_MS - 60_000) })
      .where(eq(images.id, lost.id));
    expect(schedulesFor(env.config)).toContainEqual(
      expect.objectContaining({ id: 'process-image-sweep', job: 'process-image', payload: {} }),
    );
    const worker = startTestWorker(env);
    try {
      const queue = worker.producer.queue('process-image');

      // Two sweeps at once: both queue the lost picture, under one job id, so it is processed once.
      await worker.producer.enqueue('process-image', {});
      await worker.producer.enqueue('process-image', {});
      await drain(worker.producer, 'process-image', 30_000);
      const [after] = await env.database.db.select().from(images).where(eq(images.id, lost.id));
      expect(after).toMatchObject({ status: 'ready', width: 400, height: 300 });
      const job = await queue.getJob(`image-${lost.id}`);
      expect(job?.returnvalue).toMatchObject({ status: 'done' });
      expect(job?.attemptsMade).toBe(1);

      // A picture uploaded moments ago may simply be waiting its turn: the sweep leaves it alone.
      expect(await queue.getJob(`image-${recent.id}`)).toBeUndefined();
      const [waiting] = await env.database.db.select().from(images).where(eq(images.id, recent.id));
      expect(waiting).toMatchObject({ status: 'pending' });
    } finally {
      await worker.close();
    }
  });
});
