import type { ReactNode } from 'react';
import { Link, useLocation } from 'wouter';
import { ArrowLeft, LogOut } from 'lucide-react';
import { business } from '@app/shared/content';
import { Badge } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { useDocumentTitle } from '../../lib/scroll.ts';
import { useLogout } from './session.ts';

/** The frame of every admin screen: a header with the way back and Logout (the route wraps it in AdminGate). */
export function AdminLayout({
  title,
  actions,
  children,
}: {
  title: string;
  actions?: ReactNode;
  children: ReactNode;
}) {
  useDocumentTitle(`${title} | Admin | ${business.name}`);
  const [location, navigate] = useLocation();
  const logout = useLogout();
  return (
    <div className="min-h-screen bg-stage-900">
      <header className="border-b border-white/10 bg-stage-950/90">
        <div className="mx-auto flex max-w-7xl flex-wrap items-center justify-between gap-3 px-4 py-4 sm:px-6">
          <div className="flex items-center gap-3">
            {location !== '/admin' && (
              <Button asChild variant="ghost" size="sm">
                <Link href="/admin">
                  <ArrowLeft className="size-4" aria-hidden /> Back to Admin
                </Link>
              </Button>
            )}
            <h1 className="text-xl font-bold text-white sm:text-2xl">{title}</h1>
            <Badge>Admin Panel</Badge>
          </div>
          <div className="flex items-center gap-2">
            {actions}
            <Button
              variant="secondary"
              size="sm"
              onClick={() => logout.mutate(undefined, { onSettled: () => navigate('/admin') })}
            >
              <LogOut className="size-4" aria-hidden /> Logout
            </Button>
          </div>
        </div>
      </header>
      <main className="mx-auto max-w-7xl px-4 py-8 sm:px-6">{children}</main>
    </div>
  );
}
