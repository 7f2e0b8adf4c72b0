import { UnrecoverableError } from 'bullmq';
import { describe, expect, it, vi } from 'vitest';
import {
  buyerSessions,
  buyerSignInLinks,
  contacts,
  removalRequests,
  sessions,
  syncRuns,
} from '@app/shared/db';
import { expectErrorLogs } from '../../../test/support/guards.ts';
import { drain } from '../../../test/support/worker.ts';
import { useTestWorld } from '../../../test/support/world.ts';
import type { WorkerContext } from '../context.ts';
import { schedulesFor } from '../schedules.ts';
import { retentionSweep } from './retention-sweep.ts';

const { env, worker } = useTestWorld({
  worker: {
    'contact-notification': async () => {
      throw new UnrecoverableError('mail server said no');
    },
  },
});

/** The sweep as the queue runs it; it reads no job, so the world's worker context is all it needs. */
const sweep = (context: WorkerContext = worker.context) => retentionSweep({}, context as never);

const daysAgo = (days: number) => new Date(Date.now() - days * 24 * 3600_000);

describe('retention-sweep', () => {
  it('deletes a 2-year-old enquiry and keeps a newer one, and expired links and sessions at once', async () => {
    const { db } = env.database;
    const enquiry = { firstName: 'Mere', lastName: 'Tane', email: 'mere@example.nz', message: 'Hello' };
    await db.insert(contacts).values([
      { ...enquiry, message: 'old', createdAt: daysAgo(731) },
      { ...enquiry, message: 'newer', createdAt: daysAgo(700) },
      { ...enquiry, message: 'today' },
    ]);
    await db.insert(buyerSignInLinks).values([
      {
        email: 'a@example.nz',
        tokenHash: 'used',
        expiresAt: new Date(Date.now() + 600_000),
        usedAt: new Date(),
      },
      { email: 'b@example.nz', tokenHash: 'expired', expiresAt: new Date(Date.now() - 1_000) },
      { email: 'c@example.nz', tokenHash: 'live', expiresAt: new Date(Date.now() + 600_000) },
    ]);
    await db.insert(buyerSessions).values([
      { idHash: 'gone', email: 'a@example.nz', expiresAt: new Date(Date.now() - 1_000) },
      { idHash: 'kept', email: 'a@example.nz', expiresAt: new Date(Date.now() + 600_000) },
    ]);
    await db.insert(sessions).values([
      { sid: 'old-admin', sess: {}, expire: new Date(Date.now() - 1_000) },
      { sid: 'admin', sess: {}, expire: new Date(Date.now() + 600_000) },
    ]);
    await db.insert(syncRuns).values([
      { trigger: 'admin', status: 'failed', startedAt: daysAgo(31) },
      { trigger: 'admin', status: 'succeeded', startedAt: daysAgo(2) },
    ]);
    const asked = { videoTitle: 'Solo', requester: 'parent' as const, reason: 'x', email: 'p@example.nz' };
    await db.insert(removalRequests).values([
      {
        ...asked,
        reason: 'answered long ago',
        status: 'done',
        createdAt: daysAgo(800),
        resolvedAt: daysAgo(790),
      },
      { ...asked, reason: 'still open', createdAt: daysAgo(800) },
    ]);

    expect(await sweep()).toEqual({
      status: 'done',
      deleted: {
        enquiries: 1,
        'removal requests': 1,
        'sign-in links': 2,
        'buyer sessions': 1,
        'admin sessions': 1,
        'sync runs': 1,
      },
    });
    // Running it twice leaves the same state.
    expect(await sweep()).toBe('skipped');

    expect(
      (await db.select({ message: contacts.message }).from(contacts)).map((row) => row.message).sort(),
    ).toEqual(['newer', 'today']);
    expect((await db.select().from(buyerSignInLinks)).map((row) => row.tokenHash)).toEqual(['live']);
    expect((await db.select().from(buyerSessions)).map((row) => row.idHash)).toEqual(['kept']);
    expect((await db.select().from(removalRequests)).map((row) => row.reason)).toEqual(['still open']);
    expect((await db.select().from(sessions)).map((row) => row.sid)).toEqual(['admin']);
    expect((await db.select().from(syncRuns)).map((row) => row.status)).toEqual(['succeeded']);
  });

  it('runs hourly, and follows the configured enquiry retention', async () => {
    expect(schedulesFor(env.config).find((schedule) => schedule.job === 'retention-sweep')).toMatchObject({
      every: 3600_000,
    });
    const { db } = env.database;
    await db.insert(contacts).values({
      firstName: 'A',
      lastName: 'B',
      email: 'a@example.nz',
      message: 'a year old',
      createdAt: daysAgo(400),
    });
    const context = { ...worker.context, config: { ...env.config, RETENTION_ENQUIRY_DAYS: 365 } };
    // This one and the 700-day-old one of the test before; today's stays.
    expect(await sweep(context)).toEqual({ status: 'done', deleted: { enquiries: 2 } });
    expect((await db.select({ message: contacts.message }).from(contacts)).map((row) => row.message)).toEqual(
      ['today'],
    );
  });

  it('deletes failed jobs (their payloads name people) after the processing-record period', async () => {
    expectErrorLogs(/mail server said no/);
    const failed = worker.producer.queue('contact-notification');
    await worker.producer.enqueue('contact-notification', { contactId: 1 });
    await drain(worker.producer, 'contact-notification');
    expect(await failed.getFailedCount()).toBe(1);
    const context = { ...worker.context, config: { ...env.config, RETENTION_JOB_RECORD_DAYS: 7 } };
    // Today's failure is kept; a week and a day later it is gone.
    expect(await sweep(context)).toBe('skipped');
    expect(await failed.getFailedCount()).toBe(1);
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.now() + 8 * 24 * 3600_000);
      expect(await sweep(context)).toEqual({ status: 'done', deleted: { 'failed jobs': 1 } });
    } finally {
      vi.useRealTimers();
    }
    expect(await failed.getFailedCount()).toBe(0);
  });
});
