import { useEffect, useRef } from 'react';
import { Toast } from 'radix-ui';
import { cn } from '../../lib/cn.ts';
import { CloseButton } from './close-button.tsx';
import { dismissToast, TOAST_DURATION_MS, useToasts } from './toast-store.ts';

const variants = {
  default: 'border-stage-600 bg-stage-800 text-zinc-100',
  success: 'border-emerald-500/40 bg-emerald-950 text-emerald-50',
  destructive: 'border-curtain-500/60 bg-red-950 text-red-50',
};

/**
 * The notification region; F8 moves focus to it (Radix's default hotkey). `focusOnMount`: the F8 that
 * loaded this code arrived before the region existed, so it is answered here.
 */
export function Toaster({ focusOnMount = false }: { focusOnMount?: boolean }) {
  const toasts = useToasts();
  const viewport = useRef<HTMLOListElement>(null);
  useEffect(() => {
    if (focusOnMount) viewport.current?.focus();
  }, [focusOnMount]);
  return (
    <Toast.Provider duration={TOAST_DURATION_MS} swipeDirection="right">
      {toasts.map((item) => (
        <Toast.Root
          key={item.id}
          open={item.open}
          onOpenChange={(open) => {
            if (!open) dismissToast(item.id);
          }}
          type={item.variant === 'destructive' ? 'foreground' : 'background'}
          className={cn(
            'relative grid gap-1 rounded-lg border p-4 pr-10 shadow-2xl data-[state=closed]:hidden',
            variants[item.variant ?? 'default'],
          )}
          data-testid="toast"
        >
          <Toast.Title className="text-sm font-semibold">{item.title}</Toast.Title>
          {item.description && (
            <Toast.Description className="text-sm opacity-90">{item.description}</Toast.Description>
          )}
          <CloseButton as={Toast.Close} look="toast" />
        </Toast.Root>
      ))}
      <Toast.Viewport
        ref={viewport}
        className="fixed right-0 bottom-0 z-[100] flex w-full max-w-sm flex-col gap-2 p-4 outline-none"
      />
    </Toast.Provider>
  );
}
