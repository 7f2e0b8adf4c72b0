// The site's own words: the one place the owner edits the business's details and marketing copy.
// Browser-safe; the web app renders it and the api puts the same facts into each page's metadata.

export const business = {
  name: 'Stagelight Studio',
  tagline: 'Performing arts photography & videography',
  base: 'Christchurch & Blenheim, New Zealand',
  regionsServed: ['Christchurch', 'Auckland', 'Wellington', 'Blenheim', 'Canterbury', 'Marlborough'],
  priceRange: '$$',
} as const;

export const turnaround = {
  competitionPhotos: '24-48 hours',
  studioPhotos: '1 week',
  videoHighlights: '1-2 weeks',
  fullProductions: '2-4 weeks',
  danceCompetitionVideo: '1-2 weeks',
  recitalVideo: '2-3 weeks',
} as const;

/** The six marketing claims, as the why-choose-us benefits. */
export const benefits = [
  {
    icon: 'zap',
    title: 'Delivered Within Minutes',
    text: 'Competition photos and videos reach the app within minutes of coming off stage.',
  },
  {
    icon: 'wallet',
    title: 'Nothing Up Front',
    text: 'Pay nothing up front, then 4 equal fortnightly payments.',
  },
  {
    icon: 'shield',
    title: '10-Year Secure Storage',
    text: 'Every gallery is stored securely for 10 years, so nothing is ever lost.',
  },
  {
    icon: 'smartphone',
    title: 'One App for Everything',
    text: 'One app holds your galleries from every competition, all in one place.',
  },
  {
    icon: 'credit-card',
    title: 'Online Prebooking',
    text: 'Prebook online with secure payment before the competition starts.',
  },
  {
    icon: 'clock',
    title: 'Fast Turnaround',
    text: `Competition photos within ${turnaround.competitionPhotos}; studio session photos within ${turnaround.studioPhotos}.`,
  },
] as const;

export const services = [
  {
    path: '/dance-photographer',
    title: 'Dance Photography',
    text: 'Solos, troupes and competitions, captured at the peak of every leap and turn.',
    icon: 'camera',
  },
  {
    path: '/concert-photographer',
    title: 'Concert Photography',
    text: 'Concerts and live music, lit the way the audience saw it.',
    icon: 'music',
  },
  {
    path: '/performing-arts-photographer',
    title: 'Performing Arts Photography',
    text: 'Theatre, musicals and stage shows from dress rehearsal to curtain call.',
    icon: 'drama',
  },
  {
    path: '/videographer',
    title: 'Videography',
    text: 'Multi-camera event films, live streams and polished post-production.',
    icon: 'video',
  },
  {
    path: '/performing-arts-videographer',
    title: 'Performing Arts Videography',
    text: 'Full productions filmed with multiple cameras and professional audio.',
    icon: 'clapperboard',
  },
  {
    path: '/dance-videographer',
    title: 'Dance Videography',
    text: 'Competition sections and recitals, filmed for dancers and studios.',
    icon: 'film',
  },
] as const;

export const about = {
  heading: 'Behind the Lens',
  paragraphs: [
    'I photograph and film dancers, performers and the people who put them on stage. From Christchurch and Blenheim I travel across New Zealand to dance competitions, stage shows, recitals and concerts.',
    'Years in theatres have taught me where the light falls and when the moment comes, so every leap, turn and triumph is caught at its peak, without a flash and without distracting the performers.',
    `Competition photos arrive on the app within minutes, full galleries within ${turnaround.competitionPhotos}, and everything stays safely stored for 10 years.`,
  ],
  stats: [
    { value: 'Minutes', label: 'to your first photos' },
    { value: '10 years', label: 'secure gallery storage' },
    { value: '6 regions', label: 'covered across NZ' },
  ],
} as const;

/** The home page's opening words: rendered by the web app and, before it loads, by the api's page shell. */
export const hero = {
  eyebrow: 'Photography & Videography',
  heading: 'Capturing Every Leap, Turn, and Triumph',
  intro:
    'Dance competitions, stage shows, recitals and concerts across New Zealand. Photos within minutes, nothing to pay up front.',
  image: '/api/images/hero/stage-hero.jpg',
  imageAlt: 'Dancer in a spotlight on a dark stage',
} as const;
