// Sample quotes for a developer's database (scripts/seed.ts, never in production): invented, so they
// must never reach a real site, where they would read as genuine reviews.
export const sampleTestimonials = [
  {
    name: 'Sarah M., dance parent',
    quote:
      'The photos were on the app before my daughter had even changed out of her costume. Absolutely stunning shots.',
  },
  {
    name: 'Aroha T., studio director',
    quote:
      'Our whole studio uses the app now. Every competition, every dancer, all in one place and beautifully shot.',
  },
  {
    name: 'James R., competition organiser',
    quote:
      'Professional, unobtrusive and incredibly fast. Our families love being able to prebook with nothing up front.',
  },
  {
    name: 'Mere K., dancer',
    quote:
      'I finally have photos of my solo that show the height of my leaps. The lighting is always spot on.',
  },
  {
    name: 'Lisa W., dance parent',
    quote: 'Paying in four fortnightly instalments made it easy to get the whole gallery for both my girls.',
  },
  {
    name: 'Daniel P., theatre company',
    quote:
      'The multi-camera film of our musical looked like a broadcast. The cast have watched it a hundred times.',
  },
  {
    name: 'Hannah L., ballet teacher',
    quote: 'Knowing the recital photos are stored safely for ten years gives our parents real peace of mind.',
  },
] as const;
