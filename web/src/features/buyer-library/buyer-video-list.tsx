import { Link } from 'wouter';
import { PlayCircle } from 'lucide-react';
import { formatDateTime } from '@app/shared/format';
import type { BuyerVideo } from '@app/shared/schemas';
import { ProtectedBadge } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { VideoPreview } from '../shop/video-preview.tsx';
import { WithdrawnNotice } from '../privacy/withdrawn-notice.tsx';

/** The buyer's videos, newest purchase first; each opens its own download page to play or download. */
export function BuyerVideoList({ videos }: { videos: BuyerVideo[] }) {
  return (
    <ul className="mt-6 grid gap-6 sm:grid-cols-2 lg:grid-cols-3" aria-label="Your videos">
      {videos.map((video, index) => (
        <li
          key={video.id}
          className="flex flex-col overflow-hidden rounded-2xl border border-white/10 bg-stage-800/80"
        >
          <VideoPreview previewUrl={video.previewUrl} title={video.title} priority={index < 2} />
          <div className="flex flex-1 flex-col p-5">
            <h2 className="text-lg font-semibold text-white">{video.title}</h2>
            {video.showcaseName && <p className="mt-1 text-sm text-zinc-400">{video.showcaseName}</p>}
            <p className="mt-1 flex-1 text-sm text-zinc-500">Bought {formatDateTime(video.purchasedAt)}</p>
            {video.passwordProtected && (
              <ProtectedBadge className="mt-3 self-start" title="Needs the password you were given" />
            )}
            {video.withdrawn ? (
              <div className="mt-5">
                <WithdrawnNotice compact />
              </div>
            ) : (
              <Button asChild className="mt-5">
                <Link href={video.watchUrl} aria-label={`Watch & Download ${video.title}`}>
                  <PlayCircle className="size-4" aria-hidden /> Watch &amp; Download
                </Link>
              </Button>
            )}
          </div>
        </li>
      ))}
    </ul>
  );
}
