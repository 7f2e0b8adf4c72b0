import { turnaround } from './site.ts';
import { servicePageHeads, type ServicePageHead } from './service-page-heads.ts';

// The six service pages: what the page shows and what the api puts into its metadata and JSON-LD,
// from one source so the FAQ structured data always matches the FAQ on the page.

export interface ServicePage extends ServicePageHead {
  secondaryButton: { label: string; href: string };
  cards: Array<{ title: string; text: string }>;
  examples?: Array<{ title: string; text: string }>;
  faqs: Array<{ question: string; answer: string }>;
}

const noFees =
  'Every package is quoted for your event; there is nothing to pay up front, then 4 equal fortnightly payments.';

const bodies: Record<string, Omit<ServicePage, keyof ServicePageHead>> = {
  '/dance-photographer': {
    secondaryButton: { label: 'View Video Library', href: '/videos' },
    cards: [
      {
        title: 'Competition Coverage',
        text: 'Every section photographed from the best angle in the theatre.',
      },
      {
        title: 'Studio Sessions',
        text: `Posed portraits and action shots in the studio, delivered within ${turnaround.studioPhotos}.`,
      },
      {
        title: 'Instant Delivery',
        text: 'Photos appear on the app within minutes, so families can share them the same day.',
      },
      { title: 'Secure Galleries', text: 'Galleries stay safely stored for 10 years in one app.' },
    ],
    faqs: [
      {
        question: 'How quickly do we get competition photos?',
        answer: `The first photos reach the app within minutes; the full gallery follows within ${turnaround.competitionPhotos}.`,
      },
      {
        question: 'How long do studio session photos take?',
        answer: `Studio session photos are delivered within ${turnaround.studioPhotos}.`,
      },
      { question: 'Do I have to pay before the competition?', answer: noFees },
      {
        question: 'Where do you photograph?',
        answer:
          'Across New Zealand, including Christchurch, Auckland, Wellington, Blenheim, Canterbury and Marlborough.',
      },
      { question: 'How long are galleries kept?', answer: 'Every gallery is stored securely for 10 years.' },
    ],
  },
  '/concert-photographer': {
    secondaryButton: { label: 'View Video Library', href: '/videos' },
    cards: [
      { title: 'Live Performance', text: 'Soloists, bands and ensembles captured mid-performance.' },
      { title: 'Available Light', text: 'No flash: the mood of the stage lighting is kept in every frame.' },
      {
        title: 'Fast Galleries',
        text: `Edited galleries within ${turnaround.competitionPhotos} of the show.`,
      },
      { title: 'Long-Term Storage', text: 'Your gallery stays stored securely for 10 years.' },
    ],
    faqs: [
      {
        question: 'Do you use flash during concerts?',
        answer:
          'No. Concerts are photographed in the show lighting, so performers and audience are never disturbed.',
      },
      {
        question: 'When will the photos be ready?',
        answer: `Edited galleries are delivered within ${turnaround.competitionPhotos}.`,
      },
      {
        question: 'Can you cover school and community concerts?',
        answer: 'Yes: school, community and professional concerts across New Zealand.',
      },
      { question: 'How is payment handled?', answer: noFees },
      { question: 'How long are galleries kept?', answer: 'Every gallery is stored securely for 10 years.' },
    ],
  },
  '/performing-arts-photographer': {
    secondaryButton: { label: 'View Video Library', href: '/videos' },
    cards: [
      { title: 'Dress Rehearsals', text: 'Full coverage without an audience, from every angle.' },
      { title: 'Production Photos', text: 'The key moments of the show for programmes, press and cast.' },
      {
        title: 'Cast Portraits',
        text: `Headshots and cast photos, delivered within ${turnaround.studioPhotos}.`,
      },
      { title: 'One App', text: 'Cast and families find every photo in one app.' },
    ],
    faqs: [
      {
        question: 'Do you photograph dress rehearsals?',
        answer: 'Yes. Dress rehearsals allow the closest angles without disturbing an audience.',
      },
      {
        question: 'How fast are production photos delivered?',
        answer: `Production galleries are delivered within ${turnaround.competitionPhotos}.`,
      },
      {
        question: 'Can the cast buy their own photos?',
        answer: 'Yes. Cast and families can order through the app, with nothing to pay up front.',
      },
      {
        question: 'Where do you work?',
        answer:
          'Across New Zealand, including Christchurch, Auckland, Wellington, Blenheim, Canterbury and Marlborough.',
      },
      { question: 'How long are the photos kept?', answer: 'Every gallery is stored securely for 10 years.' },
    ],
  },
  '/videographer': {
    secondaryButton: { label: 'View Video Library', href: '/videos' },
    cards: [
      { title: 'Multi-Camera Productions', text: 'Several angles cut together so no moment is missed.' },
      { title: 'Event Documentation', text: 'The whole event recorded, from arrivals to the final bow.' },
      { title: 'Live Streaming', text: 'A live stream so family anywhere can watch as it happens.' },
      { title: 'Post-Production', text: 'Colour, sound and editing finished to a broadcast standard.' },
    ],
    faqs: [
      {
        question: 'How long until we receive our video?',
        answer: `Simple highlight videos take ${turnaround.videoHighlights}; full productions take ${turnaround.fullProductions}.`,
      },
      {
        question: 'How many cameras do you use?',
        answer: 'Most events are filmed with two to five cameras, depending on the venue and the production.',
      },
      {
        question: 'Can you live stream our event?',
        answer: 'Yes. Live streams can be private or public, with the full edit delivered afterwards.',
      },
      { question: 'How do we pay?', answer: noFees },
      {
        question: 'Where do you film?',
        answer:
          'Across New Zealand, including Christchurch, Auckland, Wellington, Blenheim, Canterbury and Marlborough.',
      },
    ],
  },
  '/performing-arts-videographer': {
    secondaryButton: { label: 'View Video Library', href: '/videos' },
    cards: [
      { title: 'Multi-Camera Coverage', text: 'Wide, mid and close angles running through the whole show.' },
      { title: 'Full Productions', text: 'Every scene and song, edited into one complete film.' },
      {
        title: 'Professional Audio',
        text: 'Sound taken from the desk and room microphones and mixed with care.',
      },
      { title: 'Archival Quality', text: 'High-resolution masters kept securely for years to come.' },
    ],
    examples: [
      {
        title: 'Ballet Recital',
        text: 'A full-length ballet recital filmed with a 5-camera setup, from wide stage to close-ups.',
      },
      {
        title: 'Musical Theatre',
        text: 'A school musical with every number, radio-mic audio and a highlights trailer.',
      },
      {
        title: 'Contemporary Dance',
        text: 'A contemporary dance season filmed for the company archive and promotion.',
      },
    ],
    faqs: [
      {
        question: 'How long does a full production take to edit?',
        answer: `Full productions are delivered in ${turnaround.fullProductions}; a highlights video in ${turnaround.videoHighlights}.`,
      },
      {
        question: 'Do you record the audio separately?',
        answer: 'Yes. Audio is recorded from the sound desk and room microphones, then mixed for the film.',
      },
      {
        question: 'Can the cast and families buy the video?',
        answer:
          'Yes. The finished film can be sold through the video library, with free or password-protected copies for the cast.',
      },
      { question: 'What does it cost?', answer: noFees },
      {
        question: 'Where do you film?',
        answer:
          'Theatres across New Zealand, including Christchurch, Auckland, Wellington, Blenheim, Canterbury and Marlborough.',
      },
    ],
  },
  '/dance-videographer': {
    secondaryButton: { label: 'View Dance Videos', href: '/videos' },
    cards: [
      { title: 'Competition Filming', text: 'Every section filmed from the best seat in the house.' },
      { title: 'Recital Documentation', text: 'The whole recital recorded and edited for the studio.' },
      { title: 'Multi-Camera Coverage', text: 'Several angles so every dancer is seen.' },
      { title: 'Professional Quality', text: 'Clean sound, true colour and smooth editing.' },
    ],
    faqs: [
      {
        question: 'How soon are competition videos ready?',
        answer: `Dance competition videos are delivered in ${turnaround.danceCompetitionVideo}.`,
      },
      {
        question: 'How soon are recital videos ready?',
        answer: `Recital videos are delivered in ${turnaround.recitalVideo}.`,
      },
      {
        question: 'Can I buy just my own dancer’s section?',
        answer:
          'Yes. Individual sections are available in the video library, some free and some password-protected for the studio.',
      },
      { question: 'Do we pay up front?', answer: noFees },
      {
        question: 'Where do you film?',
        answer:
          'Across New Zealand, including Christchurch, Auckland, Wellington, Blenheim, Canterbury and Marlborough.',
      },
    ],
  },
};

// Pure: a bundle that never reads the bodies (the web app's first load) leaves them out.
export const servicePages: ServicePage[] = /* @__PURE__ */ servicePageHeads.map((head) => ({
  ...head,
  ...bodies[head.path]!,
}));

export function findServicePage(path: string): ServicePage | undefined {
  return servicePages.find((page) => page.path === path);
}
