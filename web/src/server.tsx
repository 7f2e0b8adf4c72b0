// The pages the api sends rendered (api/src/site/web.ts, decision 013), built with `vite build --ssr` into
// dist-server. The same components as in the browser, so there is one copy of each page's markup.
import { text } from 'node:stream/consumers';
import { prerenderToNodeStream } from 'react-dom/static';
import { Router } from 'wouter';
import { App } from './app.tsx';
import type { PublicConfig } from '@app/shared/schemas';
import { setPublicConfig } from './lib/public-config.ts';
import { createQueryClient } from './lib/query-client.ts';

/**
 * The markup of the page at `path` (with its query string `search`), given the lists it shows by route (`data`, as the routes answer
 * them). Waits for the page's lazily loaded code, so the result is the page, never its spinner.
 */
export async function renderPage(
  path: string,
  data: Record<string, unknown>,
  config: PublicConfig,
  search = '',
): Promise<string> {
  setPublicConfig(config);
  const queryClient = createQueryClient();
  for (const [url, value] of Object.entries(data)) queryClient.setQueryData([url], value);
  const { prelude } = await prerenderToNodeStream(
    <Router ssrPath={path} ssrSearch={search}>
      <App queryClient={queryClient} />
    </Router>,
  );
  return text(prelude);
}
