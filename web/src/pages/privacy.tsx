import { business } from '@app/shared/site-copy/site';
import { defaultRetention, privacyIntro, privacySections } from '@app/shared/site-copy/privacy';
import { SiteHeader } from '../components/layout/site-header.tsx';
import { SiteFooter } from '../components/layout/site-footer.tsx';
import { ContactDetails } from '../components/layout/contact-details.tsx';
import { publicConfig } from '../lib/public-config.ts';
import { useDocumentTitle } from '../lib/scroll.ts';

/** /privacy: what the site keeps and for how long (its words in @app/shared/site-copy/privacy). */
export default function PrivacyPage() {
  useDocumentTitle(`Privacy | ${business.name}`);
  // The periods the site is configured with, as the api writes them into the page (and the server render).
  const sections = privacySections(publicConfig().retention ?? defaultRetention);
  return (
    <>
      <SiteHeader />
      <main className="bg-stage-950 px-6 pt-28 pb-20">
        <article className="mx-auto max-w-3xl">
          <h1 className="text-4xl font-bold text-white">Privacy</h1>
          <p className="mt-6 text-lg text-zinc-300">{privacyIntro}</p>
          {sections.map((section) => (
            <section key={section.heading} className="mt-12">
              <h2 className="text-2xl font-semibold text-white">{section.heading}</h2>
              {section.paragraphs.map((paragraph) => (
                <p key={paragraph} className="mt-4 text-zinc-300">
                  {paragraph}
                </p>
              ))}
              {section.points && (
                <ul className="mt-4 list-disc space-y-3 pl-6 text-zinc-300">
                  {section.points.map((point) => (
                    <li key={point}>{point}</li>
                  ))}
                </ul>
              )}
            </section>
          ))}
          <section className="mt-12">
            <h2 className="text-2xl font-semibold text-white">Contact us</h2>
            <ul className="mt-4 space-y-3 text-zinc-300">
              <ContactDetails look="footer" as="li" place={business.base} />
            </ul>
          </section>
        </article>
      </main>
      <SiteFooter />
    </>
  );
}
