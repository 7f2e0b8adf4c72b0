import { useState, type PointerEvent } from 'react';
import { Film, Play } from 'lucide-react';
import { imageSizes, imageUrl, responsiveImage } from '@app/shared/images';
import { cn } from '../../lib/cn.ts';
import { previewSrc } from './queries.ts';

// The library's grid: one column, two from sm, three from lg; the video pages use about the same.
const gridSizes = imageSizes({ base: '100vw', sm: '50vw', lg: '33vw' });

/**
 * A video's preview picture (a phone-sized copy on a phone), or the placeholder icon when there is none
 * or it fails to load. `priority` for the ones likely on the first screen. With `previewClipUrl` (paid
 * and protected videos) it is also the short watermarked clip: muted and inline, playing while a mouse
 * rests on it or after a tap, labelled "Preview" so nobody takes it for the video itself.
 */
export function VideoPreview({
  previewUrl,
  previewClipUrl = null,
  title,
  className,
  priority = false,
}: {
  previewUrl: string | null;
  previewClipUrl?: string | null;
  title: string;
  className?: string;
  priority?: boolean;
}) {
  const [failed, setFailed] = useState(false);
  const [playing, setPlaying] = useState(false);
  const src = previewSrc(previewUrl);
  const hover = (event: PointerEvent, play: boolean) => {
    if (previewClipUrl && event.pointerType === 'mouse') setPlaying(play);
  };
  return (
    <div
      className={cn(
        'relative flex aspect-video items-center justify-center overflow-hidden bg-stage-700',
        className,
      )}
      onPointerEnter={(event) => hover(event, true)}
      onPointerLeave={(event) => hover(event, false)}
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
      {previewClipUrl && (
        <>
          {playing && (
            <video
              src={previewClipUrl}
              poster={src && imageUrl(src, 640)}
              muted
              playsInline
              autoPlay
              loop
              className="absolute inset-0 size-full object-cover"
              aria-label={`Preview clip of ${title}`}
            />
          )}
          <button
            type="button"
            aria-pressed={playing}
            aria-label={playing ? `Stop the preview of ${title}` : `Play a preview of ${title}`}
            // Toggles what is shown: a tap starts it, a click while the mouse played it stops it.
            onClick={() => setPlaying(!playing)}
            className="group absolute inset-0 flex items-center justify-center focus-visible:outline-2 focus-visible:outline-offset-[-4px] focus-visible:outline-white"
          >
            {!playing && (
              <span className="flex size-14 items-center justify-center rounded-full bg-black/60 text-white transition group-hover:bg-black/75">
                <Play className="size-6 translate-x-0.5" aria-hidden />
              </span>
            )}
          </button>
          <span className="pointer-events-none absolute top-3 left-3 rounded-md bg-black/70 px-2 py-0.5 text-xs font-semibold tracking-wide text-white uppercase">
            Preview
          </span>
        </>
      )}
    </div>
  );
}
