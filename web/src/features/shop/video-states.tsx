import { useEffect, type ReactNode } from 'react';
import { Link } from 'wouter';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { toast } from '../../components/ui/toast-store.ts';
import { isApiError } from '../../lib/api.ts';
import { ACCESS_CODE_REQUIRED, VIDEO_WITHDRAWN, VIDEO_WITHDRAWN_MESSAGE } from '@app/shared/privacy';
import { AccessCodeForm } from '../privacy/access-code-form.tsx';
import { WithdrawnNotice } from '../privacy/withdrawn-notice.tsx';
import { ShopLayout } from './shop-layout.tsx';

export function VideoLoading({ title }: { title: string }) {
  return (
    <ShopLayout title={title}>
      <div className="mx-auto grid max-w-5xl animate-pulse gap-10 lg:grid-cols-2" role="status">
        <span className="sr-only">Loading video...</span>
        <div className="aspect-video rounded-2xl bg-stage-700/70" />
        <div className="space-y-4">
          <div className="h-8 w-2/3 rounded bg-stage-700/70" />
          <div className="h-4 w-full rounded bg-stage-700/50" />
          <div className="h-4 w-5/6 rounded bg-stage-700/50" />
        </div>
      </div>
    </ShopLayout>
  );
}

/**
 * A video behind its showcase's access code asks for the code; a withdrawn one says so (its buyers
 * arrive here from their library or receipt); otherwise VideoProblem.
 */
export function VideoLoadProblem({ error, videoId }: { error: unknown; videoId: string }) {
  if (isApiError(error, ACCESS_CODE_REQUIRED))
    return (
      <ShopLayout title="Private showcase">
        <div className="mx-auto max-w-lg">
          <AccessCodeForm target={{ videoId }} />
        </div>
      </ShopLayout>
    );
  if (isApiError(error, VIDEO_WITHDRAWN))
    return (
      <ShopLayout title={VIDEO_WITHDRAWN_MESSAGE}>
        <div className="mx-auto max-w-lg">
          <WithdrawnNotice />
        </div>
      </ShopLayout>
    );
  return <VideoProblem error={error} />;
}

/** 'Video Not Found' for a 404, otherwise 'Error: Failed to load video details.' */
function VideoProblem({ error }: { error: unknown }) {
  const missing = isApiError(error, 'not_found');
  useEffect(() => {
    toast(
      missing
        ? {
            title: 'Video not found',
            description: 'The requested video could not be found.',
            variant: 'destructive',
          }
        : { title: 'Error', description: 'Failed to load video details.', variant: 'destructive' },
    );
  }, [missing]);
  return (
    <VideoMessage title={missing ? 'Video Not Found' : 'Error'}>
      <p className="mt-3 text-zinc-400">
        {missing
          ? 'The requested video could not be found. It may have been removed, or the link is incomplete.'
          : 'Failed to load video details.'}
      </p>
    </VideoMessage>
  );
}

/** A video whose file could not be prepared: its page says so instead of offering it. */
export function VideoNotAvailable({ title }: { title: string }) {
  return (
    <VideoMessage title={title}>
      <p className="mt-3 text-zinc-400" role="status">
        This video is not available.
      </p>
    </VideoMessage>
  );
}

/** A video page that can only say why: `title` as its heading, the message, and the way back. */
function VideoMessage({ title, children }: { title: string; children: ReactNode }) {
  return (
    <ShopLayout title={title}>
      <Card className="mx-auto max-w-lg p-8 text-center">
        <h1 className="text-3xl font-bold text-white">{title}</h1>
        {children}
        <Button asChild className="mt-6">
          <Link href="/videos">Back to Videos</Link>
        </Button>
      </Card>
    </ShopLayout>
  );
}
