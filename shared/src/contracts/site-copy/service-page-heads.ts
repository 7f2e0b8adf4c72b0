import { turnaround } from './site.ts';

// What every page needs to know about the six service pages (routes, titles, descriptions for the head
// and the first paint). Their bodies are in service-pages.ts, which only the service page itself loads.

export interface ServicePageHead {
  path: string;
  kind: 'photographer' | 'videographer';
  /** <title> and the social sharing title. */
  title: string;
  description: string;
  keywords: string;
  heading: string;
  intro: string;
}

export const servicePageHeads: ServicePageHead[] = [
  {
    path: '/dance-photographer',
    kind: 'photographer',
    title: 'Dance Photographer NZ | Competition & Studio Dance Photography',
    description: `Dance competition and studio photography across New Zealand. Photos on the app within minutes, full galleries within ${turnaround.competitionPhotos}.`,
    keywords:
      'dance photographer, dance competition photography, dance photos NZ, Christchurch dance photographer',
    heading: 'Dance Photographer',
    intro:
      'Solos, duos and troupes photographed at the top of every leap, with photos on the app within minutes of leaving the stage.',
  },
  {
    path: '/concert-photographer',
    kind: 'photographer',
    title: 'Concert Photographer NZ | Live Music & Concert Photography',
    description:
      'Concert and live music photography in Christchurch, Blenheim and across New Zealand, captured without flash in the light of the show.',
    keywords:
      'concert photographer, live music photography, concert photos NZ, Christchurch concert photographer',
    heading: 'Concert Photographer',
    intro:
      'Concerts, choirs and live music photographed in the light the audience saw, quietly and without flash.',
  },
  {
    path: '/performing-arts-photographer',
    kind: 'photographer',
    title: 'Performing Arts Photographer NZ | Theatre & Stage Show Photography',
    description: `Theatre, musical and stage show photography across New Zealand. Dress rehearsals, performances and cast portraits within ${turnaround.competitionPhotos}.`,
    keywords:
      'performing arts photographer, theatre photographer, stage show photography, musical theatre photos NZ',
    heading: 'Performing Arts Photographer',
    intro: 'Theatre, musicals and stage shows, from the dress rehearsal to the final curtain call.',
  },
  {
    path: '/videographer',
    kind: 'videographer',
    title: 'Videographer NZ | Event & Performance Videography',
    description: `Event and performance videography across New Zealand: multi-camera productions, live streaming and post-production. Highlights within ${turnaround.videoHighlights}.`,
    keywords:
      'videographer, event videography, live streaming NZ, multi-camera video, Christchurch videographer',
    heading: 'Videographer',
    intro:
      'Multi-camera films of your event, live streams for the family who cannot be there, and careful post-production.',
  },
  {
    path: '/performing-arts-videographer',
    kind: 'videographer',
    title: 'Performing Arts Videographer NZ | Theatre & Stage Production Filming',
    description: `Performing arts videography across New Zealand: multi-camera coverage, full productions, professional audio and archival quality. Full productions in ${turnaround.fullProductions}.`,
    keywords:
      'performing arts videographer, theatre filming, stage production video, musical theatre videographer NZ',
    heading: 'Performing Arts Videographer',
    intro:
      'Full stage productions filmed with multiple cameras and professional audio, edited into a film the cast will keep for life.',
  },
  {
    path: '/dance-videographer',
    kind: 'videographer',
    title: 'Dance Videographer NZ | Dance Competition & Recital Filming',
    description: `Dance competition and recital videography across New Zealand. Competitions delivered in ${turnaround.danceCompetitionVideo}, recitals in ${turnaround.recitalVideo}.`,
    keywords: 'dance videographer, dance competition video, recital filming, dance videos NZ',
    heading: 'Dance Videographer',
    intro: 'Competition sections and end-of-year recitals filmed for dancers, families and studios.',
  },
];

export function findServicePageHead(path: string): ServicePageHead | undefined {
  return servicePageHeads.find((page) => page.path === path);
}
