import { lazy, Suspense } from 'react';
import { Mail, MapPin } from 'lucide-react';
import { business } from '@app/shared/site-copy/site';
import { publicConfig } from '../../lib/public-config.ts';
import { SectionHeading } from './sections.tsx';
import { useNearViewport } from '../../lib/near-viewport.ts';

const ContactForm = lazy(() => import('./contact-form.tsx'));

export function ContactSection() {
  const { contactEmail } = publicConfig();
  // The form's code (and its validation library) loads as the reader nears the section, not with the page.
  const [section, near] = useNearViewport<HTMLElement>('800px');
  const placeholder = <div aria-hidden className="h-[34rem] animate-pulse rounded-2xl bg-stage-800/60" />;
  return (
    <section ref={section} id="contact" aria-labelledby="contact-title" className="bg-stage-950 px-6 py-24">
      <div className="mx-auto max-w-6xl">
        <SectionHeading id="contact-title" eyebrow="Contact" title="Let’s Talk About Your Event">
          Tell me about your competition, show or session. I'll get back to you within 24 hours.
        </SectionHeading>
        <div className="mt-14 grid gap-10 lg:grid-cols-[1fr_2fr]">
          <aside className="reveal space-y-6 self-start rounded-2xl border border-white/10 bg-stage-800/60 p-7">
            <p className="flex gap-3 text-zinc-300">
              <MapPin className="size-5 shrink-0 text-spotlight-400" aria-hidden />
              {business.base}, covering {business.regionsServed.join(', ')}.
            </p>
            {contactEmail && (
              <p className="flex gap-3 text-zinc-300">
                <Mail className="size-5 shrink-0 text-spotlight-400" aria-hidden />
                <a href={`mailto:${contactEmail}`} className="break-all text-spotlight-300 hover:underline">
                  {contactEmail}
                </a>
              </p>
            )}
          </aside>
          {near ? (
            <Suspense fallback={placeholder}>
              <ContactForm />
            </Suspense>
          ) : (
            placeholder
          )}
        </div>
      </div>
    </section>
  );
}
