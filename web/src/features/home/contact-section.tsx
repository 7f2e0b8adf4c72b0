import { lazy, Suspense } from 'react';
import { business } from '@app/shared/site-copy/site';
import { PageSection } from '../../components/layout/page-section.tsx';
import { ContactDetails } from '../../components/layout/contact-details.tsx';
import { SectionHeading } from './sections.tsx';
import { useNearViewport } from '../../lib/near-viewport.ts';

const ContactForm = lazy(() => import('./contact-form.tsx'));

export function ContactSection() {
  // The form's code (and its validation library) loads as the reader nears the section, not with the page.
  const [section, near] = useNearViewport<HTMLElement>('800px');
  const placeholder = <div aria-hidden className="h-[34rem] animate-pulse rounded-2xl bg-stage-800/60" />;
  return (
    <PageSection
      ref={section}
      id="contact"
      aria-labelledby="contact-title"
      tone="bg-stage-950"
      spacing="py-24"
      width="max-w-6xl"
    >
      <SectionHeading id="contact-title" eyebrow="Contact" title="Let’s Talk About Your Event">
        Tell me about your competition, show or session. I'll get back to you within 24 hours.
      </SectionHeading>
      <div className="mt-14 grid gap-10 lg:grid-cols-[1fr_2fr]">
        <aside className="reveal space-y-6 self-start rounded-2xl border border-white/10 bg-stage-800/60 p-7">
          <ContactDetails
            look="panel"
            as="p"
            place={
              <>
                {business.base}, covering {business.regionsServed.join(', ')}.
              </>
            }
          />
        </aside>
        {near ? (
          <Suspense fallback={placeholder}>
            <ContactForm />
          </Suspense>
        ) : (
          placeholder
        )}
      </div>
    </PageSection>
  );
}
