import type { ComponentProps, ReactNode } from 'react';
import { cn } from '../../lib/cn.ts';

/** The site's panel: for elements other than a div (a list item, a form), put it in their className. */
export const cardClass = 'rounded-2xl border border-white/10 bg-stage-800/70';

export function Card({ className, ...props }: ComponentProps<'div'>) {
  return <div className={cn(cardClass, className)} {...props} />;
}

/** A list or page with nothing in it yet: what is missing, what will fill it, and a way to start. */
export function EmptyCard({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <Card className="p-10 text-center">
      <p className="text-lg font-semibold text-white">{title}</p>
      {children}
    </Card>
  );
}
