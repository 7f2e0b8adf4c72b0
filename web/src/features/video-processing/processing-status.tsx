import { useQueryClient } from '@tanstack/react-query';
import { AlertTriangle, CheckCircle2, Layers, Loader2, RotateCcw } from 'lucide-react';
import { formatDuration } from '@app/shared/format';
import type { VideoProcessing } from '@app/shared/schemas';
import { Badge } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { api } from '../../lib/api.ts';
import { useAdminMutation } from '../admin-shell/admin-mutation.ts';
import { adminKeys } from '../admin-shell/query-keys.ts';

const busy = (processing: VideoProcessing) =>
  processing.state === 'queued' ||
  processing.state === 'processing' ||
  processing.media?.hls?.state === 'queued' ||
  processing.media?.hls?.state === 'processing';

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

/** The adaptive stream's state; a failure leaves the video playing from its fast-start copy. */
function StreamLine({ processing }: { processing: VideoProcessing }) {
  const stream = processing.media?.hls;
  if (processing.state !== 'ready') return null;
  if (!stream) return <p className="text-zinc-400">No adaptive stream yet (the sweep above makes it).</p>;
  switch (stream.state) {
    case 'queued':
      return <p className="text-zinc-400">Adaptive stream queued{stream.error ? `: ${stream.error}` : ''}</p>;
    case 'processing':
      return <p className="text-zinc-300">Making the adaptive stream {processing.streamProgress ?? 0}%</p>;
    case 'ready':
      return (
        <p className="text-zinc-400">
          Adaptive stream:{' '}
          {stream.renditions.map((r) => (r.copy ? `${r.height}p (original)` : r.name)).join(', ')}
        </p>
      );
    case 'failed':
      return (
        <p className="text-amber-300">
          Adaptive stream failed: {stream.error} Buyers play the fast-start copy.
        </p>
      );
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
    onSuccess: () => client.invalidateQueries({ queryKey: adminKeys.videos.all }),
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
      <div aria-live="polite">
        <StreamLine processing={processing} />
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

/**
 * The owner's sweep: adaptive streams for the ready videos that have none (processed before streams
 * existed, or whose stream failed). The worker makes them one at a time, after new uploads.
 */
export function StreamSweepButton() {
  const client = useQueryClient();
  const sweep = useAdminMutation({
    mutationFn: () => api.post<{ queued: number }>('/api/admin/videos/streams/sweep'),
    onSuccess: () => client.invalidateQueries({ queryKey: adminKeys.videos.all }),
    success: ({ queued }) =>
      queued === 0
        ? 'Every ready video has an adaptive stream'
        : `Adaptive streams queued for ${queued} videos`,
    failure: 'Could not queue adaptive streams',
  });
  return (
    <Button variant="secondary" disabled={sweep.isPending} onClick={() => sweep.mutate()}>
      <Layers className="size-4" aria-hidden /> {sweep.isPending ? 'Queuing...' : 'Make adaptive streams'}
    </Button>
  );
}
