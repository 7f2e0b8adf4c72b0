import { useState, type KeyboardEvent, type SyntheticEvent } from 'react';
import { imageSrcSet, imageUrl } from '@app/shared/images';
import { cn } from '../../lib/cn.ts';
import { useNearViewport } from '../../lib/near-viewport.ts';

/** The keys blocked on image tiles (dev tools, save, select all, copy, context menu). */
export function isBlockedKey(
  event: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'shiftKey'>,
): boolean {
  const key = event.key.toLowerCase();
  const ctrl = event.ctrlKey || event.metaKey;
  return (
    key === 'f12' ||
    key === 'contextmenu' ||
    (ctrl && event.shiftKey && key === 'i') ||
    (ctrl && !event.shiftKey && (key === 's' || key === 'a' || key === 'c'))
  );
}

const prevent = (event: SyntheticEvent) => event.preventDefault();

/** Handlers that discourage saving a picture: no right-click, no drag, no save/copy keys. */
export const imageProtection = {
  onContextMenu: prevent,
  onDragStart: prevent,
  onKeyDown: (event: KeyboardEvent) => {
    if (isBlockedKey(event)) event.preventDefault();
  },
};

/**
 * A gallery picture: its few-pixel placeholder (or a pulse) until loaded, loaded only once within
 * 50 px of the viewport, faded in, and 'Failed to load' if it cannot be. Spans, not divs: the tile is
 * a button, which may hold only phrasing content.
 */
export function LazyImage({
  src,
  alt,
  sizes,
  placeholder,
  className,
}: {
  src: string;
  alt: string;
  sizes: string;
  placeholder?: string | null;
  className?: string;
}) {
  const [holder, near] = useNearViewport<HTMLSpanElement>('50px');
  const [state, setState] = useState<'loading' | 'loaded' | 'failed'>('loading');

  return (
    <span
      ref={holder}
      className={cn('relative block overflow-hidden bg-stage-800 bg-cover bg-center', className)}
      style={placeholder ? { backgroundImage: `url(${placeholder})` } : undefined}
    >
      {state === 'loading' && !placeholder && (
        <span aria-hidden className="absolute inset-0 animate-pulse bg-white/10" />
      )}
      {state === 'failed' && (
        <span className="absolute inset-0 flex items-center justify-center text-sm text-zinc-400">
          Failed to load
        </span>
      )}
      {/* The server's copy, for a reader without JavaScript (a browser running scripts ignores it). */}
      {!near && (
        <noscript>
          <img
            src={imageUrl(src, 640)}
            srcSet={imageSrcSet(src, 1280)}
            sizes={sizes}
            alt={alt}
            loading="lazy"
            className="size-full object-cover"
          />
        </noscript>
      )}
      {near && state !== 'failed' && (
        <img
          src={imageUrl(src, 640)}
          srcSet={imageSrcSet(src, 1280)}
          sizes={sizes}
          alt={alt}
          draggable={false}
          decoding="async"
          onLoad={() => setState('loaded')}
          onError={() => setState('failed')}
          className={cn(
            'size-full object-cover transition-opacity duration-700 select-none',
            state === 'loaded' ? 'opacity-100' : 'opacity-0',
          )}
        />
      )}
    </span>
  );
}
