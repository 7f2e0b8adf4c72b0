import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { isUnsubscribed, unsubscribeUrl } from '@app/shared/sales';
import { useTestWorld } from '../../../../test/support/world.ts';

const { env, api } = useTestWorld({ api: true });

/** The path and query of the reminder's unsubscribe link for `email`, as the worker writes it. */
const linkFor = (email: string) => {
  const url = new URL(unsubscribeUrl(env.config, email));
  return `${url.pathname}${url.search}`;
};

describe('unsubscribing from checkout reminders', () => {
  it('GET shows a button and changes nothing, so a mail scanner’s prefetch unsubscribes nobody', async () => {
    const link = linkFor('aroha@example.nz');
    for (let fetches = 0; fetches < 2; fetches++) {
      const page = await request(api.app).get(link).expect(200).expect('Content-Type', /html/);
      expect(page.headers['cache-control']).toBe('no-store');
      expect(page.text).toContain('<strong>aroha@example.nz</strong>');
      const form = /<form method="post" action="([^"]+)">/.exec(page.text);
      expect(form?.[1]?.replaceAll('&amp;', '&')).toBe(link);
      expect(page.text).toContain('<button type="submit">Unsubscribe</button>');
    }
    expect(await isUnsubscribed(env.database.db, 'aroha@example.nz')).toBe(false);
  });

  it('POST unsubscribes: the page’s button, and a mail app’s RFC 8058 one-click', async () => {
    const button = linkFor('mere@example.nz');
    const done = await request(api.app).post(button).expect(200);
    expect(done.text).toContain('Done: <strong>mere@example.nz</strong>');
    expect(await isUnsubscribed(env.database.db, 'mere@example.nz')).toBe(true);
    // Again is harmless.
    await request(api.app).post(button).expect(200);

    const oneClick = linkFor('Tane@Example.nz');
    await request(api.app).post(oneClick).type('form').send('List-Unsubscribe=One-Click').expect(200);
    expect(await isUnsubscribed(env.database.db, 'tane@example.nz')).toBe(true);
  });

  it('refuses a forged, missing or someone else’s token with 400 on GET and POST, changing nothing', async () => {
    const mine = new URL(unsubscribeUrl(env.config, 'kiri@example.nz'));
    const theirs = new URL(unsubscribeUrl(env.config, 'someone@example.nz'));
    const forged = new URLSearchParams({ email: 'kiri@example.nz', token: 'forged-token-value' });
    const borrowed = new URLSearchParams({
      email: 'kiri@example.nz',
      token: theirs.searchParams.get('token')!,
    });
    for (const query of [forged.toString(), borrowed.toString(), 'email=kiri%40example.nz', ''])
      for (const method of ['get', 'post'] as const) {
        const response = await request(api.app)[method](`${mine.pathname}?${query}`).expect(400);
        expect(response.body).toMatchObject({ message: expect.any(String), code: expect.any(String) });
      }
    expect(await isUnsubscribed(env.database.db, 'kiri@example.nz')).toBe(false);
  });

  it('escapes the address it shows', async () => {
    const email = '"<img src=x onerror=alert(1)>"@example.nz';
    const page = await request(api.app).get(linkFor(email)).expect(200);
    expect(page.text).not.toContain('<img');
    expect(page.text).toContain('&quot;&lt;img src=x onerror=alert(1)&gt;&quot;@example.nz');
    const done = await request(api.app).post(linkFor(email)).expect(200);
    expect(done.text).not.toContain('<img');
  });
});
