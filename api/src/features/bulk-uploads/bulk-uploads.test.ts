import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes, randomUUID } from 'node:crypto';
import request from 'supertest';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { programmeEntries, uploadFiles, videos } from '@app/shared/db';
import { uploadBatchSchema, uploadFileSchema, type UploadFile } from '@app/shared/schemas';
import { adminAgent } from '../../../../test/support/app.ts';
import { createShowcase } from '../../../../test/support/factories.ts';
import { TEST_ADMIN_PASSWORD } from '../../../../test/support/test-env.ts';
import { useTestWorld } from '../../../../test/support/world.ts';

const origin = 'http://localhost:3000';
const MB = 1024 * 1024;

/** The path and query of a link on our own api. */
const local = (url: string) => {
  const target = new URL(url);
  expect(target.origin).toBe(origin);
  return `${target.pathname}${target.search}`;
};

describe('bulk uploads against the local driver, through S3 requests', () => {
  const { env, api, agent } = useTestWorld({ admin: true });
  let server: Server;
  let base: string;
  let cookie: string;

  beforeAll(async () => {
    server = createServer(api.app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const login = await fetch(`${base}/api/admin/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: origin },
      body: JSON.stringify({ password: TEST_ADMIN_PASSWORD }),
    });
    expect(login.status).toBe(204);
    cookie = login.headers
      .getSetCookie()
      .map((line) => line.split(';')[0])
      .join('; ');
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  async function showcaseWithEntry() {
    const showcase = await createShowcase(env.database.db);
    const [entry] = await env.database.db
      .insert(programmeEntries)
      .values({
        showcaseId: showcase.id,
        entryNumber: '47',
        entrySort: 47,
        section: 'Junior Solo',
        title: 'Firefly',
      })
      .returning();
    const batch = await agent
      .post(`/api/admin/showcases/${showcase.id}/upload-batches`)
      .set('Origin', origin)
      .send({})
      .expect(201);
    return { showcase, entry: entry!, batch: uploadBatchSchema.parse(batch.body) };
  }

  const register = (batchId: string, body: object) =>
    agent.post(`/api/admin/upload-batches/${batchId}/files`).set('Origin', origin).send(body);
  const sign = async (batchId: string, fileId: string, body: object) =>
    (
      await agent
        .post(`/api/admin/upload-batches/${batchId}/files/${fileId}/sign`)
        .set('Origin', origin)
        .send(body)
        .expect(200)
    ).body.url as string;
  const putPart = (url: string, body: Buffer) =>
    agent.put(local(url)).set('Origin', origin).set('Content-Type', 'video/mp4').send(body).expect(200);
  const listed = async (batchId: string, fileId: string) => {
    const response = await agent
      .get(local(await sign(batchId, fileId, { action: 'list' })))
      .set('Origin', origin)
      .buffer(true)
      .parse((res, done) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () => done(null, text));
      })
      .expect(200);
    return [
      ...(response.body as string).matchAll(/<PartNumber>(\d+)<\/PartNumber><ETag>([^<]+)<\/ETag>/g),
    ].map((match) => ({ partNumber: Number(match[1]), etag: match[2]! }));
  };
  const complete = async (
    batchId: string,
    file: UploadFile,
    parts: Array<{ partNumber: number; etag: string }>,
  ) => {
    const xml = `<CompleteMultipartUpload>${parts.map((p) => `<Part><PartNumber>${p.partNumber}</PartNumber><ETag>${p.etag}</ETag></Part>`).join('')}</CompleteMultipartUpload>`;
    const response = await agent
      .post(local(await sign(batchId, file.id, { action: 'complete' })))
      .set('Origin', origin)
      .set('Content-Type', 'application/xml')
      .send(xml)
      .expect(200);
    expect(response.text).toContain(`<Key>${file.awsKey}</Key>`);
    return response.text;
  };

  /** Sends `sent` bytes of a part of `total` to its link, then drops the connection. */
  function dropMidPart(url: string, total: number, sent: number) {
    const target = new URL(url);
    return new Promise<void>((resolve) => {
      const req = httpRequest(`${base}${target.pathname}${target.search}`, {
        method: 'PUT',
        headers: { 'Content-Type': 'video/mp4', 'Content-Length': total, Origin: origin, Cookie: cookie },
      });
      req.on('error', () => resolve());
      req.write(randomBytes(sent), () => {
        req.destroy();
        resolve();
      });
    });
  }

  it('resumes a file after the connection drops mid-part, from its last whole part, and makes one video', async () => {
    const { entry, batch } = await showcaseWithEntry();
    const size = 2 * 8 * MB + 1000;
    const content = randomBytes(size);
    const first = uploadFileSchema.parse(
      (
        await register(batch.id, {
          fileName: '047 Aroha solo.mp4',
          size,
          contentType: 'video/mp4',
          entryId: entry.id,
          matchedBy: 'number',
        }).expect(200)
      ).body,
    );
    expect(first).toMatchObject({ stage: 'uploading', partSize: 8 * MB, entryId: entry.id });
    const slice = (partNumber: number) =>
      content.subarray((partNumber - 1) * first.partSize, partNumber * first.partSize);

    await putPart(await sign(batch.id, first.id, { action: 'part', partNumber: 1 }), slice(1));
    await dropMidPart(await sign(batch.id, first.id, { action: 'part', partNumber: 2 }), 8 * MB, 3 * MB);

    // The page is reloaded: the same name and size find the same upload, whose parts tell where to go on.
    const again = uploadFileSchema.parse(
      (
        await register(batch.id, { fileName: '047 Aroha solo.mp4', size, contentType: 'video/mp4' }).expect(
          200,
        )
      ).body,
    );
    expect(again).toMatchObject({ id: first.id, uploadId: first.uploadId, awsKey: first.awsKey });
    await expect.poll(() => listed(batch.id, first.id)).toHaveLength(1);
    const [kept] = await listed(batch.id, first.id);
    expect(kept!.partNumber).toBe(1);

    for (const partNumber of [2, 3])
      await putPart(await sign(batch.id, first.id, { action: 'part', partNumber }), slice(partNumber));
    const parts = await listed(batch.id, first.id);
    expect(parts.map((part) => part.partNumber)).toEqual([1, 2, 3]);
    await complete(batch.id, first, parts);
    const stored = await api.deps.storage.get(first.awsKey);
    const chunks: Buffer[] = [];
    for await (const chunk of stored!.body) chunks.push(chunk as Buffer);
    expect(Buffer.compare(Buffer.concat(chunks), content)).toBe(0);

    const uploaded = await agent
      .post(`/api/admin/upload-batches/${batch.id}/files/${first.id}/uploaded`)
      .set('Origin', origin)
      .expect(200);
    expect(uploaded.body).toMatchObject({ stage: 'uploaded', videoId: null, uploadId: null });

    const confirm = () =>
      agent
        .post(`/api/admin/upload-batches/${batch.id}/confirm`)
        .set('Origin', origin)
        .send({ publish: true, priceCents: 1500 })
        .expect(200);
    const confirmed = uploadBatchSchema.parse((await confirm()).body);
    const videoId = confirmed.files[0]!.videoId!;
    const [video] = await env.database.db.select().from(videos).where(eq(videos.id, videoId));
    expect(video).toMatchObject({
      title: 'Item 47: Firefly',
      entryId: entry.id,
      priceCents: 1500,
      published: false,
      processingState: 'queued',
      ownText: false,
    });
    expect(video!.contentHash).toMatch(/^"[0-9a-f]{32}-3"$/);

    // Confirmed again: nothing changes.
    const twice = uploadBatchSchema.parse((await confirm()).body);
    expect(twice.files[0]!.videoId).toBe(videoId);
    expect(await env.database.db.$count(videos)).toBe(1);

    // The same file in another batch: noticed, not a second video, its copy removed from storage.
    const { batch: other } = await showcaseWithEntry();
    const copy = uploadFileSchema.parse(
      (await register(other.id, { fileName: 'C0047.MP4', size, contentType: 'video/mp4' }).expect(200)).body,
    );
    for (const partNumber of [1, 2, 3])
      await putPart(await sign(other.id, copy.id, { action: 'part', partNumber }), slice(partNumber));
    await complete(other.id, copy, await listed(other.id, copy.id));
    await agent
      .post(`/api/admin/upload-batches/${other.id}/confirm`)
      .set('Origin', origin)
      .send({ publish: false, priceCents: 0 })
      .expect(200);
    const duplicate = await agent
      .post(`/api/admin/upload-batches/${other.id}/files/${copy.id}/uploaded`)
      .set('Origin', origin)
      .expect(200);
    expect(duplicate.body).toMatchObject({ stage: 'duplicate', videoId });
    expect(duplicate.body.reason).toMatch(/The same file as the video "Item 47: Firefly"/);
    expect(await env.database.db.$count(videos)).toBe(1);
    expect(await api.deps.storage.head(copy.awsKey)).toBeNull();
  });

  it('finds the same upload for a second tab, and aborts it when the file is removed', async () => {
    const { batch } = await showcaseWithEntry();
    const body = { fileName: 'Item 12 - Kowhai.mov', size: 5_000, contentType: 'video/quicktime' };
    const [one, two] = await Promise.all([
      register(batch.id, body).expect(200),
      register(batch.id, body).expect(200),
    ]);
    expect(two.body.id).toBe(one.body.id);
    expect(two.body.uploadId).toBe(one.body.uploadId);
    expect(await env.database.db.$count(uploadFiles, eq(uploadFiles.batchId, batch.id))).toBe(1);

    await agent
      .delete(`/api/admin/upload-batches/${batch.id}/files/${one.body.id}`)
      .set('Origin', origin)
      .expect(204);
    await expect(api.deps.storage.listParts(one.body.awsKey, one.body.uploadId)).rejects.toThrow(
      /Upload not found/,
    );
    // A link signed before the removal now finds nothing.
    await agent
      .post(`/api/admin/upload-batches/${batch.id}/files/${one.body.id}/sign`)
      .set('Origin', origin)
      .send({ action: 'list' })
      .expect(404);
  });

  it('refuses bad files with a message that says what to do, before anything is stored', async () => {
    const { batch } = await showcaseWithEntry();
    const refused = async (body: object, message: RegExp) => {
      const response = await register(batch.id, {
        fileName: 'a.mp4',
        size: 1_000,
        contentType: 'video/mp4',
        ...body,
      }).expect(400);
      expect(response.body.message).toMatch(message);
    };
    await refused({ size: 0 }, /empty \(0 bytes\)/);
    await refused({ size: 6 * 1024 ** 3 }, /Files up to 5 GB/);
    await refused({ fileName: 'clips/047.mp4' }, /may not contain \/ or \\/);
    await refused({ fileName: '047\u0007.mp4' }, /control characters/);
    await refused({ fileName: `${'a'.repeat(296)}.mp4` }, /at most 255 characters/);
    await refused({ contentType: 'image/jpeg' }, /Only video files/);
    const { entry: elsewhere } = await showcaseWithEntry();
    await refused({ entryId: elsewhere.id }, /not in this showcase's programme/);
    expect(await env.database.db.$count(uploadFiles, eq(uploadFiles.batchId, batch.id))).toBe(0);

    const file = (
      await register(batch.id, { fileName: 'a.mp4', size: 1_000, contentType: 'video/mp4' }).expect(200)
    ).body;
    await agent
      .post(`/api/admin/upload-batches/${batch.id}/files/${file.id}/sign`)
      .set('Origin', origin)
      .send({ action: 'part', partNumber: 2 })
      .expect(400);
    // Completing before every part arrived is refused, and the file stays uploading.
    await agent
      .post(`/api/admin/upload-batches/${batch.id}/files/${file.id}/sign`)
      .set('Origin', origin)
      .send({ action: 'complete' })
      .expect(409, /0 of 1 parts arrived/);
    await agent
      .post(`/api/admin/upload-batches/${batch.id}/files/${file.id}/uploaded`)
      .set('Origin', origin)
      .expect(409);
  });

  it('keeps the entries marked as not filmed with the batch, for a reload or the other laptop', async () => {
    const { showcase, entry, batch } = await showcaseWithEntry();
    const [second] = await env.database.db
      .insert(programmeEntries)
      .values({
        showcaseId: showcase.id,
        entryNumber: '48',
        entrySort: 48,
        section: 'Junior Solo',
        title: 'Ember',
      })
      .returning();
    const path = (entryId: string, batchId = batch.id) =>
      `/api/admin/upload-batches/${batchId}/not-filmed/${entryId}`;
    const mark = (entryId: string) => agent.put(path(entryId)).set('Origin', origin).send({});
    const unmark = (entryId: string) => agent.delete(path(entryId)).set('Origin', origin);
    const marked = async (as = agent) =>
      uploadBatchSchema.parse((await as.get(`/api/admin/upload-batches/${batch.id}`).expect(200)).body)
        .notFilmed;

    expect(await marked()).toEqual([]);
    await mark(second!.id).expect(204);
    await mark(entry.id).expect(204);
    await mark(entry.id).expect(204);
    // In the programme's order, for this browser and another one.
    const otherLaptop = await adminAgent(api.app);
    expect(await marked()).toEqual([entry.id, second!.id]);
    expect(await marked(otherLaptop)).toEqual([entry.id, second!.id]);
    await unmark(entry.id).expect(204);
    await unmark(entry.id).expect(204);
    expect(await marked(otherLaptop)).toEqual([second!.id]);
    // Another batch of the same showcase has marks of its own.
    const another = uploadBatchSchema.parse(
      (
        await agent
          .post(`/api/admin/showcases/${showcase.id}/upload-batches`)
          .set('Origin', origin)
          .send({})
          .expect(201)
      ).body,
    );
    expect(another.notFilmed).toEqual([]);

    const { entry: elsewhere } = await showcaseWithEntry();
    const refused = await mark(elsewhere.id).expect(400);
    expect(refused.body).toMatchObject({ message: "That entry is not in this showcase's programme" });
    await agent.put(path(entry.id, randomUUID())).set('Origin', origin).send({}).expect(404);
    await request(api.app).put(path(entry.id)).set('Origin', origin).send({}).expect(401);
    await request(api.app).delete(path(second!.id)).set('Origin', origin).expect(401);
    expect(await marked()).toEqual([second!.id]);
    // An entry deleted (the programme imported again) takes its mark with it.
    await env.database.db.delete(programmeEntries).where(eq(programmeEntries.id, second!.id));
    expect(await marked()).toEqual([]);
  });

  it('keeps the entry of the first camera-named file with the batch', async () => {
    const { entry, batch } = await showcaseWithEntry();
    const choose = (entryId: unknown, batchId = batch.id) =>
      agent
        .put(`/api/admin/upload-batches/${batchId}/first-entry`)
        .set('Origin', origin)
        .send({ entryId });
    const chosen = async (as = agent) =>
      uploadBatchSchema.parse((await as.get(`/api/admin/upload-batches/${batch.id}`).expect(200)).body)
        .firstEntryId;

    expect(await chosen()).toBeNull();
    await choose(entry.id).expect(204);
    // After a reload, or on the other laptop, the files she adds follow the same order.
    expect(await chosen(await adminAgent(api.app))).toBe(entry.id);

    const { entry: elsewhere } = await showcaseWithEntry();
    const refused = await choose(elsewhere.id).expect(400);
    expect(refused.body).toMatchObject({ message: "That entry is not in this showcase's programme" });
    await choose(42).expect(400);
    await choose(entry.id, randomUUID()).expect(404);
    await request(api.app)
      .put(`/api/admin/upload-batches/${batch.id}/first-entry`)
      .set('Origin', origin)
      .send({ entryId: null })
      .expect(401);
    expect(await chosen()).toBe(entry.id);
    await choose(null).expect(204);
    expect(await chosen()).toBeNull();
    // An entry deleted (the programme imported again) is no longer the first one.
    await choose(entry.id).expect(204);
    await env.database.db.delete(programmeEntries).where(eq(programmeEntries.id, entry.id));
    expect(await chosen()).toBeNull();
  });

  it('refuses a visitor', async () => {
    const { batch } = await showcaseWithEntry();
    await request(api.app).get(`/api/admin/upload-batches/${batch.id}`).expect(401);
    await request(api.app)
      .post(`/api/admin/upload-batches/${batch.id}/files`)
      .set('Origin', origin)
      .send({ fileName: 'a.mp4', size: 1_000, contentType: 'video/mp4' })
      .expect(401);
  });
});
