import type { ReactNode } from 'react';
import { Link, useLocation } from 'wouter';
import { ArrowRight, Check, ChevronDown, type LucideIcon } from 'lucide-react';
import { business } from '@app/shared/site-copy/site';
import { findServicePage } from '@app/shared/site-copy/service-pages';
import { PageSection } from '../components/layout/page-section.tsx';
import { Button } from '../components/ui/button.tsx';
import { cardClass } from '../components/ui/card.tsx';
import { SiteHeader } from '../components/layout/site-header.tsx';
import { SiteFooter } from '../components/layout/site-footer.tsx';
import { cn } from '../lib/cn.ts';
import { useDocumentTitle } from '../lib/scroll.ts';
import HomePage from './home.tsx';

/** One of the six service pages; their words live in @app/shared/site-copy, shared with the api's metadata. */
export default function ServicePage() {
  const [location] = useLocation();
  const page = findServicePage(location);
  useDocumentTitle(page?.title ?? business.name);
  if (!page) return <HomePage />;

  return (
    <>
      <SiteHeader />
      <main className="pt-16">
        <section className="relative overflow-hidden px-6 py-24 text-center">
          <div className="absolute inset-0 bg-[radial-gradient(ellipse_at_top,rgba(245,185,66,0.22),transparent_65%)]" />
          <div className="relative mx-auto max-w-3xl">
            <p className="text-sm font-semibold tracking-[0.3em] text-spotlight-300 uppercase">
              {business.base}
            </p>
            <h1 className="mt-4 text-4xl font-bold text-white sm:text-5xl">{page.heading}</h1>
            <p className="mt-6 text-lg text-zinc-300">{page.intro}</p>
            <div className="mt-10 flex flex-col justify-center gap-3 sm:flex-row">
              <Button asChild size="lg">
                <Link href="/#contact">
                  {page.kind === 'videographer' ? 'Book Videography Services' : 'Book a Session'}
                </Link>
              </Button>
              <Button asChild size="lg" variant="secondary">
                <Link href={page.secondaryButton.href}>{page.secondaryButton.label}</Link>
              </Button>
            </div>
          </div>
        </section>

        <ServicePart id="what-title" tone="bg-stage-950" width="max-w-6xl" title="What’s Included">
          <TitledTiles items={page.cards} icon={Check} columns="sm:grid-cols-2 lg:grid-cols-4" />
        </ServicePart>

        {page.examples && (
          <ServicePart id="examples-title" tone="bg-stage-900" width="max-w-6xl" title="Recent Productions">
            <TitledTiles items={page.examples} columns="md:grid-cols-3" />
          </ServicePart>
        )}

        <ServicePart id="faq-title" tone="bg-stage-950" width="max-w-3xl" title="Frequently Asked Questions">
          <div className="mt-10 space-y-3">
            {page.faqs.map((faq) => (
              <details
                key={faq.question}
                className="group rounded-xl border border-white/10 bg-stage-800/70 p-5"
              >
                <summary className="flex cursor-pointer list-none items-center justify-between gap-4 font-semibold text-white">
                  {faq.question}
                  <ChevronDown
                    className="size-5 shrink-0 transition-transform group-open:rotate-180"
                    aria-hidden
                  />
                </summary>
                <p className="mt-3 text-zinc-300">{faq.answer}</p>
              </details>
            ))}
          </div>
        </ServicePart>

        <section className="bg-stage-900 px-6 py-20 text-center">
          <h2 className="text-3xl font-bold text-white">Ready to Book?</h2>
          <p className="mx-auto mt-4 max-w-xl text-zinc-400">
            Tell me about your event and I'll get back to you within 24 hours.
          </p>
          <Button asChild size="lg" className="mt-8">
            <Link href="/#contact">
              Enquire Now <ArrowRight className="size-4" aria-hidden />
            </Link>
          </Button>
        </section>
      </main>
      <SiteFooter />
    </>
  );
}

/** A part of the service page under its centred heading, which names it for screen readers. */
function ServicePart({
  id,
  tone,
  width,
  title,
  children,
}: {
  id: string;
  tone: 'bg-stage-900' | 'bg-stage-950';
  width: 'max-w-6xl' | 'max-w-3xl';
  title: string;
  children: ReactNode;
}) {
  return (
    <PageSection aria-labelledby={id} tone={tone} spacing="py-20" width={width}>
      <h2 id={id} className="text-center text-3xl font-bold text-white">
        {title}
      </h2>
      {children}
    </PageSection>
  );
}

/** The page's copy as a grid of bordered tiles, each a title and its text, under an icon where given. */
function TitledTiles({
  items,
  icon: Icon,
  columns,
}: {
  items: { title: string; text: string }[];
  icon?: LucideIcon;
  columns: string;
}) {
  return (
    <ul className={`mt-12 grid gap-6 ${columns}`}>
      {items.map((item) => (
        <li key={item.title} className={`${cardClass} p-6`}>
          {Icon && <Icon className="size-6 text-spotlight-400" aria-hidden />}
          <h3 className={cn(Icon && 'mt-4', 'text-lg font-semibold text-white')}>{item.title}</h3>
          <p className="mt-2 text-zinc-400">{item.text}</p>
        </li>
      ))}
    </ul>
  );
}
