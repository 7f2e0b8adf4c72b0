import { useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import { useLocation } from 'wouter';
import { ExternalLink, Pause, Play } from 'lucide-react';
import { imageSrcSet, imageUrl } from '@app/shared/images';
import { hero } from '@app/shared/site-copy/site';
import { Button } from '../../components/ui/button.tsx';
import { cn } from '../../lib/cn.ts';
import { useInBrowser } from '../../lib/in-browser.ts';
import { goToSection } from '../../lib/scroll.ts';
import { publicConfig } from '../../lib/public-config.ts';
import { usePortfolio, type PortfolioImage } from './queries.ts';

const SLIDE_INTERVAL_MS = 5_000;
const RANDOM_SLIDES = 4;
const reducedMotion = '(prefers-reduced-motion: reduce)';

/** Whether the reader asked for less motion; false on the server (and while hydrating). */
function useReducedMotion(): boolean {
  return useSyncExternalStore(
    (changed) => {
      const query = window.matchMedia(reducedMotion);
      query.addEventListener('change', changed);
      return () => query.removeEventListener('change', changed);
    },
    () => window.matchMedia(reducedMotion).matches,
    () => false,
  );
}

function pickRandom(images: PortfolioImage[], count: number): PortfolioImage[] {
  const pool = [...images];
  for (let index = pool.length - 1; index > 0; index--) {
    const other = Math.floor(Math.random() * (index + 1));
    [pool[index], pool[other]] = [pool[other]!, pool[index]!];
  }
  return pool.slice(0, count);
}

/**
 * Full-screen slideshow: the fixed hero image, then four random featured photos (any photos while
 * the owner has featured none), every 5 s with a 1 s fade.
 */
export function Hero() {
  const [, navigate] = useLocation();
  const { data } = usePortfolio();
  // The server's copy and the browser's first render show the fixed picture alone (hydration needs them
  // to match); the random picks join once the app holds the page.
  const inBrowser = useInBrowser();
  const slides = useMemo(() => {
    const featured = (data ?? []).filter((image) => image.featured);
    const picks = inBrowser ? pickRandom(featured.length > 0 ? featured : (data ?? []), RANDOM_SLIDES) : [];
    return [
      { src: hero.image, alt: hero.imageAlt },
      ...picks.map((image) => ({ src: image.imageUrl, alt: image.alt })),
    ];
  }, [data, inBrowser]);
  const [current, setCurrent] = useState(0);
  // Moving pictures can be stopped (WCAG 2.2.2), and do not start for readers who asked for less motion.
  const [chosen, setChosen] = useState<boolean>();
  const reduced = useReducedMotion();
  const playing = chosen ?? !reduced;
  const { appUrl } = publicConfig();

  useEffect(() => {
    if (slides.length < 2 || !playing) return;
    const timer = setInterval(() => setCurrent((index) => (index + 1) % slides.length), SLIDE_INTERVAL_MS);
    return () => clearInterval(timer);
  }, [slides.length, current, playing]);

  return (
    <section
      id="home"
      aria-label="Welcome"
      className="relative flex min-h-svh items-center justify-center overflow-hidden"
    >
      {slides.map((slide, index) => (
        <img
          key={slide.src}
          src={imageUrl(slide.src, 1280)}
          srcSet={imageSrcSet(slide.src)}
          sizes="100vw"
          alt={index === current ? slide.alt : ''}
          aria-hidden={index !== current}
          fetchPriority={index === 0 ? 'high' : 'low'}
          loading={index === 0 ? 'eager' : 'lazy'}
          className={cn(
            'absolute inset-0 size-full object-cover transition-opacity duration-1000 ease-in-out motion-reduce:transition-none',
            index === current ? 'opacity-100' : 'opacity-0',
          )}
        />
      ))}
      <div className="absolute inset-0 bg-gradient-to-b from-stage-950/70 via-stage-950/40 to-stage-950" />
      <div className="relative mx-auto max-w-4xl px-6 pt-16 text-center">
        <p className="text-sm font-semibold tracking-[0.3em] text-spotlight-300 uppercase">{hero.eyebrow}</p>
        <h1 className="mt-4 text-4xl leading-tight font-bold text-white sm:text-6xl">{hero.heading}</h1>
        <p className="mx-auto mt-6 max-w-2xl text-lg text-zinc-200">{hero.intro}</p>
        <div className="mt-10 flex flex-col items-center justify-center gap-3 sm:flex-row sm:flex-wrap">
          <Button size="lg" onClick={() => goToSection('competitions', navigate)}>
            Dance Competition Bookings
          </Button>
          <Button size="lg" variant="secondary" onClick={() => goToSection('portfolio', navigate)}>
            View Portfolio
          </Button>
          <Button size="lg" variant="secondary" onClick={() => goToSection('contact', navigate)}>
            Book Session
          </Button>
          {appUrl && (
            <Button asChild size="lg" variant="secondary">
              <a href={appUrl} target="_blank" rel="noopener noreferrer">
                Install my App <ExternalLink className="size-4" aria-hidden />
              </a>
            </Button>
          )}
        </div>
      </div>
      {slides.length > 1 && (
        <div
          className="absolute bottom-8 left-1/2 flex -translate-x-1/2 items-center gap-1"
          role="group"
          aria-label="Choose slide"
        >
          <button
            type="button"
            aria-label={playing ? 'Pause slideshow' : 'Play slideshow'}
            onClick={() => setChosen(!playing)}
            className="mr-1 flex size-6 items-center justify-center rounded-full text-white/70 hover:text-white"
          >
            {playing ? <Pause className="size-3.5" aria-hidden /> : <Play className="size-3.5" aria-hidden />}
          </button>
          {slides.map((slide, index) => (
            <button
              key={slide.src}
              type="button"
              aria-label={`Show slide ${index + 1} of ${slides.length}`}
              aria-pressed={index === current}
              onClick={() => setCurrent(index)}
              className="flex size-6 items-center justify-center"
            >
              <span
                className={cn(
                  'block h-2 rounded-full transition-all',
                  index === current ? 'w-6 bg-spotlight-400' : 'w-2 bg-white/50 hover:bg-white/80',
                )}
              />
            </button>
          ))}
        </div>
      )}
    </section>
  );
}
