// Demo content for a fresh install: generated pictures, a portfolio, competitions, showcases and videos
// (with a small playable sample). Each table group is seeded only while it is empty, so running this
// again, or on a database the owner has filled, changes no rows; a demo video's missing files come back.
// `--videos N` also fills the library up to N videos with a season-scale catalogue (seed/catalogue.ts).
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig, type Config } from '@app/shared/config';
import {
  createDatabase,
  events,
  portfolioItems,
  onlineAlerts,
  programmeEntries,
  showcases,
  testimonials,
  videos,
  type Db,
} from '@app/shared/db';
import { hashPassword } from '@app/shared/password';
import { createProducer, createRedis } from '@app/shared/queue';
import { createStorage, type Storage } from '@app/shared/storage';
import { slugify } from '@app/shared/library';
import { seedCatalogue } from './seed/catalogue.ts';
import { demoProgramme, writeProgramme } from './seed/programme.ts';
import { applyEntryText } from '@app/shared/programme';
import { renderScene, sceneJpeg } from './seed/images.ts';
import { sampleTestimonials } from './seed/testimonials.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
export const publicImagesDir = path.join(root, 'web/public-images');

const portfolioPlan = [
  { category: 'solo', count: 15, dancers: 1, hue: 38, label: 'Solo' },
  { category: 'group', count: 10, dancers: 5, hue: 300, label: 'Group' },
  { category: 'stage', count: 9, dancers: 3, hue: 205, label: 'Stage' },
  { category: 'studio', count: 8, dancers: 1, hue: 18, label: 'Studio' },
] as const;

const altText: Record<string, string[]> = {
  solo: [
    'Soloist in an arabesque under a warm spotlight',
    'Contemporary soloist mid-leap',
    'Lyrical solo reaching upward',
  ],
  group: [
    'Jazz troupe in a synchronised leap',
    'Group of dancers in formation on stage',
    'Hip hop crew finishing their routine',
  ],
  stage: [
    'Full stage with coloured lighting during a recital',
    'Ensemble on stage in a musical theatre number',
    'Curtain call at a stage show',
  ],
  studio: [
    'Studio portrait of a dancer in a turn',
    'Studio session with a ballerina on pointe',
    'Studio shot of a contemporary pose',
  ],
};

const SAMPLE_VIDEO_KEY = 'videos/sample-performance.mp4';
// Each protected demo video has a file of its own (the same sample): outputs are named by the file,
// and a protected video's poster frame and clip must be neither the open videos' public ones nor
// opened by another protected video's password.
const privateSampleKey = (slug: string) => `videos/sample-performance-${slug}.mp4`;
const previewKey = (slug: string) => `previews/${slug}.jpg`;

const demoVideos = [
  {
    slug: 'solo-highlights',
    title: 'Solo Highlights Reel',
    description: 'Two minutes of the best solo moments from the festival.',
    tags: ['solo', 'highlights', 'free'],
    showcase: 'festival',
    priceCents: 0,
    password: null,
    hue: 40,
  },
  {
    slug: 'senior-contemporary',
    title: 'Senior Contemporary Group',
    description: 'The full senior contemporary group section, multi-camera.',
    tags: ['contemporary', 'group', 'senior'],
    showcase: 'festival',
    priceCents: 2500,
    password: null,
    hue: 300,
  },
  {
    slug: 'junior-jazz-duo',
    title: 'Junior Jazz Duo',
    description: 'A junior jazz duo from the festival’s Saturday session, two cameras.',
    tags: ['jazz', 'duo', 'junior'],
    showcase: 'festival',
    priceCents: 1500,
    password: null,
    hue: 85,
  },
  {
    slug: 'junior-ballet-recital',
    title: 'Junior Ballet Recital',
    description: 'The complete junior ballet recital, filmed with five cameras.',
    tags: ['ballet', 'recital', 'junior'],
    showcase: 'marlborough',
    priceCents: 1500,
    password: 'recital2026',
    hue: 205,
  },
  {
    slug: 'studio-open-day',
    title: 'Studio Open Day Teaser',
    description: 'A short teaser from the studio open day, for families of the studio.',
    tags: ['studio', 'teaser'],
    showcase: null,
    priceCents: 0,
    password: 'openday',
    hue: 18,
  },
  {
    slug: 'contemporary-studio-film',
    title: 'Contemporary Solo Studio Film',
    description: 'A cinematic studio film of a contemporary solo, graded and scored.',
    tags: ['contemporary', 'solo', 'studio'],
    showcase: 'studio',
    priceCents: 900,
    password: null,
    hue: 160,
  },
] as const;

function dayFromToday(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}

async function ensureImages(): Promise<void> {
  const jobs: Array<Promise<void>> = [
    renderScene(path.join(publicImagesDir, 'hero/stage-hero.jpg'), {
      width: 1920,
      height: 1080,
      seed: 11,
      dancers: 1,
      hue: 40,
    }),
  ];
  for (const plan of portfolioPlan) {
    for (let index = 1; index <= plan.count; index++) {
      jobs.push(
        renderScene(
          path.join(publicImagesDir, `portfolio/${plan.category}-${String(index).padStart(2, '0')}.jpg`),
          {
            width: 1600,
            height: 1067,
            seed: index * 7 + plan.hue,
            dancers: plan.dancers,
            hue: (plan.hue + index * 23) % 360,
            studio: plan.category === 'studio',
          },
        ),
      );
    }
  }
  for (let index = 1; index <= 9; index++) {
    jobs.push(
      renderScene(path.join(publicImagesDir, `attached_assets/event-${String(index).padStart(2, '0')}.jpg`), {
        width: 1200,
        height: 800,
        seed: index * 13,
        dancers: (index % 4) + 1,
        hue: (index * 40) % 360,
      }),
    );
  }
  await Promise.all(jobs);
}

/**
 * The files the demo videos point at. Restored whenever a row still points at a missing one: a second
 * checkout sharing the database, or a cleared data/ folder, would otherwise show broken previews.
 * Files nobody points at are not written (an owner's bucket gets nothing it does not use).
 */
async function ensureDemoFiles(db: Db, storage: Storage): Promise<string[]> {
  const rows = await db.select({ awsKey: videos.awsKey, previewUrl: videos.previewUrl }).from(videos);
  const used = new Set(rows.flatMap((row) => [row.awsKey, row.previewUrl]));
  const restored: string[] = [];
  const sampleKeys = demoVideos.map((video) =>
    video.password === null ? SAMPLE_VIDEO_KEY : privateSampleKey(video.slug),
  );
  for (const key of new Set(sampleKeys)) {
    if (!used.has(key) || (await storage.head(key))) continue;
    const sample = await readFile(path.join(root, 'scripts/seed/sample-performance.mp4'));
    await storage.put(key, sample, 'video/mp4');
    restored.push(key);
  }
  for (const [index, video] of demoVideos.entries()) {
    const key = previewKey(video.slug);
    if (!used.has(key) || (await storage.head(key))) continue;
    const picture = await sceneJpeg({
      width: 960,
      height: 540,
      seed: index + 3,
      dancers: (index % 4) + 1,
      hue: video.hue,
    });
    await storage.put(key, picture, 'image/jpeg');
    restored.push(key);
  }
  return restored;
}

/**
 * The worker makes each demo video's poster and preview clip once it runs; without Redis the videos
 * stay "Queued" and the admin's "Process again" queues them.
 */
async function queueProcessing(config: Config, rows: Array<{ id: string; awsKey: string }>) {
  if (rows.length === 0) return;
  const redis = createRedis(config.REDIS_URL, 'client');
  const producer = createProducer(redis, config.QUEUE_PREFIX);
  try {
    for (const row of rows) await producer.enqueue('process-video', { videoId: row.id, awsKey: row.awsKey });
  } catch (error) {
    console.warn(`Demo videos not queued for processing: ${(error as Error).message}`);
  } finally {
    await producer.close();
    redis.disconnect();
  }
}

/** `--videos N`: the library's size to reach (0: leave it as it is). */
function videosWanted(args: string[]): number {
  const at = args.indexOf('--videos');
  if (at === -1) return 0;
  const count = Number(args[at + 1]);
  if (!Number.isInteger(count) || count < 0 || count > 1_000_000) {
    throw new Error('--videos takes a whole number of videos from 0 to 1,000,000');
  }
  return count;
}

async function main(): Promise<void> {
  const config = loadConfig();
  const toProcess: Array<{ id: string; awsKey: string }> = [];
  const { db, pool } = createDatabase(config.DATABASE_URL, { max: 2 });
  const storage = createStorage(config);
  const seeded: string[] = [];
  try {
    await ensureImages();

    if ((await db.$count(portfolioItems)) === 0) {
      // The hero's first slide is fixed (content); featured photos are the slides after it.
      const rows: Array<typeof portfolioItems.$inferInsert> = [];
      for (const plan of portfolioPlan) {
        for (let index = 1; index <= plan.count; index++) {
          const alts = altText[plan.category]!;
          rows.push({
            imageUrl: `/api/images/portfolio/${plan.category}-${String(index).padStart(2, '0')}.jpg`,
            alt: alts[index % alts.length]!,
            category: plan.category,
            featured: index <= 2,
            position: index - 1,
          });
        }
      }
      await db.insert(portfolioItems).values(rows);
      seeded.push(`${rows.length} portfolio images`);
    }

    if ((await db.$count(events)) === 0) {
      const rows: Array<typeof events.$inferInsert> = [
        {
          title: 'Canterbury Dance Festival',
          description:
            'Solo, duo and group sections across ballet, jazz, contemporary and hip hop. Photos on the app within minutes of each section.',
          date: dayFromToday(21),
          location: 'Isaac Theatre Royal, Christchurch',
          eventType: 'competition',
          imageUrl: '/api/images/attached_assets/event-01.jpg',
          jotformUrl: 'https://form.jotform.com/demo/canterbury-dance-festival',
        },
        {
          title: 'Marlborough Performing Arts Competition',
          description:
            'Three days of dance and stage sections at the ASB Theatre. Prebook your photos and videos with no upfront cost.',
          date: dayFromToday(48),
          location: 'ASB Theatre Marlborough, Blenheim',
          eventType: 'competition',
          imageUrl: '/api/images/attached_assets/event-02.jpg',
          jotformUrl: 'https://form.jotform.com/demo/marlborough-performing-arts',
        },
        {
          title: 'Wellington Jazz & Tap Championships',
          description: 'Jazz, tap and musical theatre sections for all ages.',
          date: dayFromToday(83),
          location: 'Michael Fowler Centre, Wellington',
          eventType: 'competition',
          imageUrl: '/api/images/attached_assets/event-03.jpg',
          jotformUrl: 'https://form.jotform.com/demo/wellington-jazz-tap',
        },
        {
          title: 'Auckland Contemporary Dance Cup',
          description: 'Contemporary and lyrical solos and troupes. Bookings open soon.',
          date: dayFromToday(124),
          location: 'Bruce Mason Centre, Auckland',
          eventType: 'competition',
          imageUrl: '/api/images/attached_assets/event-04.jpg',
          jotformUrl: null,
        },
        {
          title: 'Christchurch Ballet Recital',
          description: 'End-of-year recital photography and multi-camera video.',
          date: dayFromToday(160),
          location: 'Christchurch Town Hall',
          eventType: 'recital',
          imageUrl: '/api/images/attached_assets/event-05.jpg',
          jotformUrl: null,
        },
      ];
      await db.insert(events).values(rows);
      seeded.push(`${rows.length} events`);
    }

    if ((await db.$count(videos)) === 0 && (await db.$count(showcases)) === 0) {
      const [festival, marlborough, studio] = await db
        .insert(showcases)
        .values([
          {
            name: 'Canterbury Dance Festival 2026',
            slug: slugify('Canterbury Dance Festival 2026'),
            description: 'Highlights and full sections from this year’s festival.',
            orderPriority: 0,
            // Both paid festival videos together (NZ$40 one by one): the showcase page offers the bundle.
            bundlePriceCents: 3500,
          },
          {
            name: 'Marlborough Stage Showcase',
            slug: slugify('Marlborough Stage Showcase'),
            description: 'Recitals and stage shows from the top of the South.',
            orderPriority: 1,
          },
          {
            name: 'Studio Sessions',
            slug: slugify('Studio Sessions'),
            description: 'Short films made in the studio with individual dancers.',
            orderPriority: 2,
          },
        ])
        .returning();
      const showcaseIds = { festival: festival!.id, marlborough: marlborough!.id, studio: studio!.id };
      for (const video of demoVideos) {
        const [row] = await db
          .insert(videos)
          .values({
            title: video.title,
            description: video.description,
            tags: [...video.tags],
            showcaseId: video.showcase ? showcaseIds[video.showcase] : null,
            priceCents: video.priceCents,
            awsKey: video.password === null ? SAMPLE_VIDEO_KEY : privateSampleKey(video.slug),
            previewUrl: previewKey(video.slug),
            passwordProtected: video.password !== null,
            passwordHash: video.password ? await hashPassword(video.password) : null,
            processingState: 'queued',
          })
          .returning({ id: videos.id, awsKey: videos.awsKey });
        toProcess.push(row!);
      }
      seeded.push(
        `3 showcases and ${demoVideos.length} videos (protected demo passwords: recital2026, openday)`,
      );
    }
    // A competition with its programme (decision 032): search "maia ngata" or "#47" in the library.
    if ((await db.$count(programmeEntries)) === 0) {
      const name = 'Southern Stars Dance Competition 2026';
      const [competition] = await db
        .insert(showcases)
        .values({
          name,
          slug: slugify(name),
          description: 'Every routine of the Southern Stars competition, by its programme.',
          orderPriority: 3,
          routineBundleRule: { kind: 'percent', percentOff: 25 },
        })
        .onConflictDoNothing()
        .returning();
      if (competition) {
        const programme = demoProgramme(120);
        const entryIds = await writeProgramme(db, competition.id, programme);
        // Māia Ngata's four routines and a few more have their video online; the rest not yet.
        const filmed = ['12', '47', '88', '103', '1', '2', '3', '20', '33', '60', '75', '110'];
        for (const number of filmed) {
          const [row] = await db
            .insert(videos)
            .values({
              title: `Item ${number}`,
              description: '',
              showcaseId: competition.id,
              priceCents: 1500,
              awsKey: SAMPLE_VIDEO_KEY,
              previewUrl: previewKey('junior-jazz-duo'),
              entryId: entryIds.get(number)!,
              ownText: false,
              processingState: 'queued',
            })
            .returning({ id: videos.id, awsKey: videos.awsKey });
          toProcess.push(row!);
        }
        await applyEntryText(db, [...entryIds.values()]);
        // Parents who asked to be told when a routine not filmed yet is online (Waiting for videos).
        const waitingFor = ['5', '5', '5', '18', '18', '64'];
        await db.insert(onlineAlerts).values(
          waitingFor.map((number, index) => ({
            email: `waiting-parent-${index + 1}@example.nz`,
            entryId: entryIds.get(number)!,
            confirmedAt: new Date(Date.now() - (index + 1) * 3_600_000),
          })),
        );
        seeded.push(`a competition programme (${programme.length} entries, ${filmed.length} videos)`);
      }
    }
    // Invented quotes would read as real reviews: a production site starts with none (its section hidden).
    if (config.NODE_ENV !== 'production' && (await db.$count(testimonials)) === 0) {
      await db
        .insert(testimonials)
        .values(sampleTestimonials.map((sample, position) => ({ ...sample, position })));
      seeded.push(`${sampleTestimonials.length} sample testimonials`);
    }

    const wanted = videosWanted(process.argv.slice(2));
    const have = await db.$count(videos);
    if (wanted > have) {
      const started = performance.now();
      const added = await seedCatalogue(db, { videos: wanted - have });
      seeded.push(
        `${added.videos} catalogue videos in ${added.showcases} showcases (${((performance.now() - started) / 1000).toFixed(1)} s)`,
      );
    }
    const restored = await ensureDemoFiles(db, storage);
    await queueProcessing(config, toProcess);
    if (restored.length) seeded.push(`${restored.length} demo ${restored.length === 1 ? 'file' : 'files'}`);
    console.info(
      seeded.length ? `Seeded ${seeded.join(', ')}.` : 'Demo content already present; nothing seeded.',
    );
  } finally {
    await pool.end();
  }
}

await main();
