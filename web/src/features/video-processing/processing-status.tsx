import { useQueryClient } from '@tanstack/react-query';
import { AlertTriangle, CheckCircle2, Loader2, RotateCcw } from 'lucide-react';
import { formatDuration } from '@app/shared/format';
import type { VideoProcessing } from '@app/shared/schemas';
import { Badge } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { api } from '../../lib/api.ts';
import { useAdminMutation } from '../admin-shell/admin-mutation.ts';

const busy = (processing: VideoProcessing) =>
  processing.state === 'queued' || processing.state === 'processing';

/** The admin videos list polls every 2 s while the worker has one of them in hand, else not at all. */
export const processingRefetchInterval = ({
  state,
}: {
  state: { data?: Array<{ processing: VideoProcessing }> };
}) => (state.data?.some((video) => busy(video.processing)) ? 2_000 : false);

function StateBadge({ processing }: { processing: VideoProcessing }) {
  switch (processing.state) {
    case 'queued':
      return <Badge variant="neutral">Queued for processing</Badge>;
    case 'processing':
      return (
        <Badge>
          <Loader2 className="size-3 animate-spin" aria-hidden /> Processing {processing.progress ?? 0}%
        </Badge>
      );
    case 'ready':
      return (
        <Badge variant="success">
          <CheckCircle2 className="size-3" aria-hidden /> Ready
        </Badge>
      );
    case 'failed':
      return (
        <Badge variant="danger">
          <AlertTriangle className="size-3" aria-hidden /> Processing failed
        </Badge>
      );
    default:
      return <Badge variant="neutral">Not processed</Badge>;
  }
}

/**
 * A video's processing by the worker (probe, poster, preview clip, fast-start copy): its state, what
 * was found (length, picture size), why it failed, and "Process again".
 */
export function ProcessingStatus({ video }: { video: { id: string; processing: VideoProcessing } }) {
  const client = useQueryClient();
  const { processing } = video;
  const again = useAdminMutation({
    mutationFn: () => api.post(`/api/admin/videos/${encodeURIComponent(video.id)}/process`),
    onSuccess: () => client.invalidateQueries({ queryKey: ['/api/admin/videos'] }),
    failure: 'Could not process again',
  });
  const media = processing.media;
  return (
    <div className="mt-3 space-y-2 text-xs" data-testid="video-processing">
      <div className="flex flex-wrap items-center gap-2" aria-live="polite">
        <StateBadge processing={processing} />
        {media && (
          <span className="text-zinc-400">
            {formatDuration(media.durationSeconds)} · {media.width}×{media.height}
            {!media.fastStart && media.streamKey && ' · streams from a fast-start copy'}
          </span>
        )}
      </div>
      {processing.state === 'failed' && processing.error && (
        <>
          <p className="text-red-300">{processing.error}</p>
          <p className="text-zinc-400">
            Visitors cannot see or buy it until it is fixed: Edit it and upload the file again to replace
            it, and it is processed anew.
          </p>
        </>
      )}
      {/* Also while queued: a video saved while Redis was away is queued without a job behind it. */}
      {processing.state !== 'processing' && (
        <Button size="sm" variant="secondary" disabled={again.isPending} onClick={() => again.mutate()}>
          <RotateCcw className="size-3" aria-hidden /> {again.isPending ? 'Queuing...' : 'Process again'}
        </Button>
      )}
    </div>
  );
}
