import { lazy, Suspense } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { Route, Switch } from 'wouter';
import { createQueryClient } from './lib/query-client.ts';
import { useToasts } from './components/ui/toast-store.ts';
import { gatedAdminPage } from './features/admin/admin-gate.tsx';
import { PageFallback } from './components/layout/page-fallback.tsx';
import { PageHead } from './lib/page-head.ts';
import HomePage from './pages/home.tsx';
import { services } from '@app/shared/content';

// Home is in the main bundle (it is the landing page and the not-found page); every other screen
// loads on demand, so a visitor to / never downloads the shop or the admin area.
const ServicePage = lazy(() => import('./pages/service-page.tsx'));
const FacebookCoverPage = lazy(() => import('./pages/facebook-cover.tsx'));
const VideosPage = lazy(() => import('./pages/shop/videos.tsx'));
const PurchasePage = lazy(() => import('./pages/shop/purchase.tsx'));
const DownloadPage = lazy(() => import('./pages/shop/download.tsx'));
const PurchaseSuccessPage = lazy(() => import('./pages/shop/purchase-success.tsx'));
const PaymentOptionsPage = lazy(() => import('./pages/shop/payment-options.tsx'));
const AdminDashboardPage = gatedAdminPage(() => import('./pages/admin/dashboard.tsx'));
const AdminContactsPage = gatedAdminPage(() => import('./pages/admin/contacts.tsx'));
const AdminEventsPage = gatedAdminPage(() => import('./pages/admin/events.tsx'));
const AdminVideosPage = gatedAdminPage(() => import('./pages/admin/videos.tsx'));
const AdminSalesPage = gatedAdminPage(() => import('./pages/admin/sales.tsx'));
const AdminJobsPage = gatedAdminPage(() => import('./pages/admin/jobs.tsx'));
const AdminSyncPage = gatedAdminPage(() => import('./pages/admin/sync.tsx'));
const PaymentIssuePage = lazy(() =>
  import('./pages/shop/payment-options.tsx').then((module) => ({ default: module.PaymentIssuePage })),
);

const routes: Array<{ path: string; component: React.ComponentType }> = [
  ...services.map((service) => ({ path: service.path, component: ServicePage })),
  { path: '/facebook-cover', component: FacebookCoverPage },
  { path: '/videos', component: VideosPage },
  { path: '/video/:id/purchase', component: PurchasePage },
  { path: '/video/:id/download', component: DownloadPage },
  { path: '/video-purchase-success', component: PurchaseSuccessPage },
  { path: '/video-payment-options', component: PaymentOptionsPage },
  { path: '/video-payment-issue', component: PaymentIssuePage },
  { path: '/admin', component: AdminDashboardPage },
  { path: '/admin/contacts', component: AdminContactsPage },
  { path: '/admin/events', component: AdminEventsPage },
  { path: '/admin/videos', component: AdminVideosPage },
  { path: '/admin/sales', component: AdminSalesPage },
  { path: '/admin/jobs', component: AdminJobsPage },
  { path: '/admin/sync', component: AdminSyncPage },
];

const queryClient = createQueryClient();

// The toast region's code loads with the first toast, keeping it out of the first page load.
const Toaster = lazy(() =>
  import('./components/ui/toaster.tsx').then((module) => ({ default: module.Toaster })),
);

function Notifications() {
  const toasts = useToasts();
  if (toasts.length === 0) return null;
  return (
    <Suspense>
      <Toaster />
    </Suspense>
  );
}

export function App() {
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
      </Suspense>
      <Notifications />
    </QueryClientProvider>
  );
}
