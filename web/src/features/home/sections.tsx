import type { ReactNode } from 'react';
import { Link, useLocation } from 'wouter';
import {
  ArrowRight,
  Camera,
  Clapperboard,
  Clock,
  CreditCard,
  Drama,
  Film,
  Music,
  Shield,
  Smartphone,
  Star,
  Video,
  Wallet,
  Zap,
  type LucideIcon,
} from 'lucide-react';
import { about, benefits, business, services } from '@app/shared/site-copy/site';
import { PageSection } from '../../components/layout/page-section.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card, cardClass } from '../../components/ui/card.tsx';
import { goToSection } from '../../lib/scroll.ts';
import { useTestimonials } from './queries.ts';

const icons: Record<string, LucideIcon> = {
  camera: Camera,
  music: Music,
  drama: Drama,
  video: Video,
  clapperboard: Clapperboard,
  film: Film,
  zap: Zap,
  wallet: Wallet,
  shield: Shield,
  smartphone: Smartphone,
  'credit-card': CreditCard,
  clock: Clock,
};

export function SectionHeading({
  id,
  eyebrow,
  title,
  children,
}: {
  id?: string;
  eyebrow: string;
  title: string;
  children?: ReactNode;
}) {
  return (
    <div className="reveal mx-auto max-w-3xl text-center">
      <p className="text-sm font-semibold tracking-[0.25em] text-spotlight-400 uppercase">{eyebrow}</p>
      <h2 id={id} className="mt-3 text-3xl font-bold text-white sm:text-4xl">
        {title}
      </h2>
      {children && <p className="mt-4 text-lg text-zinc-400">{children}</p>}
    </div>
  );
}

export function Services() {
  const [, navigate] = useLocation();
  return (
    <PageSection aria-labelledby="services-title" tone="bg-stage-900" spacing="py-24" width="max-w-7xl">
      <SectionHeading id="services-title" eyebrow="Services" title="Photography & Videography for the Stage">
        From the first competition of the season to the final curtain call.
      </SectionHeading>
      <ul className="mt-14 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
        {services.map((service) => {
          const Icon = icons[service.icon] ?? Camera;
          return (
            <li key={service.path} className={`reveal flex flex-col ${cardClass} p-7`}>
              <Icon className="size-9 text-spotlight-400" aria-hidden />
              <h3 className="mt-5 text-xl font-semibold text-white">{service.title}</h3>
              <p className="mt-2 flex-1 text-zinc-400">{service.text}</p>
              <Link
                href={service.path}
                className="mt-6 inline-flex items-center gap-2 font-semibold text-spotlight-300 hover:text-spotlight-400"
              >
                Learn More <span className="sr-only">about {service.title}</span>
                <ArrowRight className="size-4" aria-hidden />
              </Link>
            </li>
          );
        })}
      </ul>
      <div className="mt-12 text-center">
        <Button size="lg" onClick={() => goToSection('contact', navigate)}>
          Enquire Now
        </Button>
      </div>
    </PageSection>
  );
}

export function WhyChooseUs() {
  const [, navigate] = useLocation();
  return (
    <PageSection aria-label="Why choose us" tone="bg-stage-950" spacing="py-24" width="max-w-7xl">
      <SectionHeading eyebrow="Why Choose Us" title="Made for Dancers and Their Families" />
      <ul className="mt-14 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
        {benefits.map((benefit) => {
          const Icon = icons[benefit.icon] ?? Star;
          return (
            <li
              key={benefit.title}
              className="reveal rounded-2xl border border-white/10 bg-gradient-to-br from-stage-800 to-stage-900 p-7"
            >
              <span className="inline-flex size-12 items-center justify-center rounded-full bg-spotlight-400/15">
                <Icon className="size-6 text-spotlight-300" aria-hidden />
              </span>
              <h3 className="mt-5 text-lg font-semibold text-white">{benefit.title}</h3>
              <p className="mt-2 text-zinc-400">{benefit.text}</p>
            </li>
          );
        })}
      </ul>
      <div className="mt-12 flex flex-col justify-center gap-3 sm:flex-row">
        <Button size="lg" onClick={() => goToSection('competitions', navigate)}>
          Book Your Next Competition
        </Button>
        <Button size="lg" variant="secondary" onClick={() => goToSection('contact', navigate)}>
          Ask Questions
        </Button>
      </div>
    </PageSection>
  );
}

/** The owner's quotes (admin screen); the section is left out while there are none. */
export function Testimonials() {
  const { data: testimonials = [] } = useTestimonials();
  if (testimonials.length === 0) return null;
  return (
    <PageSection aria-label="Testimonials" tone="bg-stage-900" spacing="py-24" width="max-w-7xl">
      <SectionHeading eyebrow="Testimonials" title="What Families and Studios Say" />
      <ul className="mt-14 grid gap-6 md:grid-cols-2 lg:grid-cols-3">
        {testimonials.map((testimonial) => (
          <li key={testimonial.id} className="reveal rounded-2xl border border-white/10 bg-stage-800/60 p-7">
            <figure>
              <div className="flex gap-1" role="img" aria-label="5 out of 5 stars">
                {Array.from({ length: 5 }, (_, index) => (
                  <Star key={index} className="size-4 fill-spotlight-400 text-spotlight-400" aria-hidden />
                ))}
              </div>
              <blockquote className="mt-4 text-zinc-200">“{testimonial.quote}”</blockquote>
              <figcaption className="mt-4 text-sm font-semibold text-spotlight-300">
                {testimonial.name}
                {testimonial.event && (
                  <span className="block font-normal text-zinc-400">{testimonial.event}</span>
                )}
              </figcaption>
            </figure>
          </li>
        ))}
      </ul>
    </PageSection>
  );
}

export function About() {
  return (
    <section id="about" aria-labelledby="about-title" className="bg-stage-950 px-6 py-24">
      <div className="mx-auto grid max-w-6xl items-center gap-12 lg:grid-cols-2">
        <div className="reveal">
          <p className="text-sm font-semibold tracking-[0.25em] text-spotlight-400 uppercase">About</p>
          <h2 id="about-title" className="mt-3 text-3xl font-bold text-white sm:text-4xl">
            {about.heading}
          </h2>
          {about.paragraphs.map((paragraph) => (
            <p key={paragraph} className="mt-5 text-lg text-zinc-300">
              {paragraph}
            </p>
          ))}
          <p className="mt-5 text-zinc-400">Serving {business.regionsServed.join(', ')}.</p>
        </div>
        <dl className="reveal grid gap-4 sm:grid-cols-3 lg:grid-cols-1">
          {about.stats.map((stat) => (
            <Card key={stat.label} className="p-6">
              <dt className="text-sm text-zinc-400">{stat.label}</dt>
              <dd className="mt-1 font-display text-3xl font-bold text-spotlight-300">{stat.value}</dd>
            </Card>
          ))}
        </dl>
      </div>
    </section>
  );
}
