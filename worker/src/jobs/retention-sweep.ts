import { sql, type SQL } from 'drizzle-orm';
import { ONLINE_ALERT_DAYS } from '@app/shared/online-alerts';
import { SEARCH_MISS_DAYS } from '@app/shared/privacy';
import { jobNames } from '@app/shared/queue';
import type { JobHandler, WorkerContext } from '../context.ts';

// Bounded so each statement stays a short transaction on a big backlog.
const BATCH = 5_000;

/**
 * What is kept no longer, table by table: the privacy page (shared/src/contracts/site-copy/privacy.ts)
 * says the same in words. A new kind of personal data adds its rule here (the programme issue's notify-me
 * addresses are the "online alerts" rule), with a line on the privacy page.
 */
export function retentionRules(
  config: WorkerContext['config'],
): Array<{ name: string; table: string; expired: SQL }> {
  const days = (count: number) => sql`now() - make_interval(days => ${count})`;
  return [
    // Enquiries from the contact form.
    {
      name: 'enquiries',
      table: 'contacts',
      expired: sql`created_at < ${days(config.RETENTION_ENQUIRY_DAYS)}`,
    },
    // Answered removal requests (who asked, why, their e-mail), as long as enquiries; open ones stay.
    {
      name: 'removal requests',
      table: 'removal_requests',
      expired: sql`status <> 'open' and coalesce(resolved_at, created_at) < ${days(config.RETENTION_ENQUIRY_DAYS)}`,
    },
    // Library sign-in links: once used or expired (or never sent: an address without purchases).
    {
      name: 'sign-in links',
      table: 'buyer_sign_in_links',
      expired: sql`used_at is not null or expires_at < now() or (expires_at is null and created_at < now() - interval '1 day')`,
    },
    // "Tell me when it is online" addresses (decision 035): deleted once notified (by the job itself),
    // and unanswered ones after 90 days, confirmed or not.
    {
      name: 'online alerts',
      table: 'online_alerts',
      expired: sql`created_at < ${days(ONLINE_ALERT_DAYS)}`,
    },
    // Buyers' library sessions and the owner's admin sessions, once expired.
    { name: 'buyer sessions', table: 'buyer_sessions', expired: sql`expires_at < now()` },
    { name: 'admin sessions', table: 'sessions', expired: sql`expire < now()` },
    // Searches that found nothing: words a visitor typed, perhaps a child's name (decision 034).
    {
      name: 'searches that found nothing',
      table: 'search_misses',
      expired: sql`day < current_date - ${SEARCH_MISS_DAYS}::int`,
    },
    // Processing records: order-link sync runs (failed jobs leave Redis after as long: defaultJobOptions).
    {
      name: 'sync runs',
      table: 'sync_runs',
      expired: sql`started_at < ${days(config.RETENTION_JOB_RECORD_DAYS)}`,
    },
  ];
}

/**
 * Deletes what its retention rule says has expired. Running it twice deletes nothing more; each rule
 * is its own statements, so one table's trouble does not keep the others' data.
 */
export const retentionSweep: JobHandler<'retention-sweep'> = async (
  _payload,
  { db, config, logger, producer },
) => {
  const deleted: Record<string, number> = {};
  for (const rule of retentionRules(config)) {
    let count = 0;
    for (;;) {
      // ctid: every table here, whatever its key's name.
      const result = await db.execute(sql`
        delete from ${sql.identifier(rule.table)} where ctid in (
          select ctid from ${sql.identifier(rule.table)} where ${rule.expired} limit ${BATCH}
        )`);
      count += result.rowCount ?? 0;
      if ((result.rowCount ?? 0) < BATCH) break;
    }
    if (count > 0) deleted[rule.name] = count;
  }
  // Failed jobs (their payloads hold addresses and ids) as long as the processing records: the queue's
  // own removeOnFail keeps them 30 days at most, a shorter RETENTION_JOB_RECORD_DAYS is applied here.
  const failedGrace = config.RETENTION_JOB_RECORD_DAYS * 24 * 3600_000;
  let failedJobs = 0;
  for (const name of jobNames) {
    for (;;) {
      const removed = await producer.queue(name).clean(failedGrace, BATCH, 'failed');
      failedJobs += removed.length;
      if (removed.length < BATCH) break;
    }
  }
  if (failedJobs > 0) deleted['failed jobs'] = failedJobs;
  if (Object.keys(deleted).length === 0) return 'skipped';
  logger.info({ deleted }, 'retention sweep deleted expired data');
  return { status: 'done', deleted };
};
