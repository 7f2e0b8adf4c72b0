import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { onlineAlerts, videos } from '@app/shared/db';
import { findEntry } from '@app/shared/programme';
import {
  ONLINE_ALERT_REQUESTED,
  onlineAlertAnswerSchema,
  waitingRoutineListSchema,
} from '@app/shared/schemas';
import { programmeCsv } from '../../../../scripts/seed/programme.ts';
import { adminAgent } from '../../../../test/support/app.ts';
import { createShowcase, createVideo } from '../../../../test/support/factories.ts';
import { drain } from '../../../../test/support/worker.ts';
import { useTestWorld } from '../../../../test/support/world.ts';
import { retentionSweep } from '../../../../worker/src/jobs/retention-sweep.ts';
import { importProgramme } from '../programmes/programme-import.ts';

// "Tell me when it is online" (decision 035): double opt-in, one e-mail after the publishing commit,
// an unsubscribe link (a page, and RFC 8058's one-click POST), the row deleted once used, limits.

const { env, api, worker, smtp, context } = useTestWorld({
  api: true,
  worker: true,
  smtp: true,
  context: true,
});

const db = () => env.database.db;
let visitors = 0;
const visitor = () => `198.51.100.${(++visitors % 250) + 1}`;
const address = () => `parent-${randomUUID().slice(0, 8)}@example.nz`;
const mailsTo = (email: string) => smtp.messages.filter((mail) => JSON.stringify(mail.to).includes(email));

const ask = (body: object, ip = visitor()) =>
  request(api.app).post('/api/online-alerts').set('X-Forwarded-For', ip).send(body);

async function competition() {
  const showcase = await createShowcase(db(), { name: `Winter Champs ${randomUUID().slice(0, 6)}` });
  const csv = programmeCsv([
    {
      entryNumber: '47',
      section: 'Junior Solo Jazz',
      title: 'Firefly',
      dancers: ['Māia Ngata'],
      studio: 'Te Kōwhai',
    },
    {
      entryNumber: '12',
      section: 'Junior Duo',
      title: 'Paper Boats',
      dancers: ['Māia Ngata', 'Aroha Ngata'],
      studio: 'Te Kōwhai',
    },
  ]);
  await importProgramme(db(), showcase.id, Buffer.from(csv), {});
  const entry47 = (await findEntry(db(), showcase.id, '47'))!;
  const entry12 = (await findEntry(db(), showcase.id, '12'))!;
  const { rows } = await db().execute<{ id: string }>(
    sql`select id from programme_dancers where showcase_id = ${showcase.id} and name = 'Māia Ngata'`,
  );
  return { showcase, entry47, entry12, maiaId: rows[0]!.id };
}

const header = (mail: { headerLines: ReadonlyArray<{ key: string; line: string }> }, key: string) =>
  mail.headerLines.find((line) => line.key === key)?.line.replace(/^[^:]+:\s*/, '');

/** The link of a mail's text that leads to `/online-alerts/<id>/<action>?t=`. */
function linkIn(text: string | undefined, action: 'confirm' | 'unsubscribe') {
  const match = new RegExp(`https?://\\S+/online-alerts/([^/\\s]+)/${action}\\?t=(\\S+)`).exec(text ?? '');
  if (!match) throw new Error(`no ${action} link in: ${text}`);
  return { url: new URL(match[0]), id: decodeURIComponent(match[1]!), token: decodeURIComponent(match[2]!) };
}

describe('tell me when it is online', () => {
  it('confirms first, sends one e-mail after the video is published, then forgets the address', async () => {
    const { showcase, entry47, maiaId } = await competition();
    const email = address();

    const asked = await ask({ email: ` ${email.toUpperCase()} `, dancerId: maiaId });
    expect(asked.status).toBe(202);
    expect(onlineAlertAnswerSchema.parse(asked.body).message).toBe(ONLINE_ALERT_REQUESTED);
    await drain(worker.producer, 'online-alert-confirm');
    const confirmation = await smtp.waitFor((mail) => JSON.stringify(mail.to).includes(email));
    expect(confirmation.subject).toBe("Confirm: tell me when Māia N.'s routines are online");
    expect(header(confirmation, 'list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
    const confirm = linkIn(confirmation.text, 'confirm');
    expect(header(confirmation, 'list-unsubscribe')).toContain(
      `/online-alerts/${encodeURIComponent(confirm.id)}/unsubscribe?t=`,
    );

    // Published before she confirms: nothing goes to an address that did not confirm.
    const admin = await adminAgent(api.app);
    // Free: a paid video needs its file in storage to be published.
    const video = await createVideo(db(), { showcaseId: showcase.id, published: false, priceCents: 0 });
    await admin
      .post('/api/admin/entries/link-video')
      .send({ videoId: video.id, entryId: entry47.id })
      .expect(200);
    await admin.post(`/api/admin/videos/${video.id}/publish`).expect(200);
    await drain(worker.producer, 'online-alert-notify');
    expect(mailsTo(email)).toHaveLength(1);

    // A wrong token is refused; the right one confirms, and the video already online is told at once.
    await request(api.app)
      .post(`/api/online-alerts/${confirm.id}/confirm`)
      .send({ token: `${confirm.token}x` })
      .expect(400);
    const confirmed = await request(api.app)
      .post(`/api/online-alerts/${confirm.id}/confirm`)
      .send({ token: confirm.token })
      .expect(200);
    expect(confirmed.body.message).toMatch(/^Confirmed/);
    await drain(worker.producer, 'online-alert-notify');
    const online = await smtp.waitFor(
      (mail) => mail !== confirmation && JSON.stringify(mail.to).includes(email),
    );
    expect(online.subject).toBe("Māia N.'s routines are online");
    expect(online.text).toContain(`/dancers/${maiaId}`);
    expect(header(online, 'list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
    expect(await db().$count(onlineAlerts, eq(onlineAlerts.id, confirm.id))).toBe(0);

    // Run again (a retry, the sweep, another publish): nothing more is sent.
    await worker.producer.enqueue('online-alert-notify', {});
    await worker.producer.enqueue('online-alert-notify', {});
    await drain(worker.producer, 'online-alert-notify');
    expect(mailsTo(email)).toHaveLength(2);
  });

  it('waits for a video that can be bought: a failed or unfinished one does not answer', async () => {
    const { showcase, entry12 } = await competition();
    const email = address();
    await ask({ email, entryId: entry12.id }).expect(202);
    await drain(worker.producer, 'online-alert-confirm');
    const confirmation = await smtp.waitFor((mail) => JSON.stringify(mail.to).includes(email));
    const confirm = linkIn(confirmation.text, 'confirm');
    await request(api.app)
      .post(`/api/online-alerts/${confirm.id}/confirm`)
      .send({ token: confirm.token })
      .expect(200);

    // Published, but its processing failed (a corrupt file), or it is still being prepared: not online.
    const video = await createVideo(db(), {
      showcaseId: showcase.id,
      published: true,
      priceCents: 1500,
      processingState: 'failed',
    });
    await db().update(videos).set({ entryId: entry12.id }).where(eq(videos.id, video.id));
    await worker.producer.enqueue('online-alert-notify', {});
    await drain(worker.producer, 'online-alert-notify');
    await db().update(videos).set({ processingState: 'processing' }).where(eq(videos.id, video.id));
    await worker.producer.enqueue('online-alert-notify', {});
    await drain(worker.producer, 'online-alert-notify');
    expect(mailsTo(email)).toHaveLength(1);

    // The replaced file is processed: now it is on sale, and the alert is answered with its page.
    await db().update(videos).set({ processingState: 'ready' }).where(eq(videos.id, video.id));
    await worker.producer.enqueue('online-alert-notify', {});
    await drain(worker.producer, 'online-alert-notify');
    const online = await smtp.waitFor(
      (mail) => mail !== confirmation && JSON.stringify(mail.to).includes(email),
    );
    expect(online.subject).toBe('Item 12: Paper Boats is online');
    expect(online.text).toContain(`/video/${video.id}/purchase`);
  });

  it('unsubscribes from the page or with one click, and never sends after', async () => {
    const { showcase, entry12 } = await competition();
    const email = address();
    await ask({ email, entryId: entry12.id }).expect(202);
    await drain(worker.producer, 'online-alert-confirm');
    const confirmation = await smtp.waitFor((mail) => JSON.stringify(mail.to).includes(email));
    expect(confirmation.subject).toBe('Confirm: tell me when Item 12: Paper Boats is online');
    const confirm = linkIn(confirmation.text, 'confirm');
    await request(api.app)
      .post(`/api/online-alerts/${confirm.id}/confirm`)
      .send({ token: confirm.token })
      .expect(200);

    // RFC 8058: the mail app POSTs the List-Unsubscribe URL with "List-Unsubscribe=One-Click".
    const unsubscribe = linkIn(confirmation.text, 'unsubscribe');
    await request(api.app)
      .post(`${unsubscribe.url.pathname}${unsubscribe.url.search}`)
      .type('form')
      .send('List-Unsubscribe=One-Click')
      .expect(200);
    expect(await db().$count(onlineAlerts, eq(onlineAlerts.id, confirm.id))).toBe(0);
    // The page's button does the same (and again is harmless); a confirm token cannot unsubscribe.
    await request(api.app)
      .post(`/api/online-alerts/${unsubscribe.id}/unsubscribe`)
      .send({ token: unsubscribe.token })
      .expect(200);
    await request(api.app)
      .post(`/api/online-alerts/${unsubscribe.id}/unsubscribe`)
      .send({ token: confirm.token })
      .expect(400);
    await request(api.app)
      .post(`/api/online-alerts/${confirm.id}/confirm`)
      .send({ token: confirm.token })
      .expect(404);

    await createVideo(db(), { showcaseId: showcase.id, entryId: entry12.id });
    await worker.producer.enqueue('online-alert-notify', {});
    await drain(worker.producer, 'online-alert-notify');
    expect(mailsTo(email)).toHaveLength(1);
  });

  it('refuses what is online already, bad input, and too many requests per address and visitor', async () => {
    const { showcase, entry47, entry12 } = await competition();
    await createVideo(db(), { showcaseId: showcase.id, entryId: entry47.id });
    await ask({ email: address(), entryId: entry47.id }).expect(409);
    await ask({ email: address(), entryId: 'no-such-entry' }).expect(404);
    await ask({ email: 'not an address', entryId: entry12.id }).expect(400);
    await ask({ email: address(), entryId: entry12.id, dancerId: 'x' }).expect(400);
    await ask({ email: address() }).expect(400);
    const hidden = await createShowcase(db(), { published: false });
    const csv = programmeCsv([
      { entryNumber: '1', section: 'S', title: 'T', dancers: ['Zoë Hall'], studio: 'X' },
    ]);
    await importProgramme(db(), hidden.id, Buffer.from(csv), {});
    await ask({ email: address(), entryId: (await findEntry(db(), hidden.id, '1'))!.id }).expect(404);

    // Three confirmations an hour to one inbox, whoever asks; asking again renews, never duplicates.
    const email = address();
    for (let attempt = 0; attempt < 3; attempt += 1) await ask({ email, entryId: entry12.id }).expect(202);
    await ask({ email, entryId: entry12.id }).expect(429);
    expect(await db().$count(onlineAlerts, eq(onlineAlerts.email, email))).toBe(1);

    // Ten requests an hour from one visitor.
    const ip = visitor();
    for (let attempt = 0; attempt < 10; attempt += 1)
      await ask({ email: address(), entryId: entry12.id }, ip).expect(202);
    await ask({ email: address(), entryId: entry12.id }, ip).expect(429);
    await drain(worker.producer, 'online-alert-confirm');
  });

  it('shows the owner which routines people wait for, most awaited first, without their addresses', async () => {
    const { showcase, entry47, entry12, maiaId } = await competition();
    const waitFor = (target: { entryId: string } | { dancerId: string }, confirmedAt: Date | null) =>
      db()
        .insert(onlineAlerts)
        .values({ id: randomUUID(), email: address(), ...target, confirmedAt });
    // For entry 47 itself, twice; for Māia, who dances 47 and 12; one never confirmed, which does not count.
    await waitFor({ entryId: entry47.id }, new Date('2026-11-20T08:00:00Z'));
    await waitFor({ entryId: entry47.id }, new Date('2026-11-21T08:00:00Z'));
    await waitFor({ dancerId: maiaId }, new Date('2026-11-22T08:00:00Z'));
    await waitFor({ entryId: entry12.id }, null);

    const admin = await adminAgent(api.app);
    const waiting = async () => {
      const response = await admin.get('/api/admin/online-alerts/waiting').expect(200);
      expect(response.headers['cache-control']).toBe('private, no-store');
      expect(JSON.stringify(response.body)).not.toContain('@example.nz');
      return waitingRoutineListSchema
        .parse(response.body)
        .routines.filter((routine) => routine.showcaseName === showcase.name);
    };
    expect(await waiting()).toEqual([
      expect.objectContaining({ entryNumber: '47', title: 'Firefly', studio: 'Te Kōwhai', waiting: 3 }),
      expect.objectContaining({ entryNumber: '12', title: 'Paper Boats', waiting: 1, hasVideo: false }),
    ]);
    expect((await waiting())[0]!.since).toBe('2026-11-20T08:00:00.000Z');

    // A video linked but not published yet keeps 47 listed; once online, it leaves the list.
    const video = await createVideo(db(), { showcaseId: showcase.id, published: false, priceCents: 0 });
    await admin
      .post('/api/admin/entries/link-video')
      .send({ videoId: video.id, entryId: entry47.id })
      .expect(200);
    expect((await waiting())[0]).toMatchObject({ entryNumber: '47', hasVideo: true });
    await db().update(videos).set({ published: true }).where(eq(videos.id, video.id));
    expect((await waiting()).map((routine) => routine.entryNumber)).toEqual(['12']);

    await request(api.app).get('/api/admin/online-alerts/waiting').expect(401);
  });

  it('deletes addresses after 90 days, confirmed or not, and with their dancer', async () => {
    const { entry12, maiaId } = await competition();
    const days = (count: number) => new Date(Date.now() - count * 24 * 3600_000);
    await db()
      .insert(onlineAlerts)
      .values([
        { email: 'old@example.nz', entryId: entry12.id, createdAt: days(91), confirmedAt: days(90) },
        { email: 'new@example.nz', entryId: entry12.id, createdAt: days(89) },
        { email: 'dancer@example.nz', dancerId: maiaId },
      ]);
    await retentionSweep({}, context);
    const left = await db()
      .select({ email: onlineAlerts.email })
      .from(onlineAlerts)
      .where(sql`${onlineAlerts.email} like '%@example.nz' and ${onlineAlerts.email} not like 'parent-%'`);
    expect(left.map((row) => row.email).sort()).toEqual(['dancer@example.nz', 'new@example.nz']);
    await db().execute(sql`delete from programme_dancers where id = ${maiaId}`);
    expect(await db().$count(onlineAlerts, eq(onlineAlerts.email, 'dancer@example.nz'))).toBe(0);
  });
});
