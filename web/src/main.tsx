import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App, preloadScreen } from './app.tsx';
import { createQueryClient } from './lib/query-client.ts';
import './styles.css';

const queryClient = createQueryClient();
// A page the server rendered carries the lists it shows (api/src/web.ts): start from them, so the
// first render matches the server's markup instead of showing skeletons and asking again.
const pageData = document.getElementById('page-data')?.textContent;
if (pageData) {
  for (const [url, data] of Object.entries(JSON.parse(pageData) as Record<string, unknown>)) {
    queryClient.setQueryData([url], data);
  }
}

const root = document.getElementById('root')!;

function start() {
  // A transition: the first render yields to the browser every few milliseconds instead of holding
  // the main thread for the whole page, so the server's first paint stays responsive meanwhile.
  startTransition(() => {
    createRoot(root).render(
      <StrictMode>
        <App queryClient={queryClient} />
      </StrictMode>,
    );
  });
}

// The server painted this page: wait for its screen's code, so React replaces the painted page with
// the same page rather than with a loading spinner first. (A promise, not a top-level await, which
// would make the bundler split the entry into many small chunks.)
if (root.firstElementChild) void preloadScreen(window.location.pathname).then(start, start);
else start();
