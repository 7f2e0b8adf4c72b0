import { useCallback, useEffect, useRef, useState } from 'react';
import { Link, useLocation, useParams, useSearchParams } from 'wouter';
import { Download, RotateCcw } from 'lucide-react';
import type { DownloadLink, StreamLink, VideoAccessRequest } from '@app/shared/schemas';
import { formatPrice } from '@app/shared/format';
import { Badge, ProtectedBadge } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { toast } from '../../components/ui/toast-store.ts';
import { api, ApiError } from '../../lib/api.ts';
import { track } from '../../lib/analytics.ts';
import { ShopLayout } from '../../features/shop/shop-layout.tsx';
import {
  isFree,
  isWrongPassword,
  purchasePath,
  purchaseStorage,
  useVideo,
  verifyVideoPassword,
  type Video,
} from '../../features/shop/queries.ts';
import { StreamPlayer } from '../../features/shop/stream-player.tsx';
import { VideoPreview } from '../../features/shop/video-preview.tsx';
import { RequestRemoval } from '../../features/privacy/removal-request.tsx';
import { VideoLoading, VideoLoadProblem, VideoNotAvailable } from '../../features/shop/video-states.tsx';
import { PasswordGate } from './password-gate.tsx';

const PLAYBACK_FAILED = 'Failed to load video for playback.';
const INVALID_PASSWORD = 'Invalid password. Please try again.';

export default function DownloadPage() {
  const { id = '' } = useParams<{ id: string }>();
  const [search] = useSearchParams();
  const sessionId = search.get('session_id')?.trim() || undefined;
  const [, navigate] = useLocation();
  const video = useVideo(id, sessionId);
  const current = video.data;
  // A buyer's stream link is asked for beside the video's details rather than after them: one round trip
  // less before the first picture on a weak line (decision 031). The proof is what the player would send
  // (the checkout, a password token this visit holds); the player takes the answer for its first request.
  // Only while the details are on their way: the player mounts once they are in, after this has run.
  const earlyLink = useRef<Promise<StreamLink> | undefined>(undefined);
  const detailsPending = video.isPending;
  useEffect(() => {
    if (!sessionId || !detailsPending || earlyLink.current) return;
    const verificationToken = purchaseStorage.token(id);
    earlyLink.current = api.post<StreamLink>(`/api/video-stream/${encodeURIComponent(id)}`, {
      sessionId,
      ...(verificationToken && { verificationToken }),
    } satisfies VideoAccessRequest);
    // Failures are the player's to report; a page that never plays (not found, locked) ignores them.
    earlyLink.current.catch(() => {});
  }, [id, sessionId, detailsPending]);
  // A paid video without a paid session goes to its purchase page.
  const needsPurchase = current !== undefined && !isFree(current) && !sessionId;

  useEffect(() => {
    if (current && needsPurchase) navigate(purchasePath(current.id), { replace: true });
  }, [current, needsPurchase, navigate]);

  if (video.isPending || needsPurchase) return <VideoLoading title="Watch Video" />;
  if (!current) return <VideoLoadProblem error={video.error} videoId={id} />;
  // A buyer (session) keeps the page of what they bought; others are told it is not available.
  if (!sessionId && current.availability === 'unavailable')
    return <VideoNotAvailable title={current.title} />;
  return (
    <Player
      key={`${current.id}:${sessionId ?? ''}`}
      video={current}
      sessionId={sessionId}
      earlyLink={earlyLink.current}
    />
  );
}

type Playback =
  { kind: 'locked' } | { kind: 'loading' } | { kind: 'ready'; link: StreamLink } | { kind: 'failed' };

function Player({
  video,
  sessionId,
  earlyLink,
}: {
  video: Video;
  sessionId?: string;
  /** The stream link already asked for with the same proof (the page's first request). */
  earlyLink?: Promise<StreamLink>;
}) {
  const [, navigate] = useLocation();
  const [token, setToken] = useState(() => purchaseStorage.token(video.id));
  const [playback, setPlayback] = useState<Playback>(() =>
    video.passwordProtected && !token ? { kind: 'locked' } : { kind: 'loading' },
  );
  const [busy, setBusy] = useState(false);
  const proof = useCallback(
    (verificationToken = token): VideoAccessRequest => ({
      ...(video.passwordProtected && verificationToken && { verificationToken }),
      ...(sessionId && { sessionId }),
    }),
    [sessionId, token, video.passwordProtected],
  );

  /** 401: the remembered token is no longer good, so the password is asked for; 403: no paid purchase. */
  const refused = useCallback(
    (error: unknown): boolean => {
      if (!(error instanceof ApiError)) return false;
      if (error.code === 'unauthorized') {
        purchaseStorage.forgetToken(video.id);
        setToken(undefined);
        setPlayback({ kind: 'locked' });
        return true;
      }
      if (error.code === 'forbidden') {
        if (sessionId)
          toast({
            title: 'Purchase required',
            description: error.serverMessage ?? 'No paid purchase of this video was found.',
            variant: 'destructive',
          });
        navigate(purchasePath(video.id), { replace: true });
        return true;
      }
      return false;
    },
    [navigate, sessionId, video.id],
  );

  /**
   * `fileOnly`: the adaptive stream failed, so the fast-start copy plays (authorized anew). `asked`: the
   * answer of a request already made with this proof.
   */
  const requestStream = useCallback(
    async (
      verificationToken?: string,
      { fileOnly = false, asked }: { fileOnly?: boolean; asked?: Promise<StreamLink> } = {},
    ) => {
      setPlayback({ kind: 'loading' });
      try {
        const link = await (asked ??
          api.post<StreamLink>(
            `/api/video-stream/${encodeURIComponent(video.id)}`,
            proof(verificationToken),
          ));
        setPlayback({ kind: 'ready', link: fileOnly ? { ...link, hlsUrl: undefined } : link });
      } catch (error) {
        if (refused(error)) return;
        setPlayback({ kind: 'failed' });
        toast({ title: PLAYBACK_FAILED, variant: 'destructive' });
      }
    },
    [proof, refused, video.id],
  );

  // An unprotected video (or one whose password this visit already gave) plays at once.
  // The ref keeps StrictMode's second effect run from asking (and counting a view) twice.
  const autoStarted = useRef(false);
  useEffect(() => {
    if (autoStarted.current || playback.kind !== 'loading') return;
    autoStarted.current = true;
    // The page's early request carried a token only if this visit holds one, as the player's proof does.
    void requestStream(undefined, { asked: earlyLink });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, when the page opens
  }, []);

  /** The password earns a token (kept for this visit, so the purchase page and reloads need not ask again). */
  const unlock = async (password: string): Promise<string | null> => {
    try {
      const verified = await verifyVideoPassword(video.id, password);
      setToken(verified);
      return verified;
    } catch (error) {
      const wrong = isWrongPassword(error);
      toast({
        title: wrong
          ? INVALID_PASSWORD
          : (error instanceof ApiError && error.serverMessage) || PLAYBACK_FAILED,
        variant: 'destructive',
      });
      return wrong ? null : '';
    }
  };

  const download = async (verificationToken = token) => {
    setBusy(true);
    try {
      const { downloadUrl } = await api.post<DownloadLink>(
        `/api/download/${encodeURIComponent(video.id)}`,
        proof(verificationToken),
      );
      // The link answers with Content-Disposition: attachment, so the browser saves it and stays here.
      const link = document.createElement('a');
      link.href = downloadUrl;
      link.rel = 'noopener';
      link.download = '';
      document.body.append(link);
      link.click();
      link.remove();
      track('Video Downloaded', { video: video.title });
      toast({ title: 'Download Started', description: 'Your video is downloading.', variant: 'success' });
    } catch (error) {
      if (refused(error)) return;
      toast({
        title: 'Download Failed',
        description: 'Unable to download the video. Please try again.',
        variant: 'destructive',
      });
    } finally {
      setBusy(false);
    }
  };

  const locked = playback.kind === 'locked';
  return (
    <ShopLayout title={video.title}>
      <div className="mx-auto max-w-4xl">
        <div className="flex flex-wrap items-center gap-2">
          <Badge variant={isFree(video) ? 'success' : 'default'}>
            {isFree(video) ? 'Free' : sessionId ? 'Purchased' : formatPrice(video.priceCents)}
          </Badge>
          {video.passwordProtected && <ProtectedBadge />}
        </div>
        <h1 className="mt-3 text-3xl font-bold text-white">{video.title}</h1>
        <p className="mt-2 whitespace-pre-line text-zinc-400">{video.description}</p>
        <div className="mt-8">
          {playback.kind === 'ready' ? (
            <StreamPlayer
              videoId={video.id}
              link={playback.link}
              onStreamFailed={() => void requestStream(undefined, { fileOnly: true })}
              onError={() => {
                setPlayback({ kind: 'failed' });
                toast({ title: PLAYBACK_FAILED, variant: 'destructive' });
              }}
            />
          ) : locked ? (
            <div className="grid gap-6 md:grid-cols-2">
              <VideoPreview previewUrl={video.previewUrl} title={video.title} className="rounded-2xl" />
              <PasswordGate
                buttonLabel="Watch Video"
                busy={busy}
                onSubmit={async (password) => {
                  setBusy(true);
                  try {
                    const earned = await unlock(password);
                    if (earned) await requestStream(earned);
                    return earned !== null;
                  } finally {
                    setBusy(false);
                  }
                }}
                secondary={{
                  label: (
                    <>
                      <Download className="size-4" aria-hidden /> Download
                    </>
                  ),
                  emptyMessage: 'Please enter the video password to download.',
                  onClick: async (password) => {
                    const earned = await unlock(password);
                    if (earned) {
                      void requestStream(earned);
                      await download(earned);
                    }
                    return earned !== null;
                  },
                }}
              />
            </div>
          ) : (
            <div className="relative">
              <VideoPreview previewUrl={video.previewUrl} title={video.title} className="rounded-2xl" />
              <div className="absolute inset-0 flex flex-col items-center justify-center gap-4 rounded-2xl bg-stage-950/70 p-6 text-center">
                {playback.kind === 'failed' ? (
                  <>
                    <p className="text-zinc-200" role="alert">
                      {PLAYBACK_FAILED}
                    </p>
                    <Button variant="secondary" onClick={() => void requestStream()}>
                      <RotateCcw className="size-4" aria-hidden /> Try again
                    </Button>
                  </>
                ) : (
                  <p className="text-zinc-200" role="status">
                    Preparing your video...
                  </p>
                )}
              </div>
            </div>
          )}
        </div>
        {!locked && (
          <div className="mt-6 flex flex-wrap items-center gap-4">
            <Button size="lg" onClick={() => void download()} disabled={busy}>
              <Download className="size-4" aria-hidden /> {busy ? 'Preparing download...' : 'Download'}
            </Button>
            <p className="text-sm text-zinc-500">Links are personal and expire after an hour.</p>
          </div>
        )}
        <Link href="/videos" className="mt-8 inline-block text-sm text-spotlight-300 hover:underline">
          ← Back to Videos
        </Link>
        <div>
          <RequestRemoval target={{ videoId: video.id }} />
        </div>
      </div>
    </ShopLayout>
  );
}
