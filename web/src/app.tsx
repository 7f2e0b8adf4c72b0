import { Suspense } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { Route, Switch } from 'wouter';
import { createQueryClient } from './lib/query-client.ts';
import { Toaster } from './components/ui/toaster.tsx';
import { PageFallback } from './components/layout/page-fallback.tsx';
import HomePage from './pages/home.tsx';

// Home is in the main bundle (it is the landing page and the not-found page); every other screen
// loads on demand, so a visitor to / never downloads the shop or the admin area.
const routes: Array<{ path: string; component: React.ComponentType }> = [];

const queryClient = createQueryClient();

export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <Suspense fallback={<PageFallback />}>
        <Switch>
          {routes.map(({ path, component }) => (
            <Route key={path} path={path} component={component} />
          ))}
          <Route component={HomePage} />
        </Switch>
      </Suspense>
      <Toaster />
    </QueryClientProvider>
  );
}
