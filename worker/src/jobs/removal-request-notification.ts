import { asc, inArray, isNull, sql } from 'drizzle-orm';
import { removalRequests } from '@app/shared/db';
import { formatDateTime } from '@app/shared/format';
import { removalRequesterLabels, REMOVAL_TARGET_DAYS } from '@app/shared/schemas';
import type { JobHandler } from '../context.ts';
import { sendMail } from '../clients/mailer.ts';

/** "a video", "a dancer's name and routines", or several of either. */
function askedFor(requests: Array<{ subjectKind: 'video' | 'dancer' }>): string {
  const dancers = requests.filter((request) => request.subjectKind === 'dancer').length;
  const videos = requests.length - dancers;
  if (dancers === 0) return videos === 1 ? 'a video' : 'videos';
  if (videos === 0) return dancers === 1 ? "a dancer's name and routines" : "dancers' names and routines";
  return "videos and dancers' names";
}

/** At most this many requests in one e-mail; the rest go in the next run. */
const PER_MAIL = 50;

/**
 * E-mails the owner every removal request not yet sent, in one message, then marks them sent. The rows
 * are locked while it sends, so two runs at once send each request once; a crash after sending and
 * before the commit sends it again (a repeated e-mail beats a lost request).
 */
export const removalRequestNotification: JobHandler<'removal-request-notification'> = async (
  _payload,
  { db, mailer, config },
) =>
  db.transaction(async (tx) => {
    await tx.execute(sql`set local lock_timeout = '30s'`);
    const pending = await tx
      .select()
      .from(removalRequests)
      .where(isNull(removalRequests.notifiedAt))
      .orderBy(asc(removalRequests.createdAt))
      .limit(PER_MAIL)
      .for('update', { skipLocked: true });
    if (pending.length === 0) return 'skipped';
    const lines = pending.flatMap((request) => [
      `• "${request.videoTitle}", asked on ${formatDateTime(request.createdAt)}`,
      `  By: ${removalRequesterLabels[request.requester]} <${request.email}>`,
      `  Why: ${request.reason.replace(/\s+/g, ' ').slice(0, 1_000)}`,
      '',
    ]);
    await sendMail(mailer, {
      kind: 'removal-request',
      to: config.OWNER_EMAIL,
      subject:
        pending.length === 1
          ? `Removal request: ${pending[0]!.videoTitle}`
          : `${pending.length} removal requests`,
      text: [
        `Someone asked for ${askedFor(pending)} to be taken down. Please answer within ${REMOVAL_TARGET_DAYS} days.`,
        '',
        ...lines,
        `Hide the routine, remove the dancer's name, or decline, at ${config.PUBLIC_URL}/admin/removal-requests`,
      ].join('\n'),
    });
    await tx
      .update(removalRequests)
      .set({ notifiedAt: new Date() })
      .where(
        inArray(
          removalRequests.id,
          pending.map((request) => request.id),
        ),
      );
    return { status: 'done', sent: pending.length };
  });
