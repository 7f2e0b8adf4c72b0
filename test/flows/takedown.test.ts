import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { hashSecret, newSecret } from '@app/shared/buyer-library';
import { buyerSessions, programmeDancers, removalRequests, videos } from '@app/shared/db';
import {
  ACCESS_CODE_REQUIRED,
  adminRemovalRequestSchema,
  auditEntrySchema,
  buyerLibrarySchema,
  libraryPageSchema,
  publicVideoSchema,
  REMOVAL_REQUEST_RECEIVED,
  VIDEO_WITHDRAWN,
} from '@app/shared/schemas';
import { createPurchase, createShowcase, createVideo } from '../support/factories.ts';
import { testJpeg } from '../support/media.ts';
import { useTestWorld } from '../support/world.ts';
import { encryptAccessCode } from '../../api/src/features/privacy/showcase-access.ts';
import { importProgramme } from '../../api/src/features/programmes/programme-import.ts';
import { programmeCsv } from '../../scripts/seed/programme.ts';

// A takedown (issue 28): a parent asks from the video's page, the owner is told (the worker's mail job is
// queued), and one click hides the routine from every public surface within a minute, while its buyers
// see "withdrawn" instead of a player. The audit log holds it.

// Behind a trusted proxy, so the flood test can be an address of its own.
const { env, api, agent } = useTestWorld({ admin: true, env: { TRUST_PROXY: 'loopback' } });

const word = `tk${randomUUID().slice(0, 6)}`;
const buyerEmail = `whanau-${word}@example.nz`;
let video: Awaited<ReturnType<typeof createVideo>>;
let sessionId: string;
let buyerCookie: string;
let clip: string;
let poster: string;

beforeAll(async () => {
  const { db } = env.database;
  const showcase = await createShowcase(db, { slug: `nationals-${word}`, showVideosInSearchEngines: true });
  const clipKey = `clips/${randomUUID().replaceAll('-', '').slice(0, 24)}.mp4`;
  const posterKey = `previews/posters/${randomUUID().replaceAll('-', '').slice(0, 24)}.jpg`;
  await api.deps.storage.put(clipKey, Buffer.from('clip bytes'), 'video/mp4');
  await api.deps.storage.put(posterKey, await testJpeg(), 'image/jpeg');
  const awsKey = `videos/${randomUUID()}.mp4`;
  await api.deps.storage.put(awsKey, Buffer.from('video bytes'), 'video/mp4');
  video = await createVideo(db, {
    title: `Senior Contemporary ${word}`,
    showcaseId: showcase.id,
    priceCents: 2500,
    awsKey,
    media: { clipKey, posterKey } as never,
  });
  clip = `/api/video-clips/${encodeURIComponent(clipKey)}`;
  poster = `/api/video-preview/${encodeURIComponent(posterKey)}`;
  sessionId = `cs_test_${randomUUID()}`;
  await createPurchase(db, {
    videoId: video.id,
    checkoutSessionId: sessionId,
    buyerName: 'Whānau',
    buyerEmail,
    amountCents: 2500,
    currency: 'nzd',
    status: 'paid',
  });
  const secret = newSecret();
  await db.insert(buyerSessions).values({
    idHash: hashSecret(secret),
    email: buyerEmail,
    expiresAt: new Date(Date.now() + 3600_000),
  });
  buyerCookie = `buyer_sid=${secret}`;
});

/** Every public surface the routine shows on: true where it is still there. */
async function publicSurfaces() {
  const list = publicVideoSchema.array().parse((await request(api.app).get('/api/videos').expect(200)).body);
  const search = libraryPageSchema.parse(
    (await request(api.app).get(`/api/library/search?q=${word}`).expect(200)).body,
  );
  const showcase = libraryPageSchema.parse(
    (await request(api.app).get(`/api/showcases/nationals-${word}/videos`).expect(200)).body,
  );
  const page = await request(api.app).get(`/video/${video.id}/purchase`);
  const searchHtml = await request(api.app).get(`/videos?q=${word}`);
  const sitemap = await request(api.app).get('/sitemaps/videos-1.xml');
  return {
    list: list.some((item) => item.id === video.id),
    search: search.videos.some((item) => item.id === video.id),
    showcase: showcase.videos.some((item) => item.id === video.id),
    detail: (await request(api.app).get(`/api/videos/${video.id}`)).status === 200,
    page: page.text.includes(video.title),
    searchPage: searchHtml.text.includes(video.title),
    clip: (await request(api.app).get(clip)).status === 200,
    poster: (await request(api.app).get(poster)).status === 200,
    sitemap: sitemap.status === 200 && sitemap.text.includes(video.id),
    stream: (await request(api.app).post(`/api/video-stream/${video.id}`).send({})).status !== 404,
  };
}

describe('a takedown request', () => {
  let requestId: string;

  it('is taken from the video page, queued for the owner’s e-mail and listed for her', async () => {
    // Read first, so every list is kept in memory: the hide must make them forget it.
    expect(Object.values(await publicSurfaces()).every(Boolean)).toBe(true);

    const asked = await request(api.app)
      .post(`/api/videos/${video.id}/removal-request`)
      .send({
        requester: 'parent',
        reason: 'My daughter is in this group and we did not agree.',
        email: 'parent@example.nz',
      })
      .expect(202);
    expect(asked.body).toEqual({ message: REMOVAL_REQUEST_RECEIVED });
    const bad = await request(api.app)
      .post(`/api/videos/${video.id}/removal-request`)
      .send({ requester: 'neighbour', reason: '', email: 'nope' })
      .expect(400);
    expect(bad.body.issues.map((issue: { path: string }) => issue.path).sort()).toEqual([
      'email',
      'reason',
      'requester',
    ]);

    const queued = await api.deps.producer
      .queue('removal-request-notification')
      .getJobs(['delayed', 'waiting']);
    expect(queued).toHaveLength(1);

    const list = adminRemovalRequestSchema
      .array()
      .parse((await agent.get('/api/admin/removal-requests').expect(200)).body);
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({
      videoId: video.id,
      videoTitle: video.title,
      videoWithdrawn: false,
      paidPurchases: 1,
      requester: 'parent',
      status: 'open',
    });
    requestId = list[0]!.id;
    // Visitors cannot read the queue.
    await request(api.app).get('/api/admin/removal-requests').expect(401);
  });

  it('hides the routine from every public surface at the owner’s click, and its buyers see "withdrawn"', async () => {
    const clicked = Date.now();
    await agent.post(`/api/admin/videos/${video.id}/withdraw`).send({ requestId }).expect(200);

    const surfaces = await publicSurfaces();
    expect(surfaces).toEqual({
      list: false,
      search: false,
      showcase: false,
      detail: false,
      page: false,
      searchPage: false,
      clip: false,
      poster: false,
      sitemap: false,
      stream: false,
    });
    expect(Date.now() - clicked).toBeLessThan(60_000);

    // The buyer's download page and library: the notice, no download.
    const detail = await request(api.app).get(`/api/videos/${video.id}?session_id=${sessionId}`).expect(410);
    expect(detail.body).toEqual({ message: 'This video has been withdrawn', code: VIDEO_WITHDRAWN });
    const download = await request(api.app).post(`/api/download/${video.id}`).send({ sessionId }).expect(410);
    expect(download.body.code).toBe(VIDEO_WITHDRAWN);
    await request(api.app).post(`/api/video-stream/${video.id}`).send({ sessionId }).expect(410);
    const library = buyerLibrarySchema.parse(
      (await request(api.app).get('/api/my-videos').set('Cookie', buyerCookie).expect(200)).body,
    );
    expect(library.videos).toEqual([
      expect.objectContaining({ id: video.id, withdrawn: true, previewUrl: null }),
    ]);

    // The request is done; the audit log holds who, what, when and why.
    const [row] = await env.database.db
      .select()
      .from(removalRequests)
      .where(eq(removalRequests.id, requestId));
    expect(row!.status).toBe('done');
    const log = auditEntrySchema.array().parse((await agent.get('/api/admin/audit-log').expect(200)).body);
    expect(log[0]).toMatchObject({
      actor: 'owner',
      action: 'takedown',
      subjectKind: 'video',
      subjectId: video.id,
      subjectName: video.title,
      reason: 'Removal request (parent): My daughter is in this group and we did not agree.',
    });
    expect(Date.now() - new Date(log[0]!.createdAt).getTime()).toBeLessThan(60_000);
  });

  it('is undone by a restore (buyers first; publishing is the owner’s next step), each in the log', async () => {
    await agent.post(`/api/admin/videos/${video.id}/publish`).expect(409);
    await agent
      .post(`/api/admin/videos/${video.id}/restore`)
      .send({ reason: 'Consent given after all' })
      .expect(200);
    await request(api.app).get(`/api/videos/${video.id}?session_id=${sessionId}`).expect(200);
    await request(api.app).get(`/api/videos/${video.id}`).expect(404);
    await agent.post(`/api/admin/videos/${video.id}/publish`).expect(200);
    expect(Object.values(await publicSurfaces()).every(Boolean)).toBe(true);
    await agent.post(`/api/admin/videos/${video.id}/hide`).expect(200);
    const [stored] = await env.database.db.select().from(videos).where(eq(videos.id, video.id));
    expect(stored!.withdrawnAt).toBeNull();

    const log = auditEntrySchema.array().parse((await agent.get('/api/admin/audit-log').expect(200)).body);
    expect(log.map((entry) => entry.action)).toEqual(['hide', 'unhide', 'restore', 'takedown']);
    expect(log[2]!.reason).toBe('Consent given after all');
  });

  it('limits a flood from one address without touching the site', async () => {
    const other = await createVideo(env.database.db, { title: `Open ${word}` });
    const from = { 'X-Forwarded-For': '198.51.100.9' };
    const ask = () =>
      request(api.app)
        .post(`/api/videos/${other.id}/removal-request`)
        .set(from)
        .send({ requester: 'studio', reason: 'flood', email: 'x@example.nz' });
    for (let attempt = 0; attempt < 5; attempt++) await ask().expect(202);
    const limited = await ask().expect(429);
    expect(limited.body.message).toMatch(/Too many removal requests/);
    await request(api.app).get('/api/videos').set(from).expect(200);
    // However many arrive, the owner's e-mail is one job a minute.
    const queued = await api.deps.producer
      .queue('removal-request-notification')
      .getJobs(['delayed', 'waiting']);
    expect(queued.length).toBeLessThanOrEqual(2);
  });
});

describe("a dancer's removal request", () => {
  const from = { 'X-Forwarded-For': '198.51.100.40' };
  const ask = (dancerId: string, body: Record<string, unknown>) =>
    request(api.app).post(`/api/dancers/${dancerId}/removal-request`).set(from).send(body);
  const asking = {
    requester: 'parent',
    reason: 'Please take my son’s name off the site.',
    email: 'matua@example.nz',
  };

  /** A competition whose programme names `dancer`; its dancer's id. */
  async function dancerOf(name: string, dancer: string, settings: Parameters<typeof createShowcase>[1] = {}) {
    const showcase = await createShowcase(env.database.db, { name, dancerNames: 'full', ...settings });
    const csv = programmeCsv([
      {
        entryNumber: '8',
        section: 'Junior Solo Hip Hop',
        title: 'Kapa',
        dancers: [dancer],
        studio: 'Studio 9',
      },
    ]);
    await importProgramme(env.database.db, showcase.id, Buffer.from(csv), {});
    const [row] = await env.database.db
      .select({ id: programmeDancers.id })
      .from(programmeDancers)
      .where(eq(programmeDancers.showcaseId, showcase.id));
    return { showcase, dancerId: row!.id };
  }

  it('is taken from the dancer’s page, listed for the owner, and answered by removing the name', async () => {
    const { showcase, dancerId } = await dancerOf(`Hip Hop Cup ${word}`, 'Kahu Tane');
    await request(api.app).get(`/api/dancers/${dancerId}`).expect(200);
    const asked = await ask(dancerId, asking).expect(202);
    expect(asked.body).toEqual({ message: REMOVAL_REQUEST_RECEIVED });
    const bad = await ask(dancerId, { requester: 'uncle', reason: '', email: 'x' }).expect(400);
    expect(bad.body.issues.map((issue: { path: string }) => issue.path).sort()).toEqual([
      'email',
      'reason',
      'requester',
    ]);
    await ask('no-such-dancer', asking).expect(404);

    const listed = async () =>
      adminRemovalRequestSchema
        .array()
        .parse((await agent.get('/api/admin/removal-requests').expect(200)).body)
        .filter((item) => item.subjectKind === 'dancer');
    const [mine] = await listed();
    expect(mine).toMatchObject({
      subjectKind: 'dancer',
      videoId: null,
      videoTitle: `Kahu Tane (dancer), Hip Hop Cup ${word}`,
      dancer: { id: dancerId, name: 'Kahu Tane', showcaseId: showcase.id },
      requester: 'parent',
      status: 'open',
    });

    // The owner removes the name: gone from the site, the request answered, the log holds it.
    await agent.delete(`/api/admin/dancers/${dancerId}`).expect(200);
    await request(api.app).get(`/api/dancers/${dancerId}`).expect(404);
    expect((await listed()).find((item) => item.id === mine!.id)).toMatchObject({
      dancer: null,
      status: 'done',
      videoTitle: `Kahu Tane (dancer), Hip Hop Cup ${word}`,
    });
    const log = auditEntrySchema.array().parse((await agent.get('/api/admin/audit-log').expect(200)).body);
    expect(log[0]).toMatchObject({
      action: 'delete',
      subjectKind: 'dancer',
      subjectId: dancerId,
      subjectName: `Kahu Tane (dancer), Hip Hop Cup ${word}`,
    });
  });

  it('behind an access code, is taken only from a browser that typed the code', async () => {
    const { dancerId } = await dancerOf(`Locked Cup ${word}`, 'Ana Tipene', {
      privacy: 'code',
      accessCodeEncrypted: encryptAccessCode({ config: env.config }, 'Rimu-2027'),
    });
    const refused = await ask(dancerId, asking).expect(403);
    expect(refused.body.code).toBe(ACCESS_CODE_REQUIRED);
    const family = request.agent(api.app);
    await family
      .post('/api/showcase-access')
      .set({ 'X-Forwarded-For': '198.51.100.41' })
      .send({ dancerId, code: 'rimu-2027' })
      .expect(200);
    await family
      .post(`/api/dancers/${dancerId}/removal-request`)
      .set({ 'X-Forwarded-For': '198.51.100.41' })
      .send(asking)
      .expect(202);
  });
});
