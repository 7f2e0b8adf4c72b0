import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { contacts, events, portfolioItems } from '@app/shared/db';
import { adminAgent } from '../../../../test/support/app.ts';
import { useTestWorld } from '../../../../test/support/world.ts';
import {
  adminContactListSchema,
  adminContactSchema,
  publicEventSchema,
  publicPortfolioImageSchema,
} from '@app/shared/schemas';

const { env, api } = useTestWorld({
  api: true,
  env: ({ dir }) => ({ IMAGES_DIR: dir, IMAGE_CACHE_DIR: path.join(dir, '.cache') }),
});

beforeAll(async () => {
  await mkdir(path.join(env.config.IMAGES_DIR, 'portfolio'), { recursive: true });
  await sharp({ create: { width: 1600, height: 1000, channels: 3, background: '#f5b942' } })
    .jpeg()
    .toFile(path.join(env.config.IMAGES_DIR, 'portfolio/solo-01.jpg'));
});

describe('GET /api/portfolio', () => {
  it('lists the published photos of every category, or of one, and refuses an unknown one', async () => {
    await env.database.db.insert(portfolioItems).values([
      { imageUrl: '/api/images/portfolio/s.jpg', alt: 'solo', category: 'solo' },
      { imageUrl: '/api/images/portfolio/g.jpg', alt: 'group', category: 'group', featured: true },
      { imageUrl: '/api/images/portfolio/d.jpg', alt: 'draft', category: 'solo', published: false },
    ]);
    const all = await request(api.app).get('/api/portfolio').expect(200);
    expect(
      publicPortfolioImageSchema
        .array()
        .parse(all.body)
        .map((item) => item.alt),
    ).toEqual(['group', 'solo']);
    expect(Object.keys(all.body[0]).sort()).toEqual([
      'alt',
      'category',
      'featured',
      'height',
      'id',
      'imageUrl',
      'placeholder',
      'width',
    ]);

    const solo = await request(api.app).get('/api/portfolio?category=solo').expect(200);
    expect(publicPortfolioImageSchema.array().parse(solo.body)).toHaveLength(1);

    const bad = await request(api.app).get('/api/portfolio?category=villain').expect(400);
    expect(bad.body.message).toMatch(/category/);
  });

  it('answers 304 to a matching If-None-Match', async () => {
    const first = await request(api.app).get('/api/portfolio').expect(200);
    await request(api.app).get('/api/portfolio').set('If-None-Match', first.headers.etag!).expect(304);
  });
});

describe('GET /api/events', () => {
  it('puts upcoming events first, soonest first, then past ones, latest first', async () => {
    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    const base = { description: 'd', location: 'l', eventType: 'competition', imageUrl: '/x.jpg' };
    await env.database.db.insert(events).values([
      { ...base, title: 'past-near', date: day(-3) },
      { ...base, title: 'future-far', date: day(40) },
      { ...base, title: 'past-far', date: day(-90) },
      { ...base, title: 'future-near', date: day(5), jotformUrl: 'https://form.example/x' },
    ]);
    const response = await request(api.app).get('/api/events').expect(200);
    const listed = publicEventSchema.strict().array().parse(response.body);
    expect(listed.map((event) => event.title)).toEqual([
      'future-near',
      'future-far',
      'past-near',
      'past-far',
    ]);
    expect(listed[0]!.date).toBe(day(5));
    expect(listed[0]!.jotformUrl).toBe('https://form.example/x');
  });
});

describe('POST /api/contacts', () => {
  const valid = {
    firstName: 'Aroha',
    lastName: 'Smith',
    email: 'aroha@example.nz',
    message: 'Can you cover our recital?',
  };

  it('saves the enquiry and answers 201 with it; a missing event type is stored as not given', async () => {
    const response = await request(api.app).post('/api/contacts').send(valid).expect(201);
    expect(adminContactSchema.strict().parse(response.body)).toMatchObject({ ...valid, eventType: null });
    expect(response.body.id).toEqual(expect.any(Number));
    expect(response.body).not.toHaveProperty('notifiedAt');
    const saved = await env.database.db.select().from(contacts);
    expect(saved.some((row) => row.id === response.body.id)).toBe(true);
  });

  it('refuses bad input with 400 and the fields at fault, saving nothing', async () => {
    const before = await env.database.db.$count(contacts);
    const cases = [
      { ...valid, email: 'not-an-email' },
      { ...valid, firstName: '' },
      { ...valid, eventType: 'rave' },
      { ...valid, message: 'x'.repeat(5_001) },
      { ...valid, message: 42 },
    ];
    for (const body of cases) {
      const response = await request(api.app).post('/api/contacts').send(body).expect(400);
      expect(response.body.message).toEqual(expect.any(String));
      expect(response.body.issues.length).toBeGreaterThan(0);
    }
    expect(await env.database.db.$count(contacts)).toBe(before);
  });

  it('lists enquiries newest first for the owner only', async () => {
    await request(api.app).get('/api/admin/contacts').expect(401);
    const agent = await adminAgent(api.app);
    const list = adminContactListSchema.parse((await agent.get('/api/admin/contacts').expect(200)).body);
    expect(list.total).toBeGreaterThan(0);
    const times = list.contacts.map((row) => Date.parse(row.createdAt));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
  });
});

describe('GET /api/images/{folder}/{file}', () => {
  it('serves the original, and width variants in the format the browser accepts', async () => {
    const original = await request(api.app).get('/api/images/portfolio/solo-01.jpg').expect(200);
    expect(original.headers['content-type']).toBe('image/jpeg');
    expect(original.headers['cache-control']).toMatch(/max-age=86400/);

    const webp = await request(api.app)
      .get('/api/images/portfolio/solo-01.jpg?w=320')
      .set('Accept', 'image/webp,*/*')
      .expect(200);
    expect(webp.headers['content-type']).toBe('image/webp');
    expect(webp.headers.vary).toMatch(/Accept/);
    expect((await sharp(webp.body as Buffer).metadata()).width).toBe(320);

    const avif = await request(api.app)
      .get('/api/images/portfolio/solo-01.jpg?w=640')
      .set('Accept', 'image/avif,image/webp')
      .expect(200);
    expect(avif.headers['content-type']).toBe('image/avif');

    const jpeg = await request(api.app).get('/api/images/portfolio/solo-01.jpg?w=480').expect(200);
    expect((await sharp(jpeg.body as Buffer).metadata()).width).toBe(480);

    await request(api.app)
      .get('/api/images/portfolio/solo-01.jpg?w=320')
      .set('Accept', 'image/webp')
      .set('If-None-Match', webp.headers.etag!)
      .expect(304);
  });

  it('refuses unknown folders, unsafe names, missing files and odd widths', async () => {
    for (const url of [
      '/api/images/secrets/solo-01.jpg',
      '/api/images/portfolio/..%2F..%2Fpackage.json',
      '/api/images/portfolio/%2e%2e',
      '/api/images/portfolio/missing.jpg',
      '/api/images/portfolio/solo-01.txt',
    ]) {
      const response = await request(api.app).get(url);
      expect(response.status, url).toBe(404);
      expect(response.body.message).toBe('Image not found');
    }
    await request(api.app).get('/api/images/portfolio/solo-01.jpg?w=333').expect(400);
  });
});

describe('pages as crawlers see them', () => {
  it('gives each public page its own title, canonical link and structured data', async () => {
    const home = await request(api.app).get('/').expect(200);
    expect(home.text).toMatch(/<title>Stagelight Studio \| /);
    expect(home.text).toContain('<link rel="canonical" href="http://localhost:3000/" />');
    expect(home.text).toContain('"priceRange":"$$"');
    expect(home.text).toContain('"name":"Marlborough"');
    expect(home.text).not.toContain('noindex');

    const service = await request(api.app).get('/dance-videographer').expect(200);
    expect(service.text).toContain('<title>Dance Videographer NZ');
    expect(service.text).toContain('"@type":"FAQPage"');
    expect(service.text).toContain('og:title');
  });

  it('answers an unknown path with the home page, 404 and noindex', async () => {
    const response = await request(api.app).get('/no/such/page').expect(404);
    expect(response.text).toContain('<meta name="robots" content="noindex" />');
    expect(response.text).toContain('<div id="root">');
    await request(api.app)
      .get('/admin')
      .expect(200)
      .expect(/noindex/);
  });

  it('puts only public settings in the page', async () => {
    const response = await request(api.app).get('/');
    const config = JSON.parse(
      /<script id="public-config" type="application\/json">(.*?)<\/script>/.exec(response.text)![1]!,
    );
    expect(Object.keys(config).sort()).toEqual(['contactEmail', 'retention']);
    expect(response.text).not.toContain(env.config.SESSION_SECRET);
  });

  it('serves robots.txt and a sitemap', async () => {
    const robots = await request(api.app).get('/robots.txt').expect(200);
    expect(robots.text).toContain('Disallow: /admin');
    expect(robots.text).toContain('Disallow: /api/');
    expect(robots.text).toContain('Allow: /api/images/');
    const sitemap = await request(api.app).get('/sitemap.xml').expect(200);
    expect(sitemap.text).toContain('<loc>http://localhost:3000/sitemaps/pages.xml</loc>');
    const pages = await request(api.app).get('/sitemaps/pages.xml').expect(200);
    expect(pages.text).toContain('<loc>http://localhost:3000/dance-photographer</loc>');
  });
});
