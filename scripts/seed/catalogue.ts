// A season-scale video library (issue 15): about 60 showcases of 300-1,000 routines each, with the
// titles, tags and prices a videographer's uploads have. Rows go in 1,000 at a time (multi-row
// inserts), so 50,000 videos take seconds. Previews reuse the demo pictures.
import { sql } from 'drizzle-orm';
import { slugify } from '@app/shared/library';
import { showcases, videos, type Db } from '@app/shared/db';
import { hashPassword } from '@app/shared/password';

const cities = [
  'Christchurch',
  'Auckland',
  'Wellington',
  'Dunedin',
  'Nelson',
  'Hamilton',
  'Tauranga',
  'Blenheim',
  'Invercargill',
  'Napier',
  'Timaru',
  'Whangārei',
];
const kinds = [
  'Dance Festival',
  'Performing Arts Competition',
  'Jazz & Tap Championships',
  'Ballet Eisteddfod',
  'Hip Hop Battle',
  'Contemporary Dance Cup',
  'Stage Showcase',
  'Recital',
];
const styles = [
  'Jazz',
  'Tap',
  'Ballet',
  'Contemporary',
  'Lyrical',
  'Hip Hop',
  'Musical Theatre',
  'Acro',
  'Character',
  'Demi-Character',
  'Neoclassical',
  'Open',
];
const ages = ['Under 8', 'Under 10', 'Junior', 'Intermediate', 'Senior', 'Open Age'];
const sections = ['Solo', 'Duo', 'Trio', 'Group', 'Troupe'];
const studios = [
  'Arabesque Academy',
  'Centre Stage Studio',
  'Pointe Perfect',
  'Southern Lights Dance',
  'Tūī Dance Co',
  'Kōwhai School of Dance',
  'Rhythm Nation',
  'Studio 51',
  'Encore Performing Arts',
  'Mana Movement',
];
const previews = [
  'previews/solo-highlights.jpg',
  'previews/senior-contemporary.jpg',
  'previews/junior-ballet-recital.jpg',
];
const SAMPLE_VIDEO_KEY = 'videos/sample-performance.mp4';
const BATCH = 1_000;

/** A small deterministic generator, so two runs make the same catalogue. */
function random(seed: number) {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 4_294_967_296;
  };
}

export interface CatalogueOptions {
  videos: number;
  /** Showcases to spread them over; about one per 800 videos by default. */
  showcases?: number;
  seed?: number;
}

/** Adds `videos` routines in new showcases (named after the season they were filmed in). */
export async function seedCatalogue(
  db: Db,
  options: CatalogueOptions,
): Promise<{ showcases: number; videos: number }> {
  const next = random(options.seed ?? 15);
  const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)]!;
  const showcaseCount = Math.max(1, options.showcases ?? Math.round(options.videos / 800));
  const passwordHash = await hashPassword('season-password');
  const existing = await db.$count(showcases);
  const now = Date.now();
  const rows = Array.from({ length: showcaseCount }, (_, index) => {
    const year = 2026 - Math.floor(index / 12);
    const name = `${cities[index % cities.length]} ${kinds[Math.floor(index / cities.length) % kinds.length]} ${year}`;
    return {
      name,
      slug: `${slugify(name)}-${existing + index + 1}`,
      description: `Every routine filmed at the ${name}, multi-camera, ready to watch or download.`,
      orderPriority: existing + index,
    };
  });
  const made = await db.insert(showcases).values(rows).returning({ id: showcases.id, name: showcases.name });

  // Sizes of 300-1,000 that add up to `videos`, in proportion.
  const weights = made.map(() => 300 + next() * 700);
  const sum = weights.reduce((total, weight) => total + weight, 0);
  const sizes = weights.map((weight) => Math.floor((weight / sum) * options.videos));
  sizes[0]! += options.videos - sizes.reduce((total, size) => total + size, 0);

  let inserted = 0;
  let batch: Array<typeof videos.$inferInsert> = [];
  for (const [index, showcase] of made.entries()) {
    for (let routine = 1; routine <= sizes[index]!; routine++) {
      const style = pick(styles);
      const age = pick(ages);
      const section = pick(sections);
      const studio = pick(studios);
      const protectedVideo = next() < 0.05;
      batch.push({
        title: `Routine ${routine} - ${age} ${section} ${style}`,
        description: `${studio}, ${age.toLowerCase()} ${section.toLowerCase()} ${style.toLowerCase()} at the ${showcase.name}.`,
        tags: [studio, age, style, section],
        showcaseId: showcase.id,
        priceCents: next() < 0.1 ? 0 : pick([1500, 2000, 2500, 3000, 3500]),
        awsKey: SAMPLE_VIDEO_KEY,
        previewUrl: pick(previews),
        passwordProtected: protectedVideo,
        passwordHash: protectedVideo ? passwordHash : null,
        // Filmed over past seasons: newer showcases hold newer routines.
        createdAt: new Date(now - (index * 7 + routine / 1_000) * 86_400_000),
      });
      if (batch.length === BATCH) {
        await db.insert(videos).values(batch);
        inserted += batch.length;
        batch = [];
      }
    }
  }
  if (batch.length) {
    await db.insert(videos).values(batch);
    inserted += batch.length;
  }
  // Planner statistics now, as autovacuum would make them a little later: without them the search
  // queries guess their match counts and pick slow plans.
  await db.execute(sql`analyze videos, showcases`);
  return { showcases: made.length, videos: inserted };
}
