import type { ComponentType } from 'react';
import { useLocation } from 'wouter';
import HomePage from '../../pages/home.tsx';
import { gatedAdminPage } from './admin-gate.tsx';
import { adminScreens } from './screens.ts';

// The admin screens by path (screens.ts). They live here, not in app.tsx, so the home page's first-load
// script carries one lazy admin route instead of one per screen.
const screens: Record<string, ComponentType> = {
  '/admin': gatedAdminPage(() => import('../admin-dashboard/dashboard-page.tsx')),
  ...Object.fromEntries(adminScreens.map((screen) => [screen.path, gatedAdminPage(screen.page)])),
};

/** Every /admin path: its screen behind the login, or the home page for a path that has none. */
export default function AdminArea() {
  const [location] = useLocation();
  const Screen = screens[location.replace(/(.)\/$/, '$1')] ?? HomePage;
  return <Screen />;
}
