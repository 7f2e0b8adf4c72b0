import { eq } from 'drizzle-orm';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { contacts, sales, videos } from '@app/shared/db';
import {
  adminContactListSchema,
  adminContactSchema,
  adminEventListSchema,
  adminEventSchema,
  adminVideoListSchema,
  adminVideoSchema,
  deletedSchema,
  showcaseSchema,
  singleUploadTargetSchema,
} from '@app/shared/schemas';
import { verifyPassword } from '@app/shared/password';
import { createShowcase, createVideo } from '../../../../test/support/factories.ts';
import { useTestWorld } from '../../../../test/support/world.ts';

const { env, api, agent } = useTestWorld({ admin: true });
const origin = 'http://localhost:3000';

const event = {
  title: 'Nelson Dance Festival',
  description: 'All sections',
  date: '2027-04-10',
  location: 'Nelson',
  eventType: 'competition',
  jotformUrl: '',
  imageUrl: '/api/images/attached_assets/event-01.jpg',
};

describe('admin events', () => {
  it('creates, updates and deletes, storing an empty booking link as null', async () => {
    const created = await agent.post('/api/admin/events').set('Origin', origin).send(event).expect(201);
    const { id, ...saved } = adminEventSchema.strict().parse(created.body);
    expect(saved).toMatchObject({ ...event, jotformUrl: null, date: '2027-04-10' });

    const updated = await agent
      .put(`/api/admin/events/${id}`)
      .set('Origin', origin)
      .send({ ...event, location: 'Nelson School of Music', jotformUrl: 'https://form.example/nelson' })
      .expect(200);
    expect(adminEventSchema.strict().parse(updated.body)).toMatchObject({
      location: 'Nelson School of Music',
      jotformUrl: 'https://form.example/nelson',
    });

    const listed = await agent.get('/api/admin/events?when=upcoming').expect(200);
    expect(adminEventListSchema.parse(listed.body).events.find((row) => row.id === id)).toMatchObject({
      title: event.title,
    });

    const deleted = await agent.delete(`/api/admin/events/${id}`).set('Origin', origin).expect(200);
    expect(deletedSchema.parse(deleted.body)).toEqual({ id, deleted: true });
    await agent.delete(`/api/admin/events/${id}`).set('Origin', origin).expect(404);
  });

  it('refuses bad input and visitors', async () => {
    const bad = await agent
      .post('/api/admin/events')
      .set('Origin', origin)
      .send({ ...event, date: 'someday' })
      .expect(400);
    expect(bad.body.issues).toEqual([
      expect.objectContaining({ path: 'date', message: 'Please enter a valid date' }),
    ]);
    await agent
      .post('/api/admin/events')
      .set('Origin', origin)
      .send({ ...event, jotformUrl: 'javascript:alert(1)' })
      .expect(400);
    await agent.put('/api/admin/events/abc').set('Origin', origin).send(event).expect(400);
    await request(api.app).post('/api/admin/events').set('Origin', origin).send(event).expect(401);
    await agent.post('/api/admin/events').set('Origin', 'https://evil.example').send(event).expect(403);
  });
});

describe('admin videos and showcases', () => {
  it('stores a video password hashed, keeps it on edit unless replaced, and clears it when protection is off', async () => {
    const body = {
      title: 'Recital',
      description: 'Full recital',
      tags: ['ballet'],
      showcaseId: null,
      priceCents: 1500,
      awsKey: 'videos/recital.mp4',
      previewUrl: null,
      passwordProtected: true,
      password: 'plié',
    };
    await api.deps.storage.put(body.awsKey, Buffer.from('recital'), 'video/mp4');
    const created = await agent.post('/api/admin/videos').set('Origin', origin).send(body).expect(201);
    expect(JSON.stringify(created.body)).not.toMatch(/plié|passwordHash|scrypt/);
    const { id } = adminVideoSchema.strict().parse(created.body);
    const stored = async () => (await env.database.db.select().from(videos).where(eq(videos.id, id)))[0]!;
    expect(await verifyPassword('plié', (await stored()).passwordHash!)).toBe(true);

    await agent
      .put(`/api/admin/videos/${id}`)
      .set('Origin', origin)
      .send({ title: 'Recital 2027', password: null })
      .expect(200);
    expect(await verifyPassword('plié', (await stored()).passwordHash!)).toBe(true);
    await agent
      .put(`/api/admin/videos/${id}`)
      .set('Origin', origin)
      .send({ password: 'arabesque' })
      .expect(200);
    expect(await verifyPassword('arabesque', (await stored()).passwordHash!)).toBe(true);
    await agent
      .put(`/api/admin/videos/${id}`)
      .set('Origin', origin)
      .send({ passwordProtected: false })
      .expect(200);
    expect((await stored()).passwordHash).toBeNull();
    await agent
      .put(`/api/admin/videos/${id}`)
      .set('Origin', origin)
      .send({ passwordProtected: true })
      .expect(400);

    await agent
      .post('/api/admin/videos')
      .set('Origin', origin)
      .send({ ...body, password: null })
      .expect(400);
    await agent
      .post('/api/admin/videos')
      .set('Origin', origin)
      .send({ ...body, priceCents: -1 })
      .expect(400);
  });

  it('creates showcases and saves an order change alone', async () => {
    const created = await agent
      .post('/api/admin/showcases')
      .set('Origin', origin)
      .send({ name: 'Spring', description: 'Spring shows', orderPriority: 3 })
      .expect(201);
    const showcase = showcaseSchema.strict().parse(created.body);
    const patched = await agent
      .patch(`/api/admin/showcases/${showcase.id}`)
      .set('Origin', origin)
      .send({ orderPriority: 0 })
      .expect(200);
    expect(showcaseSchema.strict().parse(patched.body)).toMatchObject({
      name: 'Spring',
      description: 'Spring shows',
      orderPriority: 0,
    });
    const renamed = await agent
      .patch(`/api/admin/showcases/${showcase.id}`)
      .set('Origin', origin)
      .send({ name: 'Spring Shows' })
      .expect(200);
    expect(showcaseSchema.parse(renamed.body)).toMatchObject({ name: 'Spring Shows', orderPriority: 0 });
    await agent
      .patch(`/api/admin/showcases/${showcase.id}`)
      .set('Origin', origin)
      .send({ orderPriority: 7 })
      .expect(200);
    const described = await agent
      .patch(`/api/admin/showcases/${showcase.id}`)
      .set('Origin', origin)
      .send({ description: 'All spring shows' })
      .expect(200);
    expect(showcaseSchema.parse(described.body).orderPriority).toBe(7);
    await agent
      .patch(`/api/admin/showcases/${showcase.id}`)
      .set('Origin', origin)
      .send({ orderPriority: -1 })
      .expect(400);
    await agent
      .patch('/api/admin/showcases/missing')
      .set('Origin', origin)
      .send({ orderPriority: 1 })
      .expect(404);
  });

  it('uploads a file straight to storage through a signed link', async () => {
    const body = singleUploadTargetSchema.parse(
      (
        await agent
          .post('/api/admin/videos/upload-url')
          .set('Origin', origin)
          .send({ fileName: '../Solo Final.mp4', contentType: 'video/mp4' })
          .expect(200)
      ).body,
    );
    expect(body.awsKey).toMatch(/^videos\/[0-9a-f-]{36}-Solo-Final\.mp4$/);
    const target = new URL(body.uploadUrl);
    await agent
      .put(`${target.pathname}${target.search}`)
      .set('Origin', origin)
      .set('Content-Type', 'video/mp4')
      .send(Buffer.from('frames'))
      .expect(201);
    const stored = await api.deps.storage.get(body.awsKey);
    expect(stored?.size).toBe(6);
    await agent
      .put(`${target.pathname}${target.search}`)
      .set('Origin', origin)
      .set('Content-Type', 'text/html')
      .send('<script>')
      .expect(403);
    await agent
      .post('/api/admin/videos/upload-url')
      .set('Origin', origin)
      .send({ fileName: 'x.exe', contentType: 'application/x-msdownload' })
      .expect(400);
  });
});

describe('admin contacts', () => {
  it('lists every enquiry newest first, for the owner only', async () => {
    const at = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000);
    const base = { lastName: 'Ngata', email: 'a@example.nz', eventType: 'recital', message: 'Hello' };
    await env.database.db.insert(contacts).values([
      { ...base, firstName: 'Older', createdAt: at(30) },
      { ...base, firstName: 'Newest', createdAt: at(1), message: '' },
      { ...base, firstName: 'Middle', createdAt: at(10) },
    ]);
    const { body } = await agent.get('/api/admin/contacts').expect(200).expect('Cache-Control', 'no-store');
    const listed = adminContactSchema
      .strict()
      .array()
      .parse(adminContactListSchema.strict().parse(body).contacts);
    expect(listed.map((contact) => contact.firstName).slice(0, 3)).toEqual(['Newest', 'Middle', 'Older']);
    await request(api.app).get('/api/admin/contacts').expect(401);
  });
});

describe('admin answers', () => {
  it('have the shapes of the shared schemas, and a video never shows its password or hash', async () => {
    const showcase = await createShowcase(env.database.db);
    await api.deps.storage.put('videos/shapes.mp4', Buffer.from('shapes'), 'video/mp4');
    const created = await agent
      .post('/api/admin/videos')
      .set('Origin', origin)
      .send({
        title: 'Shapes',
        description: 'd',
        awsKey: 'videos/shapes.mp4',
        showcaseId: showcase.id,
        passwordProtected: true,
        password: 'secret-word',
      })
      .expect(201);
    // strict(): an extra field such as passwordHash fails the parse.
    const video = adminVideoSchema.strict().parse(created.body);
    expect(video).toMatchObject({ views: 0, downloads: 0, priceCents: 0, tags: [], showcaseId: showcase.id });
    const edited = await agent
      .put(`/api/admin/videos/${video.id}`)
      .set('Origin', origin)
      .send({ priceCents: 250 })
      .expect(200);
    expect(adminVideoSchema.strict().parse(edited.body).priceCents).toBe(250);

    await env.database.db.update(videos).set({ views: 7, downloads: 2 }).where(eq(videos.id, video.id));
    const list = await agent.get('/api/admin/videos').expect(200);
    const listed = adminVideoSchema
      .strict()
      .array()
      .parse(adminVideoListSchema.strict().parse(list.body).videos);
    expect(listed.find((row) => row.id === video.id)).toMatchObject({ views: 7, downloads: 2 });
    expect(JSON.stringify(list.body)).not.toMatch(/secret-word|passwordHash|scrypt\$/);

    const event = await agent
      .post('/api/admin/events')
      .set('Origin', origin)
      .send({ title: 'T', description: 'D', date: '2027-01-31', location: 'L', imageUrl: '/i.jpg' })
      .expect(201);
    expect(adminEventSchema.strict().parse(event.body)).toMatchObject({
      eventType: 'competition',
      jotformUrl: null,
    });
    const showcaseBody = await agent
      .post('/api/admin/showcases')
      .set('Origin', origin)
      .send({ name: 'N', description: 'D' })
      .expect(201);
    expect(showcaseSchema.strict().parse(showcaseBody.body).orderPriority).toBe(0);
  });

  it('answer 404 JSON for records that do not exist', async () => {
    const event = { title: 'T', description: 'D', date: '2027-01-31', location: 'L', imageUrl: '/i.jpg' };
    const missingEvent = await agent
      .put('/api/admin/events/999999')
      .set('Origin', origin)
      .send(event)
      .expect(404);
    expect(missingEvent.body).toEqual({ message: 'Event not found', code: 'not_found' });
    await agent
      .delete('/api/admin/events/999999')
      .set('Origin', origin)
      .expect(404, { message: 'Event not found', code: 'not_found' });
    await agent
      .put('/api/admin/videos/00000000-0000-0000-0000-000000000000')
      .set('Origin', origin)
      .send({ title: 'x' })
      .expect(404, { message: 'Video not found', code: 'not_found' });
    await agent
      .delete('/api/admin/videos/no-such-video')
      .set('Origin', origin)
      .expect(404, { message: 'Video not found', code: 'not_found' });
  });

  it('answer 400 with the field and its message, and write nothing', async () => {
    const before = await env.database.db.$count(videos);
    const video = { title: 'Bad', description: 'd', awsKey: 'videos/bad.mp4' };
    const cases: Array<[object, string, string]> = [
      [{ ...video, priceCents: -5 }, 'priceCents', 'Price must be 0 or more'],
      [{ ...video, title: '' }, 'title', 'Title is required'],
      [{ ...video, showcaseId: 'no-such-showcase' }, 'showcaseId', 'That showcase does not exist'],
      [{ ...video, passwordProtected: true }, 'password', 'A password is required for a protected video'],
      [{ ...video, awsKey: undefined }, 'awsKey', 'Storage key is required'],
    ];
    for (const [body, path, message] of cases) {
      const response = await agent.post('/api/admin/videos').set('Origin', origin).send(body).expect(400);
      expect(response.body, path).toEqual({
        message: expect.stringContaining(message),
        code: 'invalid_input',
        issues: [{ path, message }],
      });
    }
    const existing = await createVideo(env.database.db);
    const edit = await agent
      .put(`/api/admin/videos/${existing.id}`)
      .set('Origin', origin)
      .send({ showcaseId: 'no-such-showcase' })
      .expect(400);
    expect(edit.body.issues).toEqual([{ path: 'showcaseId', message: 'That showcase does not exist' }]);
    expect(await env.database.db.$count(videos)).toBe(before + 1);

    const showcase = await agent
      .post('/api/admin/showcases')
      .set('Origin', origin)
      .send({ name: '', description: 'D', orderPriority: 1.5 })
      .expect(400);
    expect(showcase.body.issues.map((issue: { path: string }) => issue.path).sort()).toEqual([
      'name',
      'orderPriority',
    ]);
    await agent
      .patch(`/api/admin/showcases/${(await createShowcase(env.database.db)).id}`)
      .set('Origin', origin)
      .send({})
      .expect(400);

    // An event's picture is an http(s) link or a path of this site, never script or another origin.
    const event = { title: 'T', description: 'D', date: '2027-01-31', location: 'L' };
    for (const imageUrl of [
      'javascript:alert(document.cookie)',
      ' JavaScript:alert(1)',
      'data:image/svg+xml,<svg onload=alert(1)>',
      '//evil.example/x.jpg',
      '/api/images/../../etc/passwd',
      'vbscript:msgbox(1)',
    ]) {
      const refused = await agent
        .post('/api/admin/events')
        .set('Origin', origin)
        .send({ ...event, imageUrl })
        .expect(400);
      expect(refused.body.issues, imageUrl).toEqual([
        {
          path: 'imageUrl',
          message: 'Image must be an http(s) link or a picture of this site (a path starting with /)',
        },
      ]);
    }
    for (const imageUrl of [
      'https://cdn.example.nz/e.jpg',
      '/api/photos/abc',
      '/api/images/attached_assets/event-01.jpg',
    ])
      await agent
        .post('/api/admin/events')
        .set('Origin', origin)
        .send({ ...event, imageUrl })
        .expect(201);
  });

  it('will not delete a video that has a sale, even without a purchase row', async () => {
    const video = await createVideo(env.database.db, { priceCents: 500 });
    await env.database.db.insert(sales).values({
      videoId: video.id,
      amountCents: 500,
      currency: 'nzd',
      customerEmail: 'b@example.nz',
      transactionId: `offline_${video.id}`,
    });
    const response = await agent.delete(`/api/admin/videos/${video.id}`).set('Origin', origin).expect(409);
    expect(response.body).toEqual({
      message:
        'This video has been sold, so it cannot be deleted: its buyers keep their downloads. Hide it instead to take it off the site.',
      code: 'conflict',
    });
    expect(await env.database.db.$count(videos, eq(videos.id, video.id))).toBe(1);
  });
});
