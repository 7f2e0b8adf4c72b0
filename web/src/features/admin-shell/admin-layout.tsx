import type { ReactNode } from 'react';
import { Link, useLocation } from 'wouter';
import { ArrowLeft, LogOut } from 'lucide-react';
import { business } from '@app/shared/site-copy/site';
import { Badge } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { cn } from '../../lib/cn.ts';
import { useDocumentTitle } from '../../lib/scroll.ts';
import { useLogout } from './session.ts';

/**
 * The frame of every admin screen: a header with the way back and Logout (the route wraps it in
 * AdminGate), and `intro`, a short paragraph saying what the screen is for, above its content.
 */
export function AdminLayout({
  title,
  actions,
  intro,
  children,
}: {
  title: string;
  actions?: ReactNode;
  intro?: ReactNode;
  children: ReactNode;
}) {
  useDocumentTitle(`${title} | Admin | ${business.name}`);
  const [location, navigate] = useLocation();
  const logout = useLogout();
  const hasBack = location !== '/admin';
  return (
    <div className="min-h-screen bg-stage-900">
      <header className="border-b border-white/10 bg-stage-950/90">
        {/* Phones: the way back and Logout on the first row, the title below, then the screen's actions. */}
        <div className="mx-auto grid max-w-7xl grid-cols-[1fr_auto] items-center gap-3 px-4 py-4 sm:flex sm:flex-wrap sm:px-6">
          {hasBack && (
            <Button asChild variant="ghost" size="sm" className="-ml-3 justify-self-start sm:ml-0">
              <Link href="/admin">
                <ArrowLeft className="size-4" aria-hidden /> Back to Admin
              </Link>
            </Button>
          )}
          <div
            className={cn(
              'flex min-w-0 flex-wrap items-center gap-x-3 gap-y-1',
              hasBack ? 'col-span-2' : 'col-start-1 row-start-1',
            )}
          >
            <h1 className="text-xl font-bold text-white sm:text-2xl">{title}</h1>
            <Badge className="whitespace-nowrap">Admin Panel</Badge>
          </div>
          {actions && (
            <div className="col-span-2 flex flex-wrap items-center gap-2 sm:ml-auto">{actions}</div>
          )}
          <Button
            variant="secondary"
            size="sm"
            className={cn('col-start-2 row-start-1 justify-self-end', !actions && 'sm:ml-auto')}
            onClick={() => logout.mutate(undefined, { onSettled: () => navigate('/admin') })}
          >
            <LogOut className="size-4" aria-hidden /> Logout
          </Button>
        </div>
      </header>
      <main className="mx-auto max-w-7xl px-4 py-8 sm:px-6">
        {intro && <p className="mb-6 max-w-3xl text-sm text-zinc-400">{intro}</p>}
        {children}
      </main>
    </div>
  );
}
