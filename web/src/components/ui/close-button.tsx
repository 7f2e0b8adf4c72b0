import type { ComponentType, ReactNode } from 'react';
import { X } from 'lucide-react';

// Where each corner ✕ sits and how large it is: the lightbox's sits on a photo, a toast's is small.
const looks = {
  dialog: [
    'absolute top-4 right-4 rounded-full p-1.5 text-zinc-400 hover:bg-white/10 hover:text-white',
    'size-5',
  ],
  lightbox: ['absolute top-4 right-4 rounded-full bg-white/10 p-2 text-white hover:bg-white/20', 'size-6'],
  toast: ['absolute top-3 right-3 rounded p-1 opacity-70 transition hover:opacity-100', 'size-4'],
} as const;

/** The corner ✕ of a dialog, the lightbox or a toast; `as` is the Radix part that closes it. */
export function CloseButton({
  as: Close,
  look,
}: {
  as: ComponentType<{ 'aria-label': string; className: string; children: ReactNode }>;
  look: keyof typeof looks;
}) {
  const [className, iconClassName] = looks[look];
  return (
    <Close aria-label="Close" className={className}>
      <X className={iconClassName} aria-hidden />
    </Close>
  );
}
