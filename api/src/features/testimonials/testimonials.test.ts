import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { testimonials } from '@app/shared/db';
import { adminTestimonialSchema, publicTestimonialSchema, deletedSchema } from '@app/shared/schemas';
import { useTestWorld } from '../../../../test/support/world.ts';

const { env, api, agent } = useTestWorld({ admin: true });
const origin = 'http://localhost:3000';

const shown = async () =>
  publicTestimonialSchema
    .strict()
    .array()
    .parse((await request(api.app).get('/api/testimonials').expect(200)).body);

describe('testimonials', () => {
  it('start empty (no invented quotes outside development), and follow the owner: add, edit, reorder, hide, delete', async () => {
    expect(await shown()).toEqual([]);

    const add = async (body: object) =>
      adminTestimonialSchema
        .strict()
        .parse(
          (await agent.post('/api/admin/testimonials').set('Origin', origin).send(body).expect(201)).body,
        );
    const first = await add({ name: 'Aroha T., studio director', quote: 'Beautifully shot.' });
    const second = await add({ name: 'Sam P.', quote: 'So fast!', event: 'Nelson Festival 2026' });
    expect(first).toMatchObject({ event: null, published: true });
    expect(second.position).toBeGreaterThan(first.position);
    expect((await shown()).map((row) => row.name)).toEqual(['Aroha T., studio director', 'Sam P.']);

    const ordered = await agent
      .put('/api/admin/testimonials/order')
      .set('Origin', origin)
      .send({ ids: [second.id, first.id] })
      .expect(200);
    expect(
      adminTestimonialSchema
        .array()
        .parse(ordered.body)
        .map((row) => row.id),
    ).toEqual([second.id, first.id]);
    expect((await shown()).map((row) => row.id)).toEqual([second.id, first.id]);

    const edited = await agent
      .put(`/api/admin/testimonials/${first.id}`)
      .set('Origin', origin)
      .send({ quote: 'Beautifully shot, every time.' })
      .expect(200);
    expect(adminTestimonialSchema.parse(edited.body).quote).toBe('Beautifully shot, every time.');
    await agent
      .put(`/api/admin/testimonials/${second.id}`)
      .set('Origin', origin)
      .send({ published: false })
      .expect(200);
    expect(await shown()).toEqual([
      {
        id: first.id,
        name: 'Aroha T., studio director',
        quote: 'Beautifully shot, every time.',
        event: null,
      },
    ]);
    // The owner still has the hidden one.
    const own = adminTestimonialSchema
      .array()
      .parse((await agent.get('/api/admin/testimonials').expect(200)).body);
    expect(own.map((row) => row.id)).toEqual([second.id, first.id]);

    const deleted = await agent
      .delete(`/api/admin/testimonials/${first.id}`)
      .set('Origin', origin)
      .expect(200);
    expect(deletedSchema.parse(deleted.body)).toEqual({ id: first.id, deleted: true });
    expect(await shown()).toEqual([]);
  });

  it('refuses empty or overlong quotes, bad orders and visitors, changing nothing', async () => {
    const before = await env.database.db.$count(testimonials);
    for (const body of [
      { name: 'A', quote: '' },
      { name: '', quote: 'Lovely' },
      { name: 'A', quote: 'x'.repeat(5_000) },
      { name: 'A', quote: 'Lovely', event: 'e'.repeat(300) },
    ]) {
      const response = await agent
        .post('/api/admin/testimonials')
        .set('Origin', origin)
        .send(body)
        .expect(400);
      expect(response.body).toMatchObject({ message: expect.any(String), issues: expect.any(Array) });
    }
    expect(await env.database.db.$count(testimonials)).toBe(before);

    const [row] = await env.database.db
      .insert(testimonials)
      .values({ name: 'B', quote: 'Great' })
      .returning();
    await agent
      .put(`/api/admin/testimonials/${row!.id}`)
      .set('Origin', origin)
      .send({ quote: '  ' })
      .expect(400);
    await agent.put('/api/admin/testimonials/999999').set('Origin', origin).send({ quote: 'Hi' }).expect(404);
    const notAnId = await agent.delete('/api/admin/testimonials/first').set('Origin', origin).expect(400);
    expect(notAnId.body.message).toContain('Testimonial id must be a number');
    await agent
      .put('/api/admin/testimonials/order')
      .set('Origin', origin)
      .send({ ids: [999999] })
      .expect(409);
    await agent
      .put('/api/admin/testimonials/order')
      .set('Origin', origin)
      .send({ ids: [row!.id, row!.id] })
      .expect(400);
    expect((await shown()).map((quote) => quote.quote)).toEqual(['Great']);

    await request(api.app).get('/api/admin/testimonials').expect(401);
    await request(api.app)
      .post('/api/admin/testimonials')
      .set('Origin', origin)
      .send({ name: 'X', quote: 'Y' })
      .expect(401);
  });
});
