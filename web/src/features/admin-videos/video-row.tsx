import { Download, Eye } from 'lucide-react';
import { formatPrice } from '@app/shared/format';
import { Badge, ProtectedBadge } from '../../components/ui/badge.tsx';
import { ProcessingStatus } from '../video-processing/processing-status.tsx';
import { PublishToggle, VideoStateBadges } from './video-publishing.tsx';
import type { AdminVideo } from './shared.ts';
import { cardClass } from '../../components/ui/card.tsx';
import { EditDeleteButtons } from '../admin-shell/row-actions.tsx';

/** One video in the admin list: a checkbox for bulk actions, its facts, edit and delete. */
export function VideoRow({
  video,
  showcaseName,
  selected,
  onSelect,
  onEdit,
  onDelete,
  onChanged,
}: {
  video: AdminVideo;
  showcaseName: string | undefined;
  selected: boolean;
  onSelect: (selected: boolean) => void;
  onEdit: () => void;
  onDelete: () => void;
  onChanged: () => Promise<unknown>;
}) {
  return (
    <li className={`${cardClass} flex gap-3 p-4`}>
      <input
        type="checkbox"
        aria-label={`Select ${video.title}`}
        checked={selected}
        onChange={(event) => onSelect(event.target.checked)}
        className="mt-1.5 size-4 shrink-0 accent-spotlight-400"
      />
      <div className="min-w-0 flex-1">
        <div className="flex items-start justify-between gap-2">
          <h3 className="font-sans font-semibold text-white">{video.title}</h3>
          <div className="flex shrink-0 gap-1">
            <EditDeleteButtons name={video.title} onEdit={onEdit} onDelete={onDelete} />
          </div>
        </div>
        <p className="mt-1 line-clamp-2 text-sm text-zinc-400">{video.description}</p>
        <div className="mt-2 flex flex-wrap items-center gap-2">
          <Badge variant={video.priceCents === 0 ? 'success' : 'default'}>
            {formatPrice(video.priceCents)}
          </Badge>
          <Badge variant="neutral">{showcaseName ?? 'No showcase'}</Badge>
          {video.passwordProtected && <ProtectedBadge />}
          <VideoStateBadges video={video} />
          {video.tags.map((tag) => (
            <Badge key={tag} variant="neutral">
              {tag}
            </Badge>
          ))}
          <span className="flex items-center gap-1 text-xs text-zinc-400">
            <Eye className="size-3" aria-hidden /> {video.views} views
          </span>
          <span className="flex items-center gap-1 text-xs text-zinc-400">
            <Download className="size-3" aria-hidden /> {video.downloads} downloads
          </span>
        </div>
        <ProcessingStatus video={video} />
        <div className="mt-3">
          <PublishToggle video={video} onChanged={onChanged} />
        </div>
      </div>
    </li>
  );
}
