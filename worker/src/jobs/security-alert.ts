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
  const codes = what === 'showcase-access-code';
  const target =
    what === 'admin-login'
      ? 'the admin login'
      : codes
        ? 'your showcases'
        : `the video "${video?.title ?? videoId}"`;
  const guesses = codes ? 'access codes' : 'passwords';
  await sendMail(mailer, {
    kind: 'security-alert',
    to: config.OWNER_EMAIL,
    subject: codes ? 'Many wrong access codes for your showcases' : `Many wrong passwords for ${target}`,
    text: [
      `${failures} wrong ${guesses} for ${target} arrived within ${windowMinutes} minutes, from several addresses.`,
      '',
      `Each further wrong ${codes ? 'access code' : 'password'} now has to wait longer before it is checked. You can still sign in`,
      `from a device that has not entered a wrong ${codes ? 'access code' : 'password'}.`,
      '',
      what === 'admin-login'
        ? 'If this keeps happening, choose a longer admin password (npm run hash-password).'
        : codes
          ? `If this keeps happening, give your access-code showcases longer codes in ${config.PUBLIC_URL}/admin/videos.`
          : `If this keeps happening, change this video's password in ${config.PUBLIC_URL}/admin.`,
      '',
      'You get this e-mail at most once an hour while it goes on.',
    ].join('\n'),
  });
  return 'done';
};
