import { lazy, Suspense, useState, type KeyboardEvent } from 'react';
import { portfolioCategories, portfolioCategoryLabels, type PortfolioCategory } from '@app/shared/constants';
import { Button } from '../../components/ui/button.tsx';
import { SkeletonItems } from '../../components/ui/skeleton.tsx';
import { cn } from '../../lib/cn.ts';
import { SectionHeading } from './sections.tsx';
import { imageProtection, LazyImage } from './protected-image.tsx';

// The dialog code loads when someone first opens an image, not with the page.
const Lightbox = lazy(() => import('./lightbox.tsx'));
import { usePortfolioCategory, type PortfolioImage } from './queries.ts';

const PAGE_SIZE = 12;
const PLACEHOLDERS = 8;
const tileSizes = '(min-width: 1024px) 25vw, (min-width: 640px) 33vw, 50vw';

export function PortfolioGallery() {
  const [category, setCategory] = useState<PortfolioCategory>('solo');
  const [visible, setVisible] = useState(PAGE_SIZE);
  const [open, setOpen] = useState<PortfolioImage | null>(null);
  const { data, isPending, isError } = usePortfolioCategory(category);
  const images = data ?? [];
  const shown = images.slice(0, visible);
  const remaining = images.length - shown.length;

  const choose = (next: PortfolioCategory) => {
    setCategory(next);
    setVisible(PAGE_SIZE);
  };
  // The tabs pattern: one tab stop, arrows (and Home/End) move between the categories.
  const onTabKey = (event: KeyboardEvent<HTMLDivElement>) => {
    const index = portfolioCategories.indexOf(category);
    const last = portfolioCategories.length - 1;
    const to = { ArrowRight: index + 1, ArrowLeft: index - 1, Home: 0, End: last }[event.key];
    if (to === undefined) return;
    event.preventDefault();
    const next = portfolioCategories[(to + last + 1) % (last + 1)]!;
    choose(next);
    document.getElementById(`tab-${next}`)?.focus();
  };

  return (
    <section id="portfolio" aria-labelledby="portfolio-title" className="bg-stage-950 px-4 py-24 sm:px-6">
      <div className="mx-auto max-w-7xl">
        <SectionHeading id="portfolio-title" eyebrow="Portfolio" title="Moments from the Stage" />
        <div
          role="tablist"
          aria-label="Portfolio categories"
          onKeyDown={onTabKey}
          className="mt-10 flex flex-wrap justify-center gap-2"
        >
          {portfolioCategories.map((value) => (
            <button
              key={value}
              type="button"
              role="tab"
              id={`tab-${value}`}
              aria-selected={category === value}
              tabIndex={category === value ? 0 : -1}
              aria-controls="portfolio-grid"
              onClick={() => choose(value)}
              className={cn(
                'rounded-full px-5 py-2 text-sm font-semibold transition-colors',
                category === value
                  ? 'bg-spotlight-400 text-stage-950'
                  : 'bg-white/5 text-zinc-300 hover:bg-white/10',
              )}
            >
              {portfolioCategoryLabels[value]}
            </button>
          ))}
        </div>

        <div id="portfolio-grid" role="tabpanel" aria-labelledby={`tab-${category}`} className="mt-10">
          {isError ? (
            <p className="text-center text-red-300">Failed to fetch portfolio</p>
          ) : (
            <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-4">
              {isPending ? (
                <SkeletonItems
                  count={PLACEHOLDERS}
                  className="aspect-[3/2] rounded-xl"
                  testId="gallery-placeholder"
                />
              ) : (
                shown.map((image) => (
                  <li key={image.id}>
                    <button
                      type="button"
                      onClick={() => setOpen(image)}
                      className="group block w-full overflow-hidden rounded-xl focus-visible:outline-2"
                      aria-label={`Open image: ${image.alt}`}
                      {...imageProtection}
                    >
                      <LazyImage
                        src={image.imageUrl}
                        alt={image.alt}
                        sizes={tileSizes}
                        placeholder={image.placeholder}
                        className="aspect-[3/2] transition-transform duration-500 group-hover:scale-105"
                      />
                    </button>
                  </li>
                ))
              )}
            </ul>
          )}
          {!isPending && !isError && (
            <div className="mt-10 flex flex-col items-center gap-4">
              <p className="text-sm text-zinc-400" aria-live="polite">
                Showing {shown.length} of {images.length} images
              </p>
              {remaining > 0 && (
                <Button
                  variant="secondary"
                  onClick={() => setVisible((count) => Math.min(count + PAGE_SIZE, images.length))}
                >
                  Load More ({remaining} remaining)
                </Button>
              )}
            </div>
          )}
        </div>
      </div>
      {open && (
        <Suspense>
          <Lightbox image={open} onClose={() => setOpen(null)} />
        </Suspense>
      )}
    </section>
  );
}
