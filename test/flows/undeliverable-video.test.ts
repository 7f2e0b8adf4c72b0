import { readFile } from 'node:fs/promises';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { adminVideoSchema, libraryPageSchema, publicVideoSchema } from '@app/shared/schemas';
import { createShowcase, createVideo } from '../support/factories.ts';
import { makeTestVideo } from '../support/media.ts';
import { drain } from '../support/worker.ts';
import { useTestWorld } from '../support/world.ts';

// Only what can be delivered is sold: a corrupt upload, once the worker has failed it, is neither
// listed nor bought; a paid video still being processed is listed but not sold until it is ready.

const { env, api, agent, worker, stripe } = useTestWorld({ admin: true, worker: true, stripe: true });
const origin = 'http://localhost:3000';
const buyer = { customerName: 'Aroha Smith', customerEmail: 'aroha@example.nz' };
let address = 0;
const from = () => `198.51.100.${++address % 250}`;

const listedIds = async (path: string) => {
  const body = (await request(api.app).get(path).expect(200)).body as unknown;
  const rows = Array.isArray(body) ? body : libraryPageSchema.parse(body).videos;
  return z
    .array(z.object({ id: z.string() }).loose())
    .parse(rows)
    .map((row) => row.id);
};

const adminVideo = async (id: string) =>
  adminVideoSchema
    .array()
    .parse((await agent.get('/api/admin/videos?pageSize=200').expect(200)).body.videos)
    .find((video) => video.id === id)!;

/** Buy Now and the cart both refuse it with a 4xx, and the fake Stripe sees no session. */
async function refusedEverywhere(videoId: string) {
  const sessions = stripe.created.length;
  const buyNow = await request(api.app)
    .post('/api/checkout')
    .set('X-Forwarded-For', from())
    .send({ videoId, ...buyer });
  const cart = await request(api.app)
    .post('/api/cart/checkout')
    .set('X-Forwarded-For', from())
    .send({ ...buyer, items: [{ videoId }] });
  expect(stripe.created.length).toBe(sessions);
  return { buyNow, cart };
}

describe('a corrupt upload', () => {
  it('fails processing with a plain reason, is not listed nor sold, and sells once its file is replaced', async () => {
    const showcase = await createShowcase(env.database.db, { name: 'Corrupt Cup', bundlePriceCents: 500 });
    const awsKey = 'videos/corrupt-routine.mp4';
    await api.deps.storage.put(
      awsKey,
      Buffer.from('\0\0\0\x18ftypmp42 and then nothing useful'),
      'video/mp4',
    );
    const created = await agent
      .post('/api/admin/videos')
      .set('Origin', origin)
      .send({
        title: 'Quokka Corrupt Routine',
        description: 'A file that never finished exporting',
        priceCents: 1500,
        showcaseId: showcase.id,
        awsKey,
      })
      .expect(201);
    const id = adminVideoSchema.parse(created.body).id;
    await drain(worker.producer, 'process-video', 60_000);

    // The owner reads why, in plain words: no temporary path, no ffmpeg message.
    const owned = await adminVideo(id);
    expect(owned.processing.state).toBe('failed');
    expect(owned.processing.error).toMatch(/not a video file that can be played|may be damaged|cut short/);
    expect(owned.processing.error).not.toMatch(/\/|stagelight-video|Invalid data|moov/);

    // Not listed anywhere public.
    for (const path of [
      '/api/videos',
      '/api/videos?q=quokka',
      '/api/library/search?q=quokka',
      `/api/showcases/${showcase.slug}/videos`,
    ])
      expect(await listedIds(path), path).not.toContain(id);
    const library = (await request(api.app).get('/api/library').expect(200)).body as {
      shelves: Array<{ videos: Array<{ id: string }>; videoCount: number }>;
    };
    expect(library.shelves.flatMap((shelf) => shelf.videos.map((video) => video.id))).not.toContain(id);
    // Its page says it is not available.
    const page = publicVideoSchema
      .strict()
      .parse((await request(api.app).get(`/api/videos/${id}`).expect(200)).body);
    expect(page.availability).toBe('unavailable');

    // Not sold: Buy Now, the cart, the cart's check and the showcase's bundle.
    const { buyNow, cart } = await refusedEverywhere(id);
    expect(buyNow.status).toBe(409);
    expect(buyNow.body.message).toBe('This video is not available');
    expect(cart.status).toBe(400);
    expect(cart.body.details.problems).toEqual([expect.objectContaining({ reason: 'unavailable' })]);
    expect((await request(api.app).get(`/api/showcases/${showcase.id}/bundle`).expect(200)).body).toBeNull();

    // She replaces the file from the edit dialog: processed anew, then listed and sold.
    const good = 'videos/corrupt-routine-again.mp4';
    await api.deps.storage.put(
      good,
      await readFile(await makeTestVideo({ seconds: 6, width: 320, height: 180 })),
      'video/mp4',
    );
    await agent.put(`/api/admin/videos/${id}`).set('Origin', origin).send({ awsKey: good }).expect(200);
    await drain(worker.producer, 'process-video', 60_000);
    expect((await adminVideo(id)).processing).toMatchObject({ state: 'ready', error: null });
    expect(await listedIds('/api/videos')).toContain(id);
    const sessions = stripe.created.length;
    await request(api.app)
      .post('/api/checkout')
      .set('X-Forwarded-For', from())
      .send({ videoId: id, ...buyer })
      .expect(201);
    expect(stripe.created.length).toBe(sessions + 1);
  }, 120_000);
});

describe('a paid video still being processed', () => {
  it('is listed as being prepared, and sold only once it is ready', async () => {
    const video = await createVideo(env.database.db, {
      priceCents: 1200,
      title: 'Wallaby Waiting Routine',
      processingState: 'processing',
    });
    const listed = z
      .array(publicVideoSchema.strict())
      .parse((await request(api.app).get('/api/videos').expect(200)).body)
      .find((row) => row.id === video.id);
    expect(listed?.availability).toBe('processing');

    const { buyNow, cart } = await refusedEverywhere(video.id);
    expect(buyNow.status).toBe(409);
    expect(buyNow.body.message).toMatch(/being prepared/);
    expect(cart.status).toBe(409);
    expect(cart.body.details.problems).toEqual([expect.objectContaining({ reason: 'not-ready' })]);
  });
});
