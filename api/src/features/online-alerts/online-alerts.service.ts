import { sql } from 'drizzle-orm';
import { checkOnlineAlertToken, onlineRoutineCount, type OnlineAlertAction } from '@app/shared/online-alerts';
import { alertsAfterPublish } from '@app/shared/queue';
import type { OnlineAlertRequest } from '@app/shared/schemas';
import type { Deps } from '../../deps.ts';
import { HttpError, notFound } from '../../http/errors.ts';

// "Tell me when it is online" (decision 035): a visitor's address waits for a video of one entry or one
// dancer. The api records the request and queues its confirmation; the worker sends both e-mails.

/**
 * Records (or renews) an alert and queues its confirmation. The answer is the same whether the address
 * is new, waiting or confirmed; an unconfirmed request asked again gets its confirmation again.
 */
export async function requestOnlineAlert(
  deps: Pick<Deps, 'db' | 'producer'>,
  { email, entryId, dancerId }: OnlineAlertRequest,
): Promise<void> {
  const entry = entryId === undefined ? null : entryId;
  const dancer = dancerId === undefined ? null : dancerId;
  // Only something a visitor can see, and only while something of it is not online yet.
  const table = entry !== null ? sql`programme_entries` : sql`programme_dancers`;
  const routines =
    entry !== null
      ? sql`1`
      : sql`(select count(*)::int from programme_entry_dancers ed where ed.dancer_id = t.id)`;
  const { rows } = await deps.db.execute<{ routines: number; online: number }>(sql`
    select ${routines} as routines, ${onlineRoutineCount(sql`${entry}`, sql`${dancer}`)} as online
    from ${table} t join showcases s on s.id = t.showcase_id
    where t.id = ${entry ?? dancer} and s.published`);
  const target = rows[0];
  if (!target) throw notFound(entry !== null ? 'Routine not found' : 'Dancer not found');
  if (target.online >= target.routines)
    throw new HttpError(409, entry !== null ? 'This routine is already online' : 'Every routine is already online');

  const { rows: saved } = await deps.db.execute<{ id: string; confirmed: boolean }>(sql`
    insert into online_alerts (id, email, entry_id, dancer_id, online_routines)
    values (gen_random_uuid()::text, ${email}, ${entry}, ${dancer}, ${target.online})
    on conflict on constraint online_alerts_target_key do update
      set confirm_sent_at = case when online_alerts.confirmed_at is null then null else online_alerts.confirm_sent_at end
    returning id, confirmed_at is not null as confirmed`);
  const alert = saved[0]!;
  if (!alert.confirmed) await deps.producer.enqueue('online-alert-confirm', { alertId: alert.id });
}

function checkToken(deps: Pick<Deps, 'config'>, id: string, action: OnlineAlertAction, token: string) {
  if (!checkOnlineAlertToken(deps.config.SESSION_SECRET, id, action, token))
    throw new HttpError(400, 'This link is not valid. Copy the whole link from the e-mail.');
}

/** The confirmation link: from now on the alert may send its one e-mail (at once if a video is online). */
export async function confirmOnlineAlert(
  deps: Pick<Deps, 'db' | 'producer' | 'config' | 'logger'>,
  id: string,
  token: string,
): Promise<string> {
  checkToken(deps, id, 'confirm', token);
  const { rowCount } = await deps.db.execute(
    sql`update online_alerts set confirmed_at = coalesce(confirmed_at, now()) where id = ${id}`,
  );
  if (!rowCount)
    throw notFound('This request is no longer on our list: it was answered, cancelled or is over 90 days old.');
  // A video may already be online (published between the request and this click).
  await alertsAfterPublish(deps);
  return 'Confirmed: we will send you one e-mail when it is online, then delete your address.';
}

/** The unsubscribe link (a click on the page, or the mail app's one-click POST): the alert is deleted. */
export async function unsubscribeOnlineAlert(deps: Pick<Deps, 'db' | 'config'>, id: string, token: string) {
  checkToken(deps, id, 'unsubscribe', token);
  await deps.db.execute(sql`delete from online_alerts where id = ${id}`);
  return 'Done: we will not e-mail you about this, and your address is deleted.';
}
