import type { ComponentProps } from 'react';
import { Lock } from 'lucide-react';
import { cn } from '../../lib/cn.ts';

const variants = {
  default: 'bg-spotlight-400/15 text-spotlight-300 ring-spotlight-400/30',
  neutral: 'bg-white/10 text-zinc-200 ring-white/15',
  success: 'bg-emerald-500/15 text-emerald-300 ring-emerald-400/30',
  danger: 'bg-curtain-500/15 text-red-300 ring-curtain-500/30',
};

export function Badge({
  variant = 'default',
  className,
  ...props
}: ComponentProps<'span'> & { variant?: keyof typeof variants }) {
  return (
    <span
      className={cn(
        'inline-flex items-center gap-1 rounded-full px-2.5 py-0.5 text-xs font-semibold ring-1 ring-inset',
        variants[variant],
        className,
      )}
      {...props}
    />
  );
}

/** Marks a video that needs the password its owner was given. */
export function ProtectedBadge(props: Omit<ComponentProps<'span'>, 'children'>) {
  return (
    <Badge variant="neutral" {...props}>
      <Lock className="size-3" aria-hidden /> Protected
    </Badge>
  );
}
