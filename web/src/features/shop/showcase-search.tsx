import { useLocation } from 'wouter';
import { searchParams } from '@app/shared/library';
import type { ShowcaseSummary } from '@app/shared/schemas';
import { Button } from '../../components/ui/button.tsx';
import { SearchField } from '../../components/ui/input.tsx';

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
      <SearchField aria-label={`Search ${showcase.name}`} placeholder="Dancer, item no. or studio" />
      <Button type="submit">Search</Button>
    </form>
  );
}
