import { Link } from 'wouter';
import { formatPrice } from '@app/shared/format';
import { Badge, ProtectedBadge } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { availabilityNotice, downloadPath, purchasePath, type Video } from './queries.ts';
import { VideoPreview } from './video-preview.tsx';
import { AddToCartButton } from '../cart/add-to-cart.tsx';

/** One video in the library's grids: picture, title, Free badge or NZ$ price, and its action. */
export function VideoCard({ video, priority = false }: { video: Video; priority?: boolean }) {
  const free = video.priceCents === 0;
  return (
    <li className="flex flex-col overflow-hidden rounded-2xl border border-white/10 bg-stage-800/80">
      <VideoPreview
        previewUrl={video.previewUrl}
        previewClipUrl={video.previewClipUrl}
        title={video.title}
        priority={priority}
      />
      <div className="flex flex-1 flex-col p-5">
        <div className="flex items-start justify-between gap-3">
          <h3 className="text-lg font-semibold text-white">{video.title}</h3>
          {free ? <Badge variant="success">Free</Badge> : <Badge>{formatPrice(video.priceCents)}</Badge>}
        </div>
        <p className="mt-2 flex-1 text-sm text-zinc-400">{video.description}</p>
        {video.passwordProtected && (
          <ProtectedBadge className="mt-3 self-start" title="Needs the password you were given" />
        )}
        {free ? (
          <Button asChild className="mt-5" variant="secondary">
            <Link href={downloadPath(video.id)}>Get / Download</Link>
          </Button>
        ) : availabilityNotice(video) ? (
          <p className="mt-5 text-sm text-zinc-300">{availabilityNotice(video)}</p>
        ) : (
          <div className="mt-5 grid grid-cols-2 gap-2">
            <Button asChild>
              <Link href={purchasePath(video.id)}>Buy Now</Link>
            </Button>
            <AddToCartButton video={video} />
          </div>
        )}
      </div>
    </li>
  );
}

export function VideoGrid({ videos, priority = 0 }: { videos: Video[]; priority?: number }) {
  return (
    <ul className="mt-6 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
      {videos.map((video, index) => (
        <VideoCard key={video.id} video={video} priority={index < priority} />
      ))}
    </ul>
  );
}
