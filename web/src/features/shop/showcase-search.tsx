import { useLocation } from 'wouter';
import { Search } from 'lucide-react';
import { searchParams } from '@app/shared/library';
import type { ShowcaseSummary } from '@app/shared/schemas';
import { Button } from '../../components/ui/button.tsx';
import { Input } from '../../components/ui/input.tsx';

/**
 * A public showcase's search box: it opens the library filtered to the showcase (where its QR code
 * leads), whose programme answers dancers, item numbers and studios. A plain GET form, so a search
 * typed before the app runs, or without it, still goes.
 */
export function ShowcaseSearch({ showcase }: { showcase: Pick<ShowcaseSummary, 'name' | 'slug'> }) {
  const [, navigate] = useLocation();
  return (
    <form
      role="search"
      action="/videos"
      className="mt-6 flex max-w-xl gap-3"
      onSubmit={(event) => {
        event.preventDefault();
        const q = String(new FormData(event.currentTarget).get('q') ?? '').trim();
        navigate(`/videos?${searchParams({ q, showcase: showcase.slug })}`);
      }}
    >
      <input type="hidden" name="showcase" value={showcase.slug} />
      <div className="relative flex-1">
        <Search
          className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-zinc-500"
          aria-hidden
        />
        <Input
          type="search"
          name="q"
          aria-label={`Search ${showcase.name}`}
          placeholder="Dancer, item no. or studio"
          maxLength={200}
          className="pl-9"
        />
      </div>
      <Button type="submit">Search</Button>
    </form>
  );
}
