import { useMemo, useState } from 'react';
import { Link } from 'wouter';
import { Lock, RotateCcw, Search } from 'lucide-react';
import { formatPrice } from '@app/shared/format';
import { Badge } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Input } from '../../components/ui/input.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { ShopLayout } from '../../features/shop/shop-layout.tsx';
import {
  downloadPath,
  purchasePath,
  useShowcases,
  useVideos,
  type Video,
} from '../../features/shop/queries.ts';
import { VideoPreview } from '../../features/shop/video-preview.tsx';
import { useInBrowser } from '../../lib/in-browser.ts';

function matches(video: Video, term: string): boolean {
  const needle = term.trim().toLowerCase();
  if (!needle) return true;
  return [video.title, video.description, ...video.tags].some((text) => text.toLowerCase().includes(needle));
}

export default function VideosPage() {
  const videos = useVideos();
  const showcases = useShowcases();
  const [term, setTerm] = useState('');
  const inBrowser = useInBrowser();

  const groups = useMemo(() => {
    const found = (videos.data ?? []).filter((video) => matches(video, term));
    const ordered = [...(showcases.data ?? [])].sort((a, b) => a.orderPriority - b.orderPriority);
    const result = ordered
      .map((showcase) => ({
        key: showcase.id,
        name: showcase.name,
        description: showcase.description,
        videos: found.filter((video) => video.showcaseId === showcase.id),
      }))
      .filter((group) => group.videos.length > 0);
    const known = new Set(ordered.map((showcase) => showcase.id));
    const loose = found.filter((video) => !video.showcaseId || !known.has(video.showcaseId));
    if (loose.length) result.push({ key: 'other', name: 'More Videos', description: '', videos: loose });
    return result;
  }, [videos.data, showcases.data, term]);

  const loading = videos.isPending || showcases.isPending;
  const count = groups.reduce((total, group) => total + group.videos.length, 0);
  return (
    <ShopLayout title="Video Library">
      <div className="mx-auto max-w-7xl">
        <h1 className="text-4xl font-bold text-white">Video Library</h1>
        <p className="mt-3 max-w-2xl text-zinc-400">
          Watch, download or buy performances from competitions, recitals and stage shows.
        </p>
        <div className="relative mt-8 max-w-md">
          <Search
            className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-zinc-500"
            aria-hidden
          />
          <Input
            type="search"
            aria-label="Search videos"
            placeholder="Search by title, description or tag"
            value={term}
            onChange={(event) => setTerm(event.target.value)}
            disabled={!inBrowser}
            className="pl-9"
          />
        </div>
        <p className="sr-only" aria-live="polite">
          {loading || !term.trim() ? '' : `${count} ${count === 1 ? 'video' : 'videos'} found`}
        </p>

        {videos.isError || showcases.isError ? (
          <div
            role="alert"
            className="mt-12 rounded-2xl border border-white/10 bg-stage-800/70 p-8 text-center"
          >
            <p className="text-red-300">Failed to load videos. Please try again.</p>
            <Button
              variant="secondary"
              className="mt-4"
              onClick={() => {
                void videos.refetch();
                void showcases.refetch();
              }}
            >
              <RotateCcw className="size-4" aria-hidden /> Try again
            </Button>
          </div>
        ) : loading ? (
          <div className="mt-12 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
            {Array.from({ length: 6 }, (_, index) => (
              <Skeleton key={index} className="h-80 rounded-2xl" />
            ))}
          </div>
        ) : groups.length === 0 ? (
          <p className="mt-12 text-zinc-400">
            {term.trim() ? `No videos match “${term.trim()}”.` : 'No videos yet. Check back soon.'}
          </p>
        ) : (
          groups.map((group, groupIndex) => (
            <section key={group.key} aria-labelledby={`showcase-${group.key}`} className="mt-14">
              <h2 id={`showcase-${group.key}`} className="text-2xl font-bold text-white">
                {group.name}
              </h2>
              {group.description && <p className="mt-1 text-zinc-400">{group.description}</p>}
              <ul className="mt-6 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
                {group.videos.map((video, index) => (
                  <li
                    key={video.id}
                    className="flex flex-col overflow-hidden rounded-2xl border border-white/10 bg-stage-800/80"
                  >
                    <VideoPreview
                      previewUrl={video.previewUrl}
                      previewClipUrl={video.previewClipUrl}
                      title={video.title}
                      priority={groupIndex === 0 && index < 3}
                    />
                    <div className="flex flex-1 flex-col p-5">
                      <div className="flex items-start justify-between gap-3">
                        <h3 className="text-lg font-semibold text-white">{video.title}</h3>
                        {video.priceCents === 0 ? (
                          <Badge variant="success">Free</Badge>
                        ) : (
                          <Badge>{formatPrice(video.priceCents)}</Badge>
                        )}
                      </div>
                      <p className="mt-2 flex-1 text-sm text-zinc-400">{video.description}</p>
                      {video.passwordProtected && (
                        <Badge
                          variant="neutral"
                          className="mt-3 self-start"
                          title="Needs the password you were given"
                        >
                          <Lock className="size-3" aria-hidden /> Protected
                        </Badge>
                      )}
                      <Button
                        asChild
                        className="mt-5"
                        variant={video.priceCents === 0 ? 'secondary' : 'primary'}
                      >
                        {video.priceCents === 0 ? (
                          <Link href={downloadPath(video.id)}>Get / Download</Link>
                        ) : (
                          <Link href={purchasePath(video.id)}>Buy Now</Link>
                        )}
                      </Button>
                    </div>
                  </li>
                ))}
              </ul>
            </section>
          ))
        )}
      </div>
    </ShopLayout>
  );
}
