import { lazy, Suspense, useEffect, useState } from 'react';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { Route, Switch } from 'wouter';
import { useToasts } from './components/ui/toast-store.ts';
import { PageFallback } from './components/layout/page-fallback.tsx';
import { lazyPage, type LazyPage } from './lib/lazy-page.ts';
import { PageHead } from './lib/page-head.ts';
import HomePage from './pages/home.tsx';
import { services } from '@app/shared/site-copy/site';

// Home is in the main bundle (it is the landing page and the not-found page); every other screen
// loads on demand, so a visitor to / never downloads the shop or the admin area.

const ServicePage = lazyPage(() => import('./pages/service-page.tsx'));
const FacebookCoverPage = lazyPage(() => import('./pages/facebook-cover.tsx'));
const PrivacyPage = lazyPage(() => import('./pages/privacy.tsx'));
const VideosPage = lazyPage(() => import('./pages/shop/videos.tsx'));
const PurchasePage = lazyPage(() => import('./pages/shop/purchase.tsx'));
const DownloadPage = lazyPage(() => import('./pages/shop/download.tsx'));
const PurchaseSuccessPage = lazyPage(() => import('./pages/shop/purchase-success.tsx'));
const PaymentOptionsPage = lazyPage(() => import('./pages/shop/payment-options.tsx'));
const CartPage = lazyPage(() => import('./pages/shop/cart.tsx'));
const PerformerPage = lazyPage(() => import('./pages/shop/performer.tsx'));
const OnlineAlertPage = lazyPage(() => import('./pages/shop/online-alert.tsx'));
const MyVideosPage = lazyPage(() => import('./pages/shop/my-videos.tsx'));
const BuyerSignInPage = lazyPage(() =>
  import('./pages/shop/my-videos.tsx').then((module) => ({ default: module.SignInPage })),
);
// Every admin screen, and the login gate in front of them, loads only when the admin area is visited.
const AdminArea = lazyPage(() => import('./features/admin-shell/admin-area.tsx'));
const PaymentIssuePage = lazyPage(() =>
  import('./pages/shop/payment-options.tsx').then((module) => ({ default: module.PaymentIssuePage })),
);

const routes: Array<{ path: string; component: LazyPage }> = [
  ...services.map((service) => ({ path: service.path, component: ServicePage })),
  { path: '/facebook-cover', component: FacebookCoverPage },
  { path: '/privacy', component: PrivacyPage },
  // A showcase's own page (/videos/<slug>) is in the library's code.
  { path: '/videos/:slug?', component: VideosPage },
  { path: '/video/:id/purchase', component: PurchasePage },
  { path: '/video/:id/download', component: DownloadPage },
  { path: '/video-purchase-success', component: PurchaseSuccessPage },
  { path: '/cart', component: CartPage },
  { path: '/video-payment-options', component: PaymentOptionsPage },
  { path: '/video-payment-issue', component: PaymentIssuePage },
  { path: '/my-videos', component: MyVideosPage },
  { path: '/dancers/:id', component: PerformerPage },
  { path: '/studios/:id', component: PerformerPage },
  { path: '/online-alerts/:id/:action', component: OnlineAlertPage },
  { path: '/my-videos/sign-in', component: BuyerSignInPage },
  { path: '/admin', component: AdminArea },
  { path: '/admin/*', component: AdminArea },
];

// The toast region's code stays out of the first page load: it loads once the page is idle, with the
// first toast, or on F8, so F8 (the region's hotkey) reaches it before any toast has appeared.
const Toaster = lazy(() =>
  import('./components/ui/toaster.tsx').then((module) => ({ default: module.Toaster })),
);

function Notifications() {
  const toasts = useToasts();
  const [wanted, setWanted] = useState<'idle' | 'mounted' | 'focus'>('idle');
  useEffect(() => {
    if (wanted !== 'idle') return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'F8') setWanted('focus');
    };
    const idle = window.setTimeout(() => setWanted((now) => (now === 'idle' ? 'mounted' : now)), 2_000);
    window.addEventListener('keydown', onKey);
    return () => {
      window.clearTimeout(idle);
      window.removeEventListener('keydown', onKey);
    };
  }, [wanted]);
  if (wanted === 'idle' && toasts.length === 0) return null;
  return (
    <Suspense>
      <Toaster focusOnMount={wanted === 'focus'} />
    </Suspense>
  );
}

/** A route's path as a pattern: `:name` one segment, `:name?` an optional one, `*` the rest. */
const routePattern = (path: string) =>
  new RegExp(
    `^${path
      .replace(/\/:\w+\?/g, '(?:/[^/]+)?')
      .replace(/:\w+/g, '[^/]+')
      .replace(/\*/g, '.*')}/?$`,
    'i',
  );

/** Loads the code of the screen at `path` ahead of the first render (main.tsx); home is always loaded. */
export function preloadScreen(path: string): Promise<unknown> {
  return (
    routes.find((route) => routePattern(route.path).test(path))?.component.preload() ?? Promise.resolve()
  );
}

declare global {
  interface Window {
    /** A button tapped on the painted page before the app ran (web/start-after-paint.ts). */
    pendingTap?: Element;
  }
}

/**
 * Marks the page as the app's (`<html data-app="ready">`) once the first screen is in React's hands,
 * and presses a button tapped before then. Inside the screens' Suspense boundary: hydration takes a
 * boundary over after the rest, and a press on a button not yet taken over would go unanswered.
 */
function AppReady() {
  useEffect(() => {
    document.documentElement.dataset.app = 'ready';
    const tap = window.pendingTap;
    window.pendingTap = undefined;
    if (tap instanceof HTMLElement && tap.isConnected) tap.click();
  }, []);
  return null;
}

export function App({ queryClient }: { queryClient: QueryClient }) {
  return (
    <QueryClientProvider client={queryClient}>
      <PageHead />
      <Suspense fallback={<PageFallback />}>
        <Switch>
          {routes.map(({ path, component }) => (
            <Route key={path} path={path} component={component} />
          ))}
          <Route component={HomePage} />
        </Switch>
        <AppReady />
      </Suspense>
      <Notifications />
    </QueryClientProvider>
  );
}
