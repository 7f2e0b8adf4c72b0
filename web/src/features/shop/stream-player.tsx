import { useEffect, useRef } from 'react';
import type { HlsToken, StreamLink } from '@app/shared/schemas';
import { withFreshTokens } from './stream-tokens.ts';

/** How often the player asks for a new segment token; each lives 60 s, so one failed refresh is survived. */
const REFRESH_MS = 20_000;
const HLS_TYPE = 'application/vnd.apple.mpegurl';

type Mode = 'hls' | 'native' | 'file';

/**
 * The buyer's player: the adaptive stream through hls.js where Media Source Extensions exist (loaded only
 * here, when the video has a stream), Safari's own HLS where they do not, else the fast-start file. Its
 * playlist grant and segment token are refreshed every 30 s; when that is refused (a refund, a hide) the
 * stream stops within a minute. A fatal stream error calls `onStreamFailed`, which asks for a fresh link
 * and plays the fast-start copy. The element is the same `<video controls>` as before (keyboard and
 * screen-reader controls unchanged).
 */
export function StreamPlayer({
  videoId,
  link,
  onStreamFailed,
  onError,
}: {
  videoId: string;
  link: StreamLink;
  onStreamFailed: () => void;
  onError: () => void;
}) {
  const ref = useRef<HTMLVideoElement>(null);
  const failed = useRef(onStreamFailed);
  failed.current = onStreamFailed;
  const hlsUrl = link.hlsUrl;

  useEffect(() => {
    const video = ref.current;
    if (!video) return;
    let stopped = false;
    let cleanup = () => {};
    const show = (mode: Mode) => {
      video.dataset.playback = mode;
    };
    if (!hlsUrl) {
      show('file');
      video.src = link.streamUrl;
      return;
    }
    const tokens = { grant: new URL(hlsUrl, location.href).searchParams.get('grant') ?? '', segment: '' };
    const refresh = window.setInterval(() => {
      fetch(`/api/hls/${encodeURIComponent(videoId)}/token?grant=${encodeURIComponent(tokens.grant)}`, {
        cache: 'no-store',
      })
        .then(async (response) => {
          // Refused: no new tokens, so the stream ends when the last one expires.
          if (!response.ok) return window.clearInterval(refresh);
          // Our own api's answer (no schema parse here: zod's compiler probe trips the page's CSP).
          const fresh = (await response.json()) as HlsToken;
          if (typeof fresh.grant === 'string' && typeof fresh.token === 'string') {
            tokens.grant = fresh.grant;
            tokens.segment = fresh.token;
          }
        })
        .catch(() => {});
    }, REFRESH_MS);

    const giveUp = () => {
      if (stopped) return;
      stopped = true;
      cleanup();
      failed.current();
    };

    void import('hls.js/light').then(({ default: Hls }) => {
      if (stopped) return;
      if (Hls.isSupported()) {
        show('hls');
        const hls = new Hls({
          // Start at the lowest rendition and climb as the bandwidth estimate allows.
          startLevel: 0,
          xhrSetup(xhr, url) {
            xhr.open('GET', withFreshTokens(url, tokens), true);
          },
        });
        hls.on(Hls.Events.LEVEL_SWITCHED, (_event, data) => {
          video.dataset.hlsLevel = String(hls.levels[data.level]?.height ?? '');
        });
        hls.on(Hls.Events.FRAG_LOADED, (_event, data) => {
          if (data.frag.type !== 'main') return;
          // The rendition (by its lines) of each piece of picture loaded, in order: what tests and support read.
          const height = String(hls.levels[data.frag.level]?.height ?? '');
          video.dataset.hlsFragments = [video.dataset.hlsFragments, height].filter(Boolean).join(' ');
        });
        hls.on(Hls.Events.ERROR, (_event, data) => {
          if (data.fatal) giveUp();
        });
        hls.loadSource(hlsUrl);
        hls.attachMedia(video);
        cleanup = () => hls.destroy();
      } else if (video.canPlayType(HLS_TYPE)) {
        show('native');
        video.src = hlsUrl;
      } else {
        show('file');
        video.src = link.streamUrl;
      }
    }, giveUp);

    return () => {
      stopped = true;
      window.clearInterval(refresh);
      cleanup();
    };
  }, [hlsUrl, link.streamUrl, videoId]);

  return (
    <video
      ref={ref}
      controls
      autoPlay
      playsInline
      preload="metadata"
      onError={() => {
        // Safari's own HLS: segment links die after a minute; ask again and play the fallback.
        if (ref.current?.dataset.playback === 'native') failed.current();
        else if (ref.current?.dataset.playback === 'file') onError();
      }}
      className="aspect-video w-full rounded-2xl bg-black"
    >
      Your browser cannot play this video; use Download below.
    </video>
  );
}
