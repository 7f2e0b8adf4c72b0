import { Ban } from 'lucide-react';
import { VIDEO_WITHDRAWN_MESSAGE } from '@app/shared/privacy';
import { cardClass } from '../../components/ui/card.tsx';

/** What a buyer sees of a video taken down after a removal request, instead of a player or download. */
export function WithdrawnNotice({ compact = false }: { compact?: boolean }) {
  if (compact)
    return (
      <p className="inline-flex items-center gap-1.5 text-sm text-zinc-400">
        <Ban className="size-4" aria-hidden /> {VIDEO_WITHDRAWN_MESSAGE}
      </p>
    );
  return (
    <div role="status" className={`${cardClass} mt-8 max-w-lg p-6`}>
      <h2 className="flex items-center gap-2 text-lg font-semibold text-white">
        <Ban className="size-5 text-spotlight-400" aria-hidden /> {VIDEO_WITHDRAWN_MESSAGE}
      </h2>
      <p className="mt-2 text-sm text-zinc-400">
        The studio or a family asked for it to be taken down, so it can no longer be watched or downloaded. If
        you have questions about your purchase, reply to your receipt.
      </p>
    </div>
  );
}
