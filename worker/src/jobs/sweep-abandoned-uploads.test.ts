import { Readable } from 'node:stream';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { uploadBatches, uploadFiles } from '@app/shared/db';
import { isLocalStorage } from '@app/shared/storage';
import { createShowcase } from '../../../test/support/factories.ts';
import { useTestWorld } from '../../../test/support/world.ts';
import { schedulesFor } from '../schedules.ts';
import { ABANDONED_AFTER_MS, sweepAbandonedUploads } from './sweep-abandoned-uploads.ts';

const { env, context } = useTestWorld({ context: true });
const MB = 1024 * 1024;

describe('sweep-abandoned-uploads', () => {
  it('aborts uploads untouched for three days, keeps those in progress, and runs twice to the same state', async () => {
    const { db } = env.database;
    const { storage } = context;
    if (!isLocalStorage(storage)) throw new Error('This test runs on local storage');
    const showcase = await createShowcase(db);
    const [batch] = await db.insert(uploadBatches).values({ showcaseId: showcase.id }).returning();
    const file = async (name: string, touched: Date) => {
      const awsKey = `videos/${crypto.randomUUID()}-${name}`;
      const { uploadId } = await storage.createMultipartUpload(awsKey, 'video/mp4', 8 * MB);
      await storage.putPart(awsKey, uploadId, 1, Readable.from([Buffer.from('first part')]));
      const [row] = await db
        .insert(uploadFiles)
        .values({
          batchId: batch!.id,
          fileName: name,
          size: 20 * MB,
          contentType: 'video/mp4',
          awsKey,
          uploadId,
          partSize: 8 * MB,
          updatedAt: touched,
        })
        .returning();
      return row!;
    };
    const left = await file('047.mp4', new Date(Date.now() - ABANDONED_AFTER_MS - 60_000));
    const going = await file('048.mp4', new Date(Date.now() - 3600_000));

    const run = () => sweepAbandonedUploads({}, context);
    expect(await run()).toMatchObject({ status: 'done', aborted: 1, arrived: 0 });
    await expect(storage.listParts(left.awsKey, left.uploadId!)).rejects.toThrow(/Upload not found/);
    expect(await storage.listParts(going.awsKey, going.uploadId!)).toHaveLength(1);
    const [swept] = await db.select().from(uploadFiles).where(eq(uploadFiles.id, left.id));
    expect(swept).toMatchObject({ state: 'failed', uploadId: null });
    expect(swept!.error).toMatch(/left unfinished for three days.*retry/);
    const [kept] = await db.select().from(uploadFiles).where(eq(uploadFiles.id, going.id));
    expect(kept).toMatchObject({ state: 'uploading', uploadId: going.uploadId });

    expect(await run()).toBe('skipped');
  });

  it('runs hourly', () => {
    expect(schedulesFor(env.config)).toContainEqual(
      expect.objectContaining({
        id: 'sweep-abandoned-uploads',
        job: 'sweep-abandoned-uploads',
        every: 3600_000,
      }),
    );
  });
});
