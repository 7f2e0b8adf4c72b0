import { describe, expect, it } from 'vitest';
import { parseConfig, type Config } from '@app/shared/config';
import type { Logger } from '@app/shared/logger';
import { createMailer } from './mailer.ts';

// With mail off (no SMTP_URL, or MAIL_DISABLED) e-mails are logged instead of sent: outside a
// developer's machine that log must not hold the e-mail itself (sign-in tokens, download links).

function capture() {
  const lines: unknown[] = [];
  const logger = { info: (entry: unknown) => lines.push(entry) } as unknown as Logger;
  return { lines, logger };
}

const message = {
  kind: 'buyer-sign-in' as const,
  to: 'aroha@example.nz',
  subject: 'Your sign-in link for Stagelight Studio videos',
  text: 'Open your videos here: https://stagelight.example.nz/my-videos/sign-in#token=secret-token-value',
};

describe('mail that is not sent', () => {
  it('is logged as its kind only in production, with no recipient, body or link', async () => {
    const config: Config = { ...parseConfig({}), NODE_ENV: 'production', MAIL_DISABLED: true };
    const { lines, logger } = capture();
    const mailer = createMailer(config, logger);
    await mailer.send(message);
    mailer.close();
    expect(lines).toEqual([{ kind: 'buyer-sign-in' }]);
    const logged = JSON.stringify(lines);
    for (const secret of ['aroha@example.nz', 'secret-token-value', 'https://', 'sign-in link'])
      expect(logged).not.toContain(secret);
  });

  it('is logged whole on a developer machine, where its link is how sign-in is tried out', async () => {
    const { lines, logger } = capture();
    const mailer = createMailer(parseConfig({ NODE_ENV: 'development' }), logger);
    await mailer.send(message);
    mailer.close();
    expect(lines).toEqual([expect.objectContaining({ kind: 'buyer-sign-in', text: message.text })]);
  });
});
