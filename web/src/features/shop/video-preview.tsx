import { useState } from 'react';
import { Film } from 'lucide-react';
import { imageSizes, responsiveImage } from '@app/shared/images';
import { cn } from '../../lib/cn.ts';
import { previewSrc } from './queries.ts';

// The library's grid: one column, two from sm, three from lg; the video pages use about the same.
const gridSizes = imageSizes({ base: '100vw', sm: '50vw', lg: '33vw' });

/**
 * A video's preview picture (a phone-sized copy on a phone), or the placeholder icon when there is none
 * or it fails to load. `priority` for the ones likely on the first screen.
 */
export function VideoPreview({
  previewUrl,
  title,
  className,
  priority = false,
}: {
  previewUrl: string | null;
  title: string;
  className?: string;
  priority?: boolean;
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
          {...responsiveImage(src, { sizes: gridSizes, maxWidth: 1280 })}
          alt={`Preview of ${title}`}
          loading={priority ? 'eager' : 'lazy'}
          fetchPriority={priority ? 'high' : 'auto'}
          onError={() => setFailed(true)}
          // A picture of the server's markup may have failed before the app took the page over, and
          // its error event went unheard: a finished load without a picture is a failure too.
          ref={(image) => {
            if (image?.complete && image.naturalWidth === 0) setFailed(true);
          }}
          className="size-full object-cover"
        />
      ) : (
        <Film className="size-12 text-zinc-500" role="img" aria-label="No preview" />
      )}
    </div>
  );
}
