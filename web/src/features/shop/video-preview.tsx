import { useState } from 'react';
import { Film } from 'lucide-react';
import { cn } from '../../lib/cn.ts';
import { previewSrc } from './queries.ts';

/** A video's preview picture, or the placeholder icon when there is none or it fails to load. */
export function VideoPreview({
  previewUrl,
  title,
  className,
}: {
  previewUrl: string | null;
  title: string;
  className?: string;
}) {
  const [failed, setFailed] = useState(false);
  const src = previewSrc(previewUrl);
  return (
    <div
      className={cn(
        'relative flex aspect-video items-center justify-center overflow-hidden bg-stage-700',
        className,
      )}
    >
      {src && !failed ? (
        <img
          src={src}
          alt={`Preview of ${title}`}
          loading="lazy"
          onError={() => setFailed(true)}
          className="size-full object-cover"
        />
      ) : (
        <Film className="size-12 text-zinc-500" role="img" aria-label="No preview" />
      )}
    </div>
  );
}
