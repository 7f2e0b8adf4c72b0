import type { ComponentProps } from 'react';
import { cn } from '../../lib/cn.ts';

/** A pulsing placeholder while content loads. */
export function Skeleton({ className, ...props }: ComponentProps<'div'>) {
  return <div aria-hidden className={cn('animate-pulse rounded-lg bg-white/10', className)} {...props} />;
}

/** `count` pulsing list items standing in for a list that is loading; `className` gives their size and corners. */
export function SkeletonItems({
  count,
  className,
  testId,
}: {
  count: number;
  className: string;
  testId?: string;
}) {
  return Array.from({ length: count }, (_, index) => (
    <li key={index} aria-hidden className={cn('animate-pulse bg-white/10', className)} data-testid={testId} />
  ));
}
