import { UnrecoverableError } from 'bullmq';
import { and, eq, ne, sql } from 'drizzle-orm';
import { events, syncRuns } from '@app/shared/db';
import { SYNC_JOB_ID } from '@app/shared/queue';
import { markPublicContentChanged } from '@app/shared/cache-version';
import type { JobHandler } from '../context.ts';
import { planSync } from '../sync/match.ts';
import { readOrderLinkRows } from '../sync/sources.ts';

/**
 * Reads the competition sheet (or CSV), matches rows to events by name, and writes the changed
 * booking links in one statement inside one transaction. Each run is recorded in sync_runs.
 */
export const syncOrderLinks: JobHandler<'sync-order-links'> = async (
  payload,
  { db, config, job, producer, redis },
) => {
  // A job scheduler tick has an id of its own: hand it over to the one sync job id, so a scheduled
  // sync and a pressed button never run at the same time (the tick joins a sync already queued).
  if (job.id !== SYNC_JOB_ID) {
    const queued = await producer.enqueue('sync-order-links', payload);
    return { status: 'skipped', handedOverTo: queued.jobId };
  }

  // The job id is reused run after run; its timestamp tells runs apart.
  const runKey = `${job.id}-${job.timestamp}`;
  const [existing] = await db.select({ id: syncRuns.id }).from(syncRuns).where(eq(syncRuns.jobId, runKey));
  const runId =
    existing?.id ??
    (
      await db
        .insert(syncRuns)
        .values({ jobId: runKey, trigger: payload.trigger })
        .returning({ id: syncRuns.id })
    )[0]!.id;
  // Only one sync job exists at a time, so any other run still marked running was cut short.
  await db
    .update(syncRuns)
    .set({
      status: 'failed',
      finishedAt: new Date(),
      failureReason: 'Interrupted: the worker stopped before this sync finished',
    })
    .where(and(eq(syncRuns.status, 'running'), ne(syncRuns.id, runId)));

  try {
    await job.updateProgress(10);
    const rows = await readOrderLinkRows(config);
    await job.updateProgress(50);
    const result = await db.transaction(async (tx) => {
      const current = await tx
        .select({ id: events.id, title: events.title, jotformUrl: events.jotformUrl })
        .from(events);
      const { updates, result } = planSync(rows, current);
      if (updates.length > 0) {
        const values = sql.join(
          updates.map((update) => sql`(${update.id}::int, ${update.link}::text)`),
          sql`, `,
        );
        await tx.execute(
          sql`update events set jotform_url = v.link, updated_at = now() from (values ${values}) as v(id, link)
              where events.id = v.id and events.jotform_url is distinct from v.link`,
        );
      }
      return result;
    });
    if (result.updatedCount > 0) await markPublicContentChanged(redis, config.QUEUE_PREFIX);
    await job.updateProgress(90);
    await db
      .update(syncRuns)
      .set({ status: 'succeeded', finishedAt: new Date(), result, failureReason: null })
      .where(eq(syncRuns.id, runId));
    await job.updateProgress(100);
    return { status: result.updatedCount > 0 ? 'done' : 'skipped', ...result };
  } catch (error) {
    const final = error instanceof UnrecoverableError || job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
    await db
      .update(syncRuns)
      .set(
        final
          ? { status: 'failed', finishedAt: new Date(), failureReason: (error as Error).message }
          : {
              failureReason: `Attempt ${job.attemptsMade + 1} failed, retrying: ${(error as Error).message}`,
            },
      )
      .where(eq(syncRuns.id, runId));
    throw error;
  }
};
