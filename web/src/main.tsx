import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App, preloadScreen } from './app.tsx';
import { createQueryClient } from './lib/query-client.ts';
import './styles.css';

const queryClient = createQueryClient();
// A page the server rendered carries the lists it shows (api/src/site/web.ts): start from them, so the
// first render matches the server's markup instead of showing skeletons and asking again.
const pageData = document.getElementById('page-data')?.textContent;
if (pageData) {
  for (const [url, data] of Object.entries(JSON.parse(pageData) as Record<string, unknown>)) {
    queryClient.setQueryData([url], data);
  }
}

const root = document.getElementById('root')!;
const app = (
  <StrictMode>
    <App queryClient={queryClient} />
  </StrictMode>
);

// A transition: the first render yields to the browser every few milliseconds instead of holding the
// main thread for the whole page, so the server's first paint stays responsive meanwhile.
function start() {
  // The page's markup came from the app itself (web/src/server.tsx): React adopts it as it is, so the
  // painted page, its pictures included, is never replaced. A page that arrived empty is rendered.
  if (root.hasAttribute('data-hydrate')) startTransition(() => void hydrateRoot(root, app));
  else startTransition(() => createRoot(root).render(app));
}

// The server painted this page: wait for its screen's code, so React takes it over with the same page
// rather than with a loading spinner first. So too when the page's head names that code (a download
// page, api/src/site/module-preloads.ts): it is on its way, and a spinner once shown stays at least
// 300 ms (React's pace for revealing what was suspended), which would hold back the player.
// (A promise, not a top-level await, which would make the bundler split the entry into many small chunks.)
if (root.firstElementChild || root.hasAttribute('data-screen-preloaded'))
  void preloadScreen(window.location.pathname).then(start, start);
else start();
