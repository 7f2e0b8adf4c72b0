import type { ReactNode } from 'react';
import { SiteHeader } from '../../components/layout/site-header.tsx';
import { SiteFooter } from '../../components/layout/site-footer.tsx';
import { useDocumentTitle } from '../../lib/scroll.ts';
import { business } from '@app/shared/site-copy/site';

export function ShopLayout({ title, children }: { title: string; children: ReactNode }) {
  useDocumentTitle(`${title} | ${business.name}`);
  return (
    <>
      <SiteHeader />
      <main className="min-h-[70vh] px-4 pt-28 pb-20 sm:px-6">{children}</main>
      <SiteFooter />
    </>
  );
}
