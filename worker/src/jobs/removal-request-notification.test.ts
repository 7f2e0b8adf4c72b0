import { isNull } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { removalRequests } from '@app/shared/db';
import { jobOptions } from '@app/shared/queue';
import { createVideo } from '../../../test/support/factories.ts';
import { useTestWorld } from '../../../test/support/world.ts';
import { schedulesFor } from '../schedules.ts';
import { removalRequestNotification } from './removal-request-notification.ts';

// A request from the api's form to the owner's queue: test/flows/takedown.test.ts.
const { env, smtp, context } = useTestWorld({
  smtp: true,
  context: true,
  env: { OWNER_EMAIL: 'owner@stagelight.test' },
});

describe('removal-request-notification', () => {
  it('e-mails the owner every request not yet sent, in one message, once', async () => {
    const { db } = env.database;
    const video = await createVideo(db, { title: 'Junior Hip Hop Group' });
    await db.insert(removalRequests).values([
      {
        videoId: video.id,
        videoTitle: video.title,
        requester: 'parent',
        reason: 'No consent',
        email: 'p@example.nz',
      },
      {
        videoId: video.id,
        videoTitle: video.title,
        requester: 'studio',
        reason: 'Costume failure',
        email: 's@example.nz',
      },
    ]);
    expect(await removalRequestNotification({}, context)).toEqual({ status: 'done', sent: 2 });
    // Running it twice leaves the same state: nothing more is sent.
    expect(await removalRequestNotification({}, context)).toBe('skipped');

    const mail = await smtp.waitFor((message) => message.subject === '2 removal requests');
    expect(mail.to).toMatchObject({ text: 'owner@stagelight.test' });
    expect(mail.text).toContain('Please answer within 7 days.');
    expect(mail.text).toContain('By: Parent or guardian <p@example.nz>');
    expect(mail.text).toContain('Why: Costume failure');
    expect(mail.text).toContain('/admin/removal-requests');
    expect(smtp.messages.filter((message) => message.subject?.includes('removal request'))).toHaveLength(1);
    expect(await db.select().from(removalRequests).where(isNull(removalRequests.notifiedAt))).toEqual([]);
  });

  it("names a dancer's request as her name and routines", async () => {
    const { db } = env.database;
    await db.insert(removalRequests).values({
      subjectKind: 'dancer',
      videoTitle: 'Kahu Tane (dancer), Hip Hop Cup',
      requester: 'parent',
      reason: 'Please take his name off',
      email: 'm@example.nz',
    });
    expect(await removalRequestNotification({}, context)).toEqual({ status: 'done', sent: 1 });
    const mail = await smtp.waitFor(
      (message) => message.subject === 'Removal request: Kahu Tane (dancer), Hip Hop Cup',
    );
    expect(mail.text).toContain("Someone asked for a dancer's name and routines to be taken down.");
    expect(mail.text).toContain("remove the dancer's name");
  });

  it('is one job a minute however many requests arrive, and a sweep catches what Redis missed', () => {
    const first = jobOptions('removal-request-notification', {});
    expect(first.jobId).toMatch(/^removal-requests-\d+$/);
    expect(first.delay).toBeGreaterThan(0);
    expect(first.delay).toBeLessThanOrEqual(61_000);
    expect(schedulesFor(env.config).map((schedule) => schedule.id)).toContain(
      'removal-request-notification-sweep',
    );
  });
});
