// Drill: Redis stops for 5 s and comes back empty (no persistence, a failover to an empty replica),
// while visitors send enquiries and watch videos and the order-link sync runs on its schedule.
// Without restarting anything: every enquiry reaches the owner once, every view is counted once,
// and the schedules (both sweeps and SYNC_CRON) are back, because the worker puts them back.
import { randomUUID } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { eq, gt, and } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contacts, syncRuns, videos } from '@app/shared/db';
import { createStorage } from '@app/shared/storage';
import { startPrivateRedis, type PrivateRedis } from '../support/redis-server.ts';
import { createEvent, createVideo } from '../support/factories.ts';
import { useTestWorld } from '../support/world.ts';

const OUTAGE_MS = 5_000;
const SWEEP_INTERVAL_MS = 2_000;

let redis: PrivateRedis;
beforeAll(async () => {
  redis = await startPrivateRedis();
});
afterAll(() => redis?.kill());
const { env, smtp, api, worker } = useTestWorld({
  smtp: true,
  processes: { api: true, worker: true },
  env: async ({ dir }) => {
    const csv = path.join(dir, 'links.csv');
    await writeFile(csv, 'Competition,Date,Order link\nRestart Cup,x,https://form.example/restart\n');
    return {
      REDIS_URL: redis.url,
      SWEEP_INTERVAL_MS: String(SWEEP_INTERVAL_MS),
      ORDER_LINKS_CSV: csv,
      // Every 3 seconds (six-field cron), so the drill sees ticks before and after the restart.
      SYNC_CRON: '*/3 * * * * *',
    };
  },
});

const post = (route: string, body: object) =>
  fetch(`${api.url}${route}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });

async function scheduledRunsSince(since: Date) {
  return env.database.db
    .select()
    .from(syncRuns)
    .where(and(eq(syncRuns.trigger, 'schedule'), gt(syncRuns.startedAt, since)));
}

describe('Redis stopped and started again empty', () => {
  it('loses no enquiry, view or scheduled run, without a restart', { timeout: 120_000 }, async () => {
    const key = `videos/${randomUUID()}.mp4`;
    await createStorage(env.config).put(key, Buffer.from('clip'), 'video/mp4');
    const video = await createVideo(env.database.db, { awsKey: key });
    await createEvent(env.database.db, { title: 'Restart Cup' });

    // Before: the schedule runs, and an enquiry goes out as usual.
    await expect
      .poll(async () => (await scheduledRunsSince(new Date(0))).length, { timeout: 20_000 })
      .toBeGreaterThan(0);
    let sent = 0;
    let views = 0;
    const enquire = async (when: string) => {
      const response = await post('/api/contacts', {
        firstName: `Visitor${sent}`,
        lastName: when,
        email: `visitor${sent}@example.nz`,
        message: `Sent ${when}`,
      });
      expect(response.status).toBe(201);
      sent++;
    };
    const watch = async () => {
      expect((await post(`/api/video-stream/${video.id}`, {})).status).toBe(200);
      views++;
    };
    await enquire('before');
    await watch();
    await expect.poll(() => smtp.messages.length, { timeout: 20_000 }).toBe(1);

    // Redis dies for 5 s: three enquiries and three views meanwhile, then it comes back with nothing.
    await redis.kill();
    const outageEnds = Date.now() + OUTAGE_MS;
    for (let i = 0; i < 3; i++) {
      await enquire('during the outage');
      await watch();
    }
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, outageEnds - Date.now())));
    await redis.start();
    const restarted = new Date();

    // After: the enquiries sent meanwhile reach the owner (a sweep found them), the views are counted,
    // and the next SYNC_CRON tick runs.
    await enquire('after');
    await watch();
    const started = Date.now();
    await expect.poll(() => smtp.messages.length, { timeout: 30_000 }).toBe(sent);
    const mailedWithinMs = Date.now() - started;
    await expect
      .poll(
        async () => (await env.database.db.select().from(videos).where(eq(videos.id, video.id)))[0]!.views,
        { timeout: 30_000 },
      )
      .toBe(views);
    await expect
      .poll(async () => (await scheduledRunsSince(restarted)).length, { timeout: 30_000 })
      .toBeGreaterThan(0);
    console.info(
      `drill: ${sent} enquiries e-mailed ${mailedWithinMs} ms after Redis came back (sweep every ${SWEEP_INTERVAL_MS} ms)`,
    );

    // A few sweeps later: still one e-mail per enquiry and one count per view.
    await new Promise((resolve) => setTimeout(resolve, 3 * SWEEP_INTERVAL_MS));
    expect(await env.database.db.$count(contacts)).toBe(sent);
    expect(smtp.messages.length).toBe(sent);
    expect(new Set(smtp.messages.map((mail) => mail.subject)).size).toBe(sent);
    expect((await env.database.db.select().from(videos).where(eq(videos.id, video.id)))[0]!.views).toBe(
      views,
    );
    // The schedule ticks every few seconds, so one run may still be going; none may have failed.
    const runs = await scheduledRunsSince(restarted);
    expect(runs.some((run) => run.status === 'succeeded')).toBe(true);
    expect(runs.filter((run) => run.status === 'failed')).toEqual([]);
    expect(api.child.exitCode).toBeNull();
    expect(worker.child.exitCode).toBeNull();
  });
});
