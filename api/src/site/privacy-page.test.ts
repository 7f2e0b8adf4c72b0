import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { useTestWorld } from '../../../test/support/world.ts';

// The privacy page (issue 28): server-rendered from @app/shared/site-copy/privacy with the site's own
// retention periods, linked from every page's footer and listed in the sitemap. Needs `npm run build`.

const { api } = useTestWorld({ api: true, env: { RETENTION_ENQUIRY_DAYS: '365' } });

describe('/privacy', () => {
  it('goes out rendered, in plain words, with the periods the site is set to keep things', async () => {
    const page = await request(api.app).get('/privacy').expect(200);
    expect(page.text).toContain('<title>Privacy | Stagelight Studio</title>');
    expect(page.text).toContain('<div id="root" data-hydrate>');
    // RETENTION_ENQUIRY_DAYS=365 here, not the default two years.
    expect(page.text).toContain('deleted 1 year after you send them');
    expect(page.text).toContain('deleted after 30 days');
    expect(page.text).toContain('Request removal');
    expect(page.text).toContain('Privacy Act 2020');
    expect(page.headers['x-robots-tag']).toBeUndefined();
  });

  it('is linked from the footer and listed in the sitemap', async () => {
    const home = await request(api.app).get('/').expect(200);
    expect(home.text).toContain('href="/privacy"');
    const pages = await request(api.app).get('/sitemaps/pages.xml').expect(200);
    expect(pages.text).toContain('/privacy</loc>');
  });
});
