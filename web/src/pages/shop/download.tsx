import { useEffect, useState } from 'react';
import { Link, useLocation, useParams, useSearchParams } from 'wouter';
import { Download } from 'lucide-react';
import { Button } from '../../components/ui/button.tsx';
import { toast } from '../../components/ui/toast-store.ts';
import { api, ApiError } from '../../lib/api.ts';
import { track } from '../../lib/analytics.ts';
import { ShopLayout } from '../../features/shop/shop-layout.tsx';
import { purchaseStorage, useVideo } from '../../features/shop/queries.ts';
import { VideoPreview } from '../../features/shop/video-preview.tsx';
import { PasswordGate } from './password-gate.tsx';

interface Proof {
  password?: string;
  verificationToken?: string;
  sessionId?: string;
}

export default function DownloadPage() {
  const { id = '' } = useParams<{ id: string }>();
  const [search] = useSearchParams();
  const [, navigate] = useLocation();
  const sessionId = search.get('session_id') ?? undefined;
  const video = useVideo(id);
  const [proof, setProof] = useState<Proof>(() => ({
    verificationToken: purchaseStorage.token(id),
    sessionId,
  }));
  const [streamUrl, setStreamUrl] = useState<string>();
  const [busy, setBusy] = useState(false);
  const current = video.data;
  const needsPassword = current?.passwordProtected && !proof.password && !proof.verificationToken;

  const requestStream = async (attempt: Proof) => {
    try {
      const result = await api.post<{ streamUrl: string }>(`/api/video-stream/${id}`, attempt);
      setStreamUrl(result.streamUrl);
      setProof(attempt);
      return true;
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) {
        toast({ title: 'Invalid password. Please try again.', variant: 'destructive' });
        setProof({ sessionId });
        return false;
      }
      if (error instanceof ApiError && error.status === 403) {
        navigate(`/video/${id}/purchase`);
        return false;
      }
      toast({ title: 'Failed to load video for playback.', variant: 'destructive' });
      return false;
    }
  };

  // Unprotected videos (and protected ones with a remembered token) start straight away.
  useEffect(() => {
    if (!current || streamUrl || needsPassword) return;
    if (current.priceCents > 0 && !sessionId) {
      navigate(`/video/${id}/purchase`);
      return;
    }
    void requestStream(proof);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- run once the video is known
  }, [current, needsPassword]);

  const download = async () => {
    if (current?.passwordProtected && !proof.password && !proof.verificationToken) {
      toast({ title: 'Please enter the video password to download.', variant: 'destructive' });
      return;
    }
    setBusy(true);
    try {
      const { downloadUrl } = await api.post<{ downloadUrl: string }>(`/api/download/${id}`, proof);
      window.location.assign(downloadUrl);
      track('Video Downloaded', { video: current?.title ?? id });
      toast({ title: 'Download Started', variant: 'success' });
    } catch {
      toast({
        title: 'Download Failed',
        description: 'Unable to download the video. Please try again.',
        variant: 'destructive',
      });
    } finally {
      setBusy(false);
    }
  };

  if (video.isPending) {
    return (
      <ShopLayout title="Watch Video">
        <p className="text-center text-zinc-400" role="status">
          Loading video...
        </p>
      </ShopLayout>
    );
  }
  if (!current) {
    const missing = video.error instanceof ApiError && video.error.status === 404;
    return (
      <ShopLayout title="Video Not Found">
        <div className="mx-auto max-w-lg text-center">
          <h1 className="text-3xl font-bold text-white">{missing ? 'Video Not Found' : 'Error'}</h1>
          <p className="mt-3 text-zinc-400">
            {missing ? 'The requested video could not be found.' : 'Failed to load video details.'}
          </p>
          <Button asChild className="mt-6">
            <Link href="/videos">Back to Videos</Link>
          </Button>
        </div>
      </ShopLayout>
    );
  }

  return (
    <ShopLayout title={current.title}>
      <div className="mx-auto max-w-4xl">
        <h1 className="text-3xl font-bold text-white">{current.title}</h1>
        <p className="mt-2 text-zinc-400">{current.description}</p>
        <div className="mt-8">
          {streamUrl ? (
            <video
              src={streamUrl}
              controls
              autoPlay
              playsInline
              className="aspect-video w-full rounded-2xl bg-black"
            />
          ) : needsPassword ? (
            <div className="grid gap-6 md:grid-cols-2">
              <VideoPreview previewUrl={current.previewUrl} title={current.title} className="rounded-2xl" />
              <PasswordGate
                buttonLabel="Watch Video"
                busy={busy}
                onSubmit={async (password) => {
                  setBusy(true);
                  try {
                    return await requestStream({ password, sessionId });
                  } finally {
                    setBusy(false);
                  }
                }}
              />
            </div>
          ) : (
            <VideoPreview previewUrl={current.previewUrl} title={current.title} className="rounded-2xl" />
          )}
        </div>
        {streamUrl && (
          <Button className="mt-6" onClick={download} disabled={busy}>
            <Download className="size-4" aria-hidden /> Download
          </Button>
        )}
      </div>
    </ShopLayout>
  );
}
