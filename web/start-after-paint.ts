import { minifySync, type Plugin } from 'vite';

/**
 * The app's scripts wait until the page has painted and loaded (decision 015). The api sends the public
 * pages painted by the app's own components (web/src/server.tsx, decision 025), so nothing on the first
 * screen needs the scripts: until then they would only compete with the stylesheet and the first
 * pictures for a phone's bandwidth. This replaces the entry script and
 * its module preloads in the built index.html with a small starter that asks for them once the first
 * contentful paint has happened and the load event has fired; a page that arrives empty starts at once.
 * A painted shell whose content comes with the app (a dancer's page: `data-start`, api/src/site/web.ts,
 * which also preloads its code) starts at its first paint.
 */
export function startAfterPaint(): Plugin {
  return {
    name: 'start-after-paint',
    apply: 'build',
    enforce: 'post',
    generateBundle(_options, bundle) {
      const page = bundle['index.html'];
      if (page?.type !== 'asset' || typeof page.source !== 'string') return;
      const script = /<script type="module" crossorigin src="([^"]+)"><\/script>\s*/.exec(page.source);
      if (!script) this.error('start-after-paint: index.html has no entry script');
      const preloads = [...page.source.matchAll(/<link rel="modulepreload" crossorigin href="([^"]+)">\s*/g)];
      const starter = this.emitFile({
        type: 'asset',
        name: 'start.js',
        // Minified: it counts towards the page's first-load JavaScript.
        source: minifySync(
          'start.js',
          starterSource(
            script[1]!,
            preloads.map((link) => link[1]!),
          ),
        ).code,
      });
      let html = page.source.replace(
        script[0],
        `<script type="module" crossorigin src="/${this.getFileName(starter)}"></script>\n    `,
      );
      for (const link of preloads) html = html.replace(link[0], '');
      page.source = html;
    },
  };
}

function starterSource(entry: string, preloads: string[]): string {
  return `// Starts the app once the page has painted and loaded (web/start-after-paint.ts).
const entry = ${JSON.stringify(entry)};
const root = document.getElementById('root');
// A painted shell whose content needs the app (a dancer's page: data-start, with its code preloaded in
// the head) starts it at the first paint instead of after the load event.
const now = root?.hasAttribute('data-start');
// The entry first: the largest, and on HTTP/1.1 the browser has six connections for all of them.
const preloads = ${JSON.stringify([entry, ...preloads])};
let started = false;
function start() {
  if (started) return;
  started = true;
  for (const href of preloads) {
    const link = document.createElement('link');
    link.rel = 'modulepreload';
    link.href = href;
    document.head.append(link);
  }
  import(entry);
}
if (root?.firstElementChild) {
  // Painted and loaded: the first screen's pictures are in (the load event) and on screen (a frame later).
  let painted = false;
  let loaded = now || document.readyState === 'complete';
  const ready = () => painted && loaded && (now ? start() : requestAnimationFrame(() => setTimeout(start)));
  new PerformanceObserver((list) => {
    if (list.getEntriesByName('first-contentful-paint').length === 0) return;
    painted = true;
    ready();
  }).observe({ type: 'paint', buffered: true });
  addEventListener('load', () => {
    loaded = true;
    ready();
  });
  // A tab opened in the background paints only when it is shown; its app starts anyway.
  setTimeout(start, 3000);
  // A tap on a painted button before the app runs would be lost (links work without it): start the app
  // now, and leave the button for the app to press once it holds the page (AppReady in web/src/app.tsx).
  // The tap stops here: a part of the page React already holds would answer it too, and a toggle pressed
  // twice stays shut. A popover's button (the phone menu) needs no app where the browser opens it.
  addEventListener('click', (event) => {
    const button = event.target instanceof Element && event.target.closest('#root button');
    if (!button || document.documentElement.dataset.app === 'ready') return;
    start();
    if (button.hasAttribute('popovertarget') && 'popover' in HTMLElement.prototype) return;
    window.pendingTap = button;
    event.stopPropagation();
  }, true);
} else {
  start();
}
`;
}
