import { useEffect, useLayoutEffect } from 'react';
import { useLocation } from 'wouter';
import type { PageMeta } from '@app/shared/site-copy/pages';

// The api sends each page's head (api/src/site/seo.ts). When the visitor then moves between routes in the
// browser, this keeps the same tags right from the same source (pageMeta), so a bookmark, a share or a
// crawler that runs JavaScript sees the page it is on, not the one the visit started at.
// The first page's head came from the server, so the pages' copy (pageMeta) is not part of the first load
// (decision 015): it is fetched once the app is idle, or at the first navigation if that comes sooner.

type PagesCopy = typeof import('@app/shared/site-copy/pages');
let pagesCopy: PagesCopy | undefined;
let loadingPagesCopy: Promise<PagesCopy> | undefined;
function loadPagesCopy(): Promise<PagesCopy> {
  loadingPagesCopy ??= import('@app/shared/site-copy/pages').then((module) => (pagesCopy = module));
  return loadingPagesCopy;
}

/** Sets `attribute` on the head element named by `identity`, adding it if missing; removes it for undefined. */
function setHeadTag(
  tag: 'meta' | 'link',
  identity: Record<string, string>,
  attribute: 'content' | 'href',
  value: string | undefined,
) {
  const selector =
    tag +
    Object.entries(identity)
      .map(([name, key]) => `[${name}="${key}"]`)
      .join('');
  let element = document.head.querySelector(selector);
  if (value === undefined) {
    element?.remove();
    return;
  }
  if (!element) {
    element = document.createElement(tag);
    for (const [name, key] of Object.entries(identity)) element.setAttribute(name, key);
    document.head.append(element);
  }
  element.setAttribute(attribute, value);
}

const setMeta = (attribute: 'name' | 'property', key: string, content: string | undefined) =>
  setHeadTag('meta', { [attribute]: key }, 'content', content);
const setCanonical = (href: string | undefined) => setHeadTag('link', { rel: 'canonical' }, 'href', href);

export function applyPageMeta(meta: PageMeta, origin = window.location.origin): void {
  const url = meta.canonical ? `${origin}${meta.canonical}` : undefined;
  document.title = meta.title;
  setMeta('name', 'description', meta.description);
  setMeta('name', 'keywords', meta.keywords);
  setMeta('name', 'robots', meta.noindex ? 'noindex' : undefined);
  setCanonical(url);
  setMeta('property', 'og:title', meta.title);
  setMeta('property', 'og:description', meta.description);
  setMeta('property', 'og:url', url);
  setMeta('name', 'twitter:title', meta.title);
  setMeta('name', 'twitter:description', meta.description);
}

/** The structured data the server sent belongs to the first page only; it is set aside elsewhere. */
let firstPage: { path: string; scripts: HTMLScriptElement[] } | undefined;
let navigated = false;

function keepStructuredDataFor(path: string) {
  firstPage ??= {
    path,
    scripts: [...document.head.querySelectorAll<HTMLScriptElement>('script[type="application/ld+json"]')],
  };
  for (const script of firstPage.scripts) {
    if (path === firstPage.path) {
      if (!script.isConnected) document.head.append(script);
    } else script.remove();
  }
}

/**
 * Follows client-side navigation. A layout effect, so it runs before the pages' own effects: a page that
 * knows better (a video's title) still has the last word through useDocumentTitle.
 */
export function usePageHead(): void {
  const [location] = useLocation();
  useEffect(() => {
    const idle = window.setTimeout(() => void loadPagesCopy(), 2_000);
    return () => window.clearTimeout(idle);
  }, []);
  useLayoutEffect(() => {
    keepStructuredDataFor(location);
    // The first render keeps the server's head as sent (it may be more specific, e.g. a video's title).
    if (firstPage?.path === location && !navigated) return;
    navigated = true;
    if (pagesCopy) {
      applyPageMeta(pagesCopy.pageMeta(location));
      return;
    }
    // Navigated before the copy arrived: the page's own title, if it set one meanwhile, stays.
    const titleBefore = document.title;
    let current = true;
    void loadPagesCopy().then(({ pageMeta }) => {
      if (!current) return;
      const meta = pageMeta(location);
      applyPageMeta(document.title === titleBefore ? meta : { ...meta, title: document.title });
    });
    return () => {
      current = false;
    };
  }, [location]);
}

/** Renders nothing; mounted once inside the router. */
export function PageHead() {
  usePageHead();
  return null;
}
