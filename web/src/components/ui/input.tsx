import type { ComponentProps } from 'react';
import { cn } from '../../lib/cn.ts';

const field =
  'rounded-lg border border-stage-600 bg-stage-950/60 px-3 py-2 text-sm text-zinc-100 placeholder:text-zinc-500 ' +
  'focus:border-spotlight-400 focus:outline-none focus:ring-2 focus:ring-spotlight-400/30 disabled:opacity-50 aria-[invalid=true]:border-curtain-500';

/** Full width unless the caller gives a width (classes are not merged, so two widths would fight). */
const width = (className?: string) => (/(^|\s)w-/.test(className ?? '') ? undefined : 'w-full');

export function Input({ className, ...props }: ComponentProps<'input'>) {
  return <input className={cn(field, width(className), 'h-10', className)} {...props} />;
}

/** A search box: its label is for screen readers (the placeholder shows what it searches). */
export function SearchInput({
  label,
  onSearch,
  ...props
}: Omit<ComponentProps<'input'>, 'onChange' | 'type'> & { label: string; onSearch: (text: string) => void }) {
  return (
    <Input
      type="search"
      aria-label={label}
      maxLength={200}
      onChange={(event) => onSearch(event.target.value)}
      {...props}
    />
  );
}

export function Textarea({ className, ...props }: ComponentProps<'textarea'>) {
  return <textarea className={cn(field, width(className), 'min-h-28', className)} {...props} />;
}

export function Select({ className, ...props }: ComponentProps<'select'>) {
  return <select className={cn(field, width(className), 'h-10', className)} {...props} />;
}

export function Label({ className, ...props }: ComponentProps<'label'>) {
  return <label className={cn('mb-1.5 block text-sm font-medium text-zinc-200', className)} {...props} />;
}

/** A field's validation message, announced to screen readers. */
export function FieldError({ id, message }: { id?: string; message?: string }) {
  if (!message) return null;
  return (
    <p id={id} role="alert" className="mt-1 text-sm text-red-300">
      {message}
    </p>
  );
}
