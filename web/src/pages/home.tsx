import { useEffect } from 'react';
import { SiteHeader } from '../components/layout/site-header.tsx';
import { SiteFooter } from '../components/layout/site-footer.tsx';
import { scrollToSection, useScrollReveal } from '../lib/scroll.ts';
import { Hero } from '../features/home/hero.tsx';
import { About, Services, Testimonials, WhyChooseUs } from '../features/home/sections.tsx';
import { PortfolioGallery } from '../features/home/portfolio-gallery.tsx';
import { Competitions } from '../features/home/competitions.tsx';
import { ContactSection } from '../features/home/contact-section.tsx';

/** The single-page home; also what any unknown path shows (the server answers those with 404). */
export default function HomePage() {
  useScrollReveal();
  useEffect(() => {
    // Arriving at /#contact (from another page) scrolls there once the sections exist.
    const section = window.location.hash.slice(1);
    if (section) requestAnimationFrame(() => scrollToSection(section));
  }, []);

  return (
    <>
      <SiteHeader />
      <main>
        <Hero />
        <Services />
        <WhyChooseUs />
        <Testimonials />
        <PortfolioGallery />
        <Competitions />
        <About />
        <ContactSection />
      </main>
      <SiteFooter />
    </>
  );
}
