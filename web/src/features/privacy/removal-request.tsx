import { lazy, Suspense, useState } from 'react';
import { Flag } from 'lucide-react';

/** What the request is about: a video, or a dancer (her name on the site and her routines). */
export type RemovalTarget = { videoId: string } | { dancerId: string };

const loadDialog = () => import('./removal-request-dialog.tsx');
const RemovalRequestDialog = lazy(loadDialog);

/**
 * "Request removal" on every public video page and dancer page (docs/decisions/030). The dialog, with
 * its form and the dialog library, loads when the button is neared or pressed (decision 035's
 * addendum): a dancer's page paints without it.
 */
export function RequestRemoval({ target }: { target: RemovalTarget }) {
  const [open, setOpen] = useState(false);
  // Mounted from the first press on, so what was typed stays when it is closed and opened again.
  const [wanted, setWanted] = useState(false);
  const prefetch = () => void loadDialog();
  return (
    <>
      <button
        type="button"
        onClick={() => {
          setWanted(true);
          setOpen(true);
        }}
        onPointerEnter={prefetch}
        onFocus={prefetch}
        onTouchStart={prefetch}
        className="mt-8 inline-flex items-center gap-1.5 text-sm text-zinc-400 underline-offset-4 hover:text-white hover:underline"
      >
        <Flag className="size-4" aria-hidden /> Request removal
      </button>
      {wanted && (
        <Suspense>
          <RemovalRequestDialog target={target} open={open} onOpenChange={setOpen} />
        </Suspense>
      )}
    </>
  );
}
