import type { ComponentType } from 'react';
import { useLocation } from 'wouter';
import HomePage from '../../pages/home.tsx';
import { gatedAdminPage } from './admin-gate.tsx';

// The admin screens by path. They live here, not in app.tsx, so the home page's first-load script
// carries one lazy admin route instead of one per screen.
const screens: Record<string, ComponentType> = {
  '/admin': gatedAdminPage(() => import('../../pages/admin/dashboard.tsx')),
  '/admin/contacts': gatedAdminPage(() => import('../../pages/admin/contacts.tsx')),
  '/admin/events': gatedAdminPage(() => import('../../pages/admin/events.tsx')),
  '/admin/videos': gatedAdminPage(() => import('../../pages/admin/videos.tsx')),
  '/admin/portfolio': gatedAdminPage(() => import('../../pages/admin/portfolio.tsx')),
  '/admin/sales': gatedAdminPage(() => import('../../pages/admin/sales.tsx')),
  '/admin/gst': gatedAdminPage(() => import('../../pages/admin/gst.tsx')),
  '/admin/jobs': gatedAdminPage(() => import('../../pages/admin/jobs.tsx')),
  '/admin/sync': gatedAdminPage(() => import('../../pages/admin/sync.tsx')),
  '/admin/testimonials': gatedAdminPage(() => import('../../pages/admin/testimonials.tsx')),
  '/admin/removal-requests': gatedAdminPage(() => import('../../pages/admin/removal-requests.tsx')),
  '/admin/audit-log': gatedAdminPage(() => import('../../pages/admin/audit-log.tsx')),
  '/admin/programmes': gatedAdminPage(() => import('../../pages/admin/programmes.tsx')),
  '/admin/uploads': gatedAdminPage(() => import('../../pages/admin/bulk-upload.tsx')),
  '/admin/season': gatedAdminPage(() => import('../../pages/admin/season.tsx')),
};

/** Every /admin path: its screen behind the login, or the home page for a path that has none. */
export default function AdminArea() {
  const [location] = useLocation();
  const Screen = screens[location.replace(/(.)\/$/, '$1')] ?? HomePage;
  return <Screen />;
}
