import { describe, expect, it } from 'vitest';
import { useTestWorld } from '../../../test/support/world.ts';
import { securityAlert } from './security-alert.ts';

// The owner's e-mail when wrong guesses arrive from many addresses (api/src/http/guesses.ts).
const { smtp, context } = useTestWorld({
  smtp: true,
  context: true,
  env: { OWNER_EMAIL: 'owner@stagelight.test' },
});

describe('security-alert', () => {
  it('names wrong access codes as access codes, and says how to make them harder to guess', async () => {
    await securityAlert({ what: 'showcase-access-code', failures: 51, windowMinutes: 60 }, context);
    const mail = await smtp.waitFor(
      (message) => message.subject === 'Many wrong access codes for your showcases',
    );
    expect(mail.to).toMatchObject({ text: 'owner@stagelight.test' });
    expect(mail.text).toContain('51 wrong access codes for your showcases arrived within 60 minutes');
    expect(mail.text).toContain('give your access-code showcases longer codes');
    expect(mail.text).not.toContain('password');
  });
});
