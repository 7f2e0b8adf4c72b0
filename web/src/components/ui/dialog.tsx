import { useRef, type ReactNode } from 'react';
import { Dialog as DialogPrimitive } from 'radix-ui';
import { CloseButton } from './close-button.tsx';
import { cn } from '../../lib/cn.ts';

export const Dialog = DialogPrimitive.Root;

/**
 * Where focus goes when a dialog closes: back to what opened it (Radix returns it only to a
 * Dialog.Trigger, and ours open from state), or to the page's main content when that is gone (the
 * row a confirmed delete removed), never to the top of the document.
 */
function returnFocus(opener: HTMLElement | null) {
  if (opener?.isConnected && !opener.matches(':disabled')) return opener.focus();
  const main = document.querySelector('main');
  if (!main) return;
  if (!main.hasAttribute('tabindex')) main.tabIndex = -1;
  main.focus();
}

/** A centred modal: focus trapped, Escape and the backdrop close it, page scroll locked. */
export function DialogContent({
  title,
  description,
  children,
  className,
}: {
  title: string;
  description?: string;
  children: ReactNode;
  className?: string;
}) {
  const opener = useRef<HTMLElement | null>(null);
  return (
    <DialogPrimitive.Portal>
      <DialogPrimitive.Overlay className="fixed inset-0 z-50 bg-black/75 backdrop-blur-sm" />
      <DialogPrimitive.Content
        className={cn(
          'fixed top-1/2 left-1/2 z-50 max-h-[90vh] w-[calc(100%-2rem)] max-w-lg -translate-x-1/2 -translate-y-1/2 overflow-y-auto',
          'rounded-2xl border border-white/10 bg-stage-800 p-6 shadow-2xl',
          className,
        )}
        // Opening: focus is still on what was pressed to open it.
        onOpenAutoFocus={() => {
          opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
        }}
        onCloseAutoFocus={(event) => {
          event.preventDefault();
          returnFocus(opener.current);
        }}
      >
        <DialogPrimitive.Title className="pr-8 text-xl font-semibold text-white">
          {title}
        </DialogPrimitive.Title>
        {description ? (
          <DialogPrimitive.Description className="mt-1 text-sm text-zinc-400">
            {description}
          </DialogPrimitive.Description>
        ) : (
          <DialogPrimitive.Description className="sr-only">{title}</DialogPrimitive.Description>
        )}
        <div className="mt-5">{children}</div>
        <CloseButton as={DialogPrimitive.Close} look="dialog" />
      </DialogPrimitive.Content>
    </DialogPrimitive.Portal>
  );
}
