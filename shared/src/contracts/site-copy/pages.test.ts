import { describe, expect, it } from 'vitest';
import * as content from './index.ts';
import { matchVideoPage, pageMeta, summarize, videoPageMeta } from './pages.ts';
import { servicePages } from './service-pages.ts';

describe('pageMeta', () => {
  it('gives each public route its title and canonical path, and unknown paths 404 with noindex', () => {
    expect(pageMeta('/')).toMatchObject({ status: 200, kind: 'home', canonical: '/' });
    for (const page of servicePages) {
      expect(pageMeta(page.path)).toMatchObject({ status: 200, kind: 'service', title: page.title });
      expect(pageMeta(`${page.path}/`).canonical).toBe(page.path);
    }
    expect(pageMeta('/videos')).toMatchObject({ status: 200, canonical: '/videos' });
    expect(pageMeta('/nowhere')).toMatchObject({ status: 404, noindex: true, canonical: undefined });
    expect(pageMeta('/admin/contacts')).toMatchObject({ status: 200, noindex: true });
  });

  it('recognises video pages', () => {
    expect(matchVideoPage('/video/abc/purchase')).toEqual({ id: 'abc', kind: 'purchase' });
    expect(matchVideoPage('/video/a%20b/download/')).toEqual({ id: 'a b', kind: 'download' });
    expect(matchVideoPage('/video/%E0%A4%A/purchase')).toBeUndefined();
    expect(matchVideoPage('/video/abc/edit')).toBeUndefined();
  });

  it('indexes only the purchase page of an open video whose showcase is shown in search engines', () => {
    const open = {
      title: 'Recital',
      description: 'Full recital',
      passwordProtected: false,
      showcaseIndexed: true,
    };
    expect(videoPageMeta(open, 'v1', 'purchase')).toMatchObject({
      canonical: '/video/v1/purchase',
      noindex: false,
    });
    // Performers are often children: without the owner's tick the page stays out of search engines.
    expect(videoPageMeta({ ...open, showcaseIndexed: false }, 'v1', 'purchase').noindex).toBe(true);
    expect(videoPageMeta(open, 'v1', 'download')).toMatchObject({ canonical: undefined, noindex: true });
    expect(videoPageMeta({ ...open, passwordProtected: true }, 'v1', 'purchase').noindex).toBe(true);
    expect(videoPageMeta(null, 'v1', 'purchase')).toMatchObject({ status: 404, noindex: true });
  });

  it('cuts long descriptions at a word', () => {
    const long = `${'word '.repeat(60)}end`;
    const cut = summarize(long);
    expect(cut.length).toBeLessThanOrEqual(160);
    expect(cut.endsWith('word…')).toBe(true);
    expect(summarize('  short\n text ')).toBe('short text');
  });
});

describe('site copy', () => {
  it('shows no fees or rates anywhere', () => {
    const text = JSON.stringify(content);
    expect(text).not.toMatch(/(\$|NZD|NZ\$)\s?\d/);
    expect(text).not.toMatch(/\b(per hour|hourly|from \$)/i);
  });

  it('has five FAQs and four cards on every service page', () => {
    for (const page of servicePages) {
      expect(page.faqs, page.path).toHaveLength(5);
      expect(page.cards, page.path).toHaveLength(4);
    }
  });
});
