import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { adminImageSchema } from '@app/shared/schemas';
import { drain } from '../../../../test/support/worker.ts';
import { useTestWorld } from '../../../../test/support/world.ts';

const origin = 'http://localhost:3000';

const { api, worker, agent } = useTestWorld({ admin: true, worker: true });

/** A picture the owner uploaded (as the image picker records one), once process-image has made it. */
async function processedPicture(width: number, height: number) {
  const picture = await sharp({ create: { width, height, channels: 3, background: '#2040a0' } })
    .jpeg()
    .toBuffer();
  const awsKey = `uploads/${randomUUID()}-tall.jpg`;
  await api.deps.storage.put(awsKey, picture, 'image/jpeg');
  const created = await agent
    .post('/api/admin/images')
    .set('Origin', origin)
    .send({ awsKey, originalName: 'tall.jpg', purpose: 'event' })
    .expect(201);
  await drain(worker.producer, 'process-image', 60_000);
  const { id } = adminImageSchema.parse(created.body);
  return adminImageSchema.parse((await agent.get(`/api/admin/images/${id}`).expect(200)).body);
}

describe('GET /api/photos/{id}', () => {
  it('serves WebP to AVIF-taking browsers at the widths of a tall picture not made in AVIF', async () => {
    const ready = await processedPicture(1300, 2000);
    expect(ready).toMatchObject({ width: 1300, height: 2000, status: 'ready' });
    const served = async (width: number) =>
      (await request(api.app).get(`${ready.url}?w=${width}`).set('Accept', 'image/avif,image/webp')).headers[
        'content-type'
      ];
    // 960 x 1477 is made in AVIF; 1280 x 1969 is over MAX_AVIF_PIXELS.
    expect(await served(960)).toBe('image/avif');
    expect(await served(1280)).toBe('image/webp');
  });

  it('answers 404 to what is not an image id', async () => {
    await request(api.app).get('/api/photos/not-an-id?w=640').expect(404);
  });
});
