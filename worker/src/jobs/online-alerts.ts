import { sql } from 'drizzle-orm';
import type { Db } from '@app/shared/db';
import { onlineAlertUrl, onlineRoutineCount, onlineVideoV } from '@app/shared/online-alerts';
import { displayDancerName, type DancerNameDisplay } from '@app/shared/schemas';
import type { JobHandler, WorkerContext } from '../context.ts';
import { escapeHtml, sendMail, type MailMessage } from '../clients/mailer.ts';
import { cardMailHtml } from './card-mail.ts';

// "Tell me when it is online" (decision 035). Two e-mails at most per address and alert: the
// confirmation, then (once confirmed) the one that says a video is online, after which the row goes.

/** Alerts answered per run; the next run (queued by the next publish, or the sweep) takes the rest. */
const BATCH = 200;

type Alert = {
  id: string;
  email: string;
  entryId: string | null;
  dancerId: string | null;
  confirmSentAt: Date | null;
  confirmedAt: Date | null;
};

type Target = {
  /** "Item 47: Firefly", "Māia N.'s routines" (as the showcase shows names). */
  what: string;
  showcaseName: string;
  /** "is" for a routine, "are" for a dancer's routines. */
  is: 'is' | 'are';
  /** Where the e-mail's button leads. */
  path: string;
};

/** What an alert waits for, in words and as a page of the site; undefined when it no longer exists. */
async function targetOf(db: Pick<Db, 'execute'>, alert: Pick<Alert, 'entryId' | 'dancerId'>) {
  if (alert.entryId !== null) {
    const { rows } = await db.execute<{
      number: string;
      title: string;
      showcaseName: string;
      slug: string;
      videoId: string | null;
    }>(sql`
      select e.entry_number as number, e.title, s.name as "showcaseName", s.slug,
        (select v.id from videos v where v.entry_id = e.id and ${onlineVideoV} order by v.created_at, v.id limit 1) as "videoId"
      from programme_entries e join showcases s on s.id = e.showcase_id where e.id = ${alert.entryId}`);
    const row = rows[0];
    if (!row) return undefined;
    return {
      what: `Item ${row.number}${row.title ? `: ${row.title}` : ''}`,
      showcaseName: row.showcaseName,
      is: 'is',
      path: row.videoId
        ? `/video/${encodeURIComponent(row.videoId)}/purchase`
        : `/videos/${encodeURIComponent(row.slug)}`,
    } satisfies Target;
  }
  const { rows } = await db.execute<{ name: string; display: DancerNameDisplay; showcaseName: string }>(sql`
    select d.name, s.dancer_names as display, s.name as "showcaseName"
    from programme_dancers d join showcases s on s.id = d.showcase_id where d.id = ${alert.dancerId}`);
  const row = rows[0];
  if (!row) return undefined;
  const name = displayDancerName(row.name, row.display);
  return {
    what: name ? `${name}'s routines` : "your dancer's routines",
    showcaseName: row.showcaseName,
    is: 'are',
    path: `/dancers/${encodeURIComponent(alert.dancerId!)}`,
  } satisfies Target;
}

/** Sends the confirmation of one alert, once: the row lock is the claim, `confirm_sent_at` the record. */
export const onlineAlertConfirm: JobHandler<'online-alert-confirm'> = async ({ alertId }, context) => {
  return context.db.transaction(async (tx) => {
    await tx.execute(sql`set local lock_timeout = '30s'`);
    const { rows } = await tx.execute<Alert>(sql`
      select id, email, entry_id as "entryId", dancer_id as "dancerId", confirm_sent_at as "confirmSentAt",
        confirmed_at as "confirmedAt"
      from online_alerts where id = ${alertId} for update`);
    const alert = rows[0];
    if (!alert || alert.confirmSentAt || alert.confirmedAt) return 'skipped';
    const target = await targetOf(tx, alert);
    if (!target) return 'skipped';
    await sendMail(context.mailer, confirmMail(context, alert, target));
    await tx.execute(sql`update online_alerts set confirm_sent_at = now() where id = ${alert.id}`);
    return 'done';
  });
};

/**
 * Every confirmed alert whose entry or dancer has more routines online than when it was asked for gets
 * its one e-mail, and its row is deleted in the same transaction. A second run (a retry, a sweep, two
 * publishes) finds the row gone, or waits on its lock and then finds it gone: one e-mail each.
 */
export const onlineAlertNotify: JobHandler<'online-alert-notify'> = async (_payload, context) => {
  const { db } = context;
  const { rows: due } = await db.execute<{ id: string }>(sql`
    select a.id from online_alerts a
    where a.confirmed_at is not null
      and ${onlineRoutineCount(sql`a.entry_id`, sql`a.dancer_id`)} > a.online_routines
    order by a.confirmed_at limit ${BATCH}`);
  let sent = 0;
  for (const { id } of due) {
    const done = await db.transaction(async (tx) => {
      await tx.execute(sql`set local lock_timeout = '30s'`);
      const { rows } = await tx.execute<Alert & { onlineRoutines: number; now: number }>(sql`
        select a.id, a.email, a.entry_id as "entryId", a.dancer_id as "dancerId",
          a.confirm_sent_at as "confirmSentAt", a.confirmed_at as "confirmedAt",
          a.online_routines as "onlineRoutines", ${onlineRoutineCount(sql`a.entry_id`, sql`a.dancer_id`)} as now
        from online_alerts a where a.id = ${id} and a.confirmed_at is not null for update`);
      const alert = rows[0];
      if (!alert || alert.now <= alert.onlineRoutines) return false;
      const target = await targetOf(tx, alert);
      if (target) await sendMail(context.mailer, onlineMail(context, alert, target));
      await tx.execute(sql`delete from online_alerts where id = ${alert.id}`);
      return target !== undefined;
    });
    if (done) sent += 1;
  }
  if (sent === 0) return 'skipped';
  // More than a batch: the rest in a run of its own.
  if (due.length === BATCH) await context.producer.enqueue('online-alert-notify', {});
  return { status: 'done', sent };
};

/** RFC 8058: the unsubscribe page's URL takes a POST of "List-Unsubscribe=One-Click" as the click. */
function unsubscribeHeaders(unsubscribe: string) {
  return { 'List-Unsubscribe': `<${unsubscribe}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' };
}

function mailHtml(paragraphs: string[], button: { label: string; href: string }, footer: string) {
  return cardMailHtml(`${paragraphs.map((text) => `<p style="margin:0 0 16px;">${escapeHtml(text)}</p>`).join('\n')}
<p style="margin:8px 0 24px;text-align:center;"><a href="${escapeHtml(button.href)}" style="display:inline-block;padding:14px 28px;background:#f59e0b;color:#18181b;font-weight:600;text-decoration:none;border-radius:999px;">${escapeHtml(button.label)}</a></p>
<p style="margin:0;font-size:14px;color:#52525b;">${footer}</p>`);
}

export function confirmMail(
  { config }: Pick<WorkerContext, 'config'>,
  alert: Pick<Alert, 'id' | 'email'>,
  target: Target,
): MailMessage {
  const confirm = onlineAlertUrl(config.PUBLIC_URL, config.SESSION_SECRET, alert.id, 'confirm');
  const unsubscribe = onlineAlertUrl(config.PUBLIC_URL, config.SESSION_SECRET, alert.id, 'unsubscribe');
  const intro = `Someone (we hope you) asked us to e-mail this address when ${target.what} from ${target.showcaseName} ${target.is} online. Confirm, and we will send one e-mail when a video is; then we delete your address.`;
  const ignore =
    "If you didn't ask, ignore this e-mail: nothing more is sent, and the request is deleted within 90 days.";
  return {
    kind: 'online-alert',
    to: alert.email,
    subject: `Confirm: tell me when ${target.what} ${target.is} online`,
    replyTo: config.PUBLIC_CONTACT_EMAIL,
    headers: unsubscribeHeaders(unsubscribe),
    text: [
      'Kia ora,',
      '',
      intro,
      '',
      `Confirm here: ${confirm}`,
      '',
      ignore,
      `Cancel now: ${unsubscribe}`,
    ].join('\n'),
    html: mailHtml(
      ['Kia ora,', intro],
      { label: 'Yes, e-mail me', href: confirm },
      `${escapeHtml(ignore)} <a href="${escapeHtml(unsubscribe)}" style="color:#b45309;">Cancel now</a>.`,
    ),
  };
}

export function onlineMail(
  { config }: Pick<WorkerContext, 'config'>,
  alert: Pick<Alert, 'id' | 'email'>,
  target: Target,
): MailMessage {
  const link = new URL(target.path, config.PUBLIC_URL).toString();
  const unsubscribe = onlineAlertUrl(config.PUBLIC_URL, config.SESSION_SECRET, alert.id, 'unsubscribe');
  const intro = `${target.what} from ${target.showcaseName} ${target.is} online: watch the preview and buy here.`;
  const last = 'This is the only e-mail we send about it: your address is now deleted from our list.';
  return {
    kind: 'online-alert',
    to: alert.email,
    subject: `${target.what} ${target.is} online`,
    replyTo: config.PUBLIC_CONTACT_EMAIL,
    headers: unsubscribeHeaders(unsubscribe),
    text: ['Kia ora,', '', intro, link, '', last, `Unsubscribe: ${unsubscribe}`].join('\n'),
    html: mailHtml(
      ['Kia ora,', intro],
      { label: 'See the video', href: link },
      `${escapeHtml(last)} <a href="${escapeHtml(unsubscribe)}" style="color:#b45309;">Unsubscribe</a>.`,
    ),
  };
}
