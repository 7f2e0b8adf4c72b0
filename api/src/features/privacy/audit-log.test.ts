import { eq } from 'drizzle-orm';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { videos } from '@app/shared/db';
import { auditEntrySchema } from '@app/shared/schemas';
import { createShowcase, createVideo } from '../../../../test/support/factories.ts';
import { useTestWorld } from '../../../../test/support/world.ts';

// Issue 28 item 4: every hide, unhide, delete and takedown is in the audit log the owner reads, by
// whichever screen she did it: the row's Hide/Publish button, the edit form's "Shown on the site" tick,
// the showcase form, a delete. (The takedown and restore are in test/flows/takedown.test.ts.)

const { env, api, agent } = useTestWorld({ admin: true });
const origin = 'http://localhost:3000';

const log = async () =>
  auditEntrySchema.array().parse((await agent.get('/api/admin/audit-log').expect(200)).body);
const stored = (key: string) => api.deps.storage.put(key, Buffer.from(`file ${key}`), 'video/mp4');

describe('the audit log', () => {
  it('holds hides and unhides made in the edit forms, and deletes; only the owner reads it', async () => {
    const video = await createVideo(env.database.db, { title: 'Edit Form Solo', priceCents: 0 });
    await stored(video.awsKey);
    const edit = (body: Record<string, unknown>) =>
      agent.put(`/api/admin/videos/${video.id}`).set('Origin', origin).send(body);

    await edit({ published: false }).expect(200);
    // Saving the form again without changing the tick is no hide.
    await edit({ title: 'Edit Form Solo', published: false }).expect(200);
    await edit({ published: true }).expect(200);

    const showcase = await createShowcase(env.database.db, { name: 'Form Showcase' });
    const patch = (body: Record<string, unknown>) =>
      agent.patch(`/api/admin/showcases/${showcase.id}`).set('Origin', origin).send(body);
    await patch({ published: false }).expect(200);
    await patch({ published: true }).expect(200);

    await agent.delete(`/api/admin/videos/${video.id}`).set('Origin', origin).expect(200);

    expect(
      (await log()).map(({ action, subjectKind, subjectId, subjectName, actor }) => ({
        action,
        subjectKind,
        subjectId,
        subjectName,
        actor,
      })),
    ).toEqual([
      {
        action: 'delete',
        subjectKind: 'video',
        subjectId: video.id,
        subjectName: 'Edit Form Solo',
        actor: 'owner',
      },
      {
        action: 'unhide',
        subjectKind: 'showcase',
        subjectId: showcase.id,
        subjectName: 'Form Showcase',
        actor: 'owner',
      },
      {
        action: 'hide',
        subjectKind: 'showcase',
        subjectId: showcase.id,
        subjectName: 'Form Showcase',
        actor: 'owner',
      },
      {
        action: 'unhide',
        subjectKind: 'video',
        subjectId: video.id,
        subjectName: 'Edit Form Solo',
        actor: 'owner',
      },
      {
        action: 'hide',
        subjectKind: 'video',
        subjectId: video.id,
        subjectName: 'Edit Form Solo',
        actor: 'owner',
      },
    ]);
    await request(api.app).get('/api/admin/audit-log').expect(401);
  });

  it('keeps a withdrawn video hidden when the edit form is saved with "Shown on the site" ticked', async () => {
    const video = await createVideo(env.database.db, { title: 'Withdrawn Duo', priceCents: 0 });
    await stored(video.awsKey);
    await agent.post(`/api/admin/videos/${video.id}/withdraw`).set('Origin', origin).send({}).expect(200);

    const refused = await agent
      .put(`/api/admin/videos/${video.id}`)
      .set('Origin', origin)
      .send({ title: 'Withdrawn Duo (renamed)', published: true });
    expect(refused.status, JSON.stringify(refused.body)).toBe(409);
    expect(refused.body.message).toMatch(/withdrawn after a removal request: restore it first/);
    const [row] = await env.database.db.select().from(videos).where(eq(videos.id, video.id));
    expect(row).toMatchObject({ title: 'Withdrawn Duo', published: false });
    expect(row!.withdrawnAt).not.toBeNull();
    // Editing its words while it stays hidden is fine.
    await agent
      .put(`/api/admin/videos/${video.id}`)
      .set('Origin', origin)
      .send({ title: 'Withdrawn Duo (renamed)', published: false })
      .expect(200);
    const mine = (await log()).filter((entry) => entry.subjectId === video.id);
    expect(mine.map((entry) => entry.action)).toEqual(['takedown']);
  });
});
