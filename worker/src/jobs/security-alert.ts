import { eq } from 'drizzle-orm';
import { videos } from '@app/shared/db';
import type { JobHandler } from '../context.ts';
import { sendMail } from '../clients/mailer.ts';

/** Tells the owner that wrong passwords are arriving from many addresses and are being slowed down. */
export const securityAlert: JobHandler<'security-alert'> = async (payload, { db, mailer, config }) => {
  const { what, videoId, failures, windowMinutes } = payload;
  const [video] = videoId
    ? await db.select({ title: videos.title }).from(videos).where(eq(videos.id, videoId))
    : [];
  const target = what === 'admin-login' ? 'the admin login' : `the video "${video?.title ?? videoId}"`;
  await sendMail(mailer, {
    kind: 'security-alert',
    to: config.OWNER_EMAIL,
    subject: `Many wrong passwords for ${target}`,
    text: [
      `${failures} wrong passwords for ${target} arrived within ${windowMinutes} minutes, from several addresses.`,
      '',
      'Each further wrong password now has to wait longer before it is checked. You can still sign in',
      'from a device that has not entered a wrong password.',
      '',
      what === 'admin-login'
        ? 'If this keeps happening, choose a longer admin password (npm run hash-password).'
        : `If this keeps happening, change this video's password in ${config.PUBLIC_URL}/admin.`,
      '',
      'You get this e-mail at most once an hour while it goes on.',
    ].join('\n'),
  });
  return 'done';
};
