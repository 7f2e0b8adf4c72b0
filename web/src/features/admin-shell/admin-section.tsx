import type { ReactNode } from 'react';
import { cn } from '../../lib/cn.ts';

/**
 * A titled part of an admin page: the section is named by its heading for screen readers.
 * `titleClassName` replaces the heading's colour (white) and adds to its look.
 */
export function AdminSection({
  id,
  title,
  className,
  titleClassName = 'text-white',
  children,
}: {
  id: string;
  title: ReactNode;
  className?: string;
  titleClassName?: string;
  children: ReactNode;
}) {
  return (
    <section aria-labelledby={id} className={className}>
      <h2 id={id} className={cn('font-sans text-lg font-semibold', titleClassName)}>
        {title}
      </h2>
      {children}
    </section>
  );
}
