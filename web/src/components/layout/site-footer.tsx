import { Link, useLocation } from 'wouter';
import { Aperture } from 'lucide-react';
import { business, services } from '@app/shared/site-copy/site';
import { goToSection } from '../../lib/scroll.ts';
import { ContactDetails } from './contact-details.tsx';
import { sectionLinks } from './nav-links.ts';

export function SiteFooter() {
  const [, navigate] = useLocation();
  return (
    <footer className="border-t border-white/10 bg-stage-950 text-sm text-zinc-400">
      <div className="mx-auto grid max-w-7xl gap-10 px-6 py-14 sm:grid-cols-2 lg:grid-cols-4">
        <div className="lg:col-span-1">
          <p className="flex items-center gap-2 font-display text-lg font-semibold text-white">
            <Aperture className="size-5 text-spotlight-400" aria-hidden />
            {business.name}
          </p>
          <p className="mt-3">{business.tagline} for dancers, studios and stage productions.</p>
        </div>
        <nav aria-label="Quick links">
          <h2 className="font-sans text-sm font-semibold tracking-wider text-white uppercase">Quick Links</h2>
          <ul className="mt-4 space-y-2">
            {sectionLinks.map((link) => (
              <li key={link.section}>
                <a
                  href={`/#${link.section}`}
                  className="hover:text-spotlight-300"
                  onClick={(event) => {
                    event.preventDefault();
                    goToSection(link.section, navigate);
                  }}
                >
                  {link.label}
                </a>
              </li>
            ))}
            <li>
              <Link href="/videos" className="hover:text-spotlight-300">
                Video Library
              </Link>
            </li>
            <li>
              <Link href="/my-videos" className="hover:text-spotlight-300">
                My Videos
              </Link>
            </li>
            <li>
              <Link href="/privacy" className="hover:text-spotlight-300">
                Privacy
              </Link>
            </li>
          </ul>
        </nav>
        <nav aria-label="Services">
          <h2 className="font-sans text-sm font-semibold tracking-wider text-white uppercase">Services</h2>
          <ul className="mt-4 space-y-2">
            {services.map((service) => (
              <li key={service.path}>
                <Link href={service.path} className="hover:text-spotlight-300">
                  {service.title}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <div>
          <h2 className="font-sans text-sm font-semibold tracking-wider text-white uppercase">
            Get in Touch
          </h2>
          <ul className="mt-4 space-y-3">
            <ContactDetails look="footer" as="li" place={business.base} />
          </ul>
        </div>
      </div>
      <div className="border-t border-white/10">
        <div className="mx-auto flex max-w-7xl flex-col items-center justify-between gap-2 px-6 py-5 sm:flex-row">
          {/* The server's year may not be the reader's around New Year (another time zone): keep it. */}
          <p suppressHydrationWarning>
            © {new Date().getFullYear()} {business.name}. {business.base}.
          </p>
          <Link href="/admin" className="hover:text-spotlight-300">
            Admin
          </Link>
        </div>
      </div>
    </footer>
  );
}
