import type { ComponentProps } from 'react';
import { cn } from '../../lib/cn.ts';

/** A pulsing placeholder while content loads. */
export function Skeleton({ className, ...props }: ComponentProps<'div'>) {
  return <div aria-hidden className={cn('animate-pulse rounded-lg bg-white/10', className)} {...props} />;
}
