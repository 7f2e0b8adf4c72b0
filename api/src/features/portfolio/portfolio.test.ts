import { deflateSync } from 'node:zlib';
import exifr from 'exifr';
import sharp from 'sharp';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { IMAGE_WIDTHS } from '@app/shared/images';
import {
  adminImageSchema,
  adminPortfolioPhotoSchema,
  deletedSchema,
  publicPortfolioImageSchema,
  singleUploadTargetSchema,
} from '@app/shared/schemas';
import { masterKey } from '@app/shared/storage';
import { withCameraMetadata } from '../../../../test/support/camera.ts';
import { drain } from '../../../../test/support/worker.ts';
import { useTestWorld } from '../../../../test/support/world.ts';
import { expectErrorLogs } from '../../../../test/support/guards.ts';

const origin = 'http://localhost:3000';

const { api, worker, agent } = useTestWorld({ admin: true, worker: true });

/** A camera-like JPEG: landscape pixels stored sideways with EXIF orientation 6, GPS, make and serial. */
async function cameraJpeg(width = 2400, height = 1600) {
  // Stored 1600 wide by 2400 high: orientation 6 turns it to 2400 x 1600, the top row red.
  return withCameraMetadata(
    sharp({ create: { width: height, height: width, channels: 3, background: '#2040a0' } }).composite([
      {
        input: { create: { width: 100, height: width, channels: 3, background: '#ff0000' } },
        left: 0,
        top: 0,
      },
    ]),
  )
    .jpeg()
    .toBuffer();
}

/** A PNG whose header claims `width` x `height` (a decompression bomb's shape), a few bytes long. */
function hugePngHeader(width: number, height: number): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (bytes: Buffer) => {
    let c = 0xffffffff;
    for (const byte of bytes) c = crcTable[(c ^ byte) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const sum = Buffer.alloc(4);
    sum.writeUInt32BE(crc(body));
    return Buffer.concat([length, body, sum]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.alloc(1024))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Uploads through the signed link, as the browser does, and adds the photo. */
async function addPhoto(file: Buffer, name: string, body: object = {}, contentType = 'image/jpeg') {
  const target = singleUploadTargetSchema.parse(
    (
      await agent
        .post('/api/admin/images/upload-url')
        .set('Origin', origin)
        .send({ fileName: name, contentType, size: Math.max(file.length, 1) })
        .expect(200)
    ).body,
  );
  expect(target.awsKey).toMatch(/^uploads\//);
  const url = new URL(target.uploadUrl);
  await agent
    .put(`${url.pathname}${url.search}`)
    .set('Origin', origin)
    .set('Content-Type', contentType)
    .send(file)
    .expect(201);
  const created = await agent
    .post('/api/admin/portfolio')
    .set('Origin', origin)
    .send({ awsKey: target.awsKey, originalName: name, category: 'solo', ...body })
    .expect(201);
  return { photo: adminPortfolioPhotoSchema.parse(created.body), awsKey: target.awsKey };
}

const adminList = async () =>
  adminPortfolioPhotoSchema
    .strict()
    .array()
    .parse((await agent.get('/api/admin/portfolio').expect(200)).body);
const publicList = async (query = '') =>
  publicPortfolioImageSchema
    .strict()
    .array()
    .parse((await request(api.app).get(`/api/portfolio${query}`).expect(200)).body);

describe('portfolio photos', () => {
  it('publishes an upright, metadata-free photo in every width and format, with its placeholder', async () => {
    const { photo, awsKey } = await addPhoto(await cameraJpeg(), 'IMG_0001.JPG', { featured: true });
    expect(photo).toMatchObject({ published: false, alt: '', image: { status: 'pending' } });
    expect(await exifr.gps(await buffered(awsKey))).toMatchObject({ latitude: expect.any(Number) });

    // Alt text first: publishing without it is refused and changes nothing.
    const refused = await agent
      .patch(`/api/admin/portfolio/${photo.id}`)
      .set('Origin', origin)
      .send({ published: true })
      .expect(400);
    expect(refused.body.message).toMatch(/Alt text is required/);
    expect(refused.body.issues).toEqual([expect.objectContaining({ path: 'alt' })]);
    const published = await agent
      .patch(`/api/admin/portfolio/${photo.id}`)
      .set('Origin', origin)
      .send({ alt: 'A soloist mid-leap', published: true })
      .expect(200);
    expect(adminPortfolioPhotoSchema.strict().parse(published.body)).toMatchObject({
      alt: 'A soloist mid-leap',
      published: true,
    });
    // Published but not processed yet: not public.
    expect((await publicList('?category=solo')).map((row) => row.id)).not.toContain(photo.id);

    await drain(worker.producer, 'process-image', 60_000);
    const [ready] = (await adminList()).filter((row) => row.id === photo.id);
    expect(ready).toMatchObject({ width: 2400, height: 1600, image: { status: 'ready', error: null } });

    const listed = (await publicList('?category=solo')).find((row) => row.id === photo.id);
    expect(listed).toMatchObject({
      alt: 'A soloist mid-leap',
      featured: true,
      width: 2400,
      height: 1600,
      placeholder: expect.stringMatching(/^data:image\/webp;base64,/),
    });
    const hero = (await publicList()).filter((row) => row.featured).map((row) => row.id);
    expect(hero).toContain(photo.id);
    // The image picker offers it to events, under its alt text.
    const picker = await agent.get('/api/admin/images').expect(200);
    expect(adminImageSchema.strict().array().parse(picker.body)).toContainEqual(
      expect.objectContaining({ url: ready!.imageUrl, alt: 'A soloist mid-leap', status: 'ready' }),
    );

    // The camera's upload is gone; the master and every variant carry no EXIF, GPS, XMP or IPTC.
    expect(await api.deps.storage.head(awsKey)).toBeNull();
    const master = await buffered(masterKey(ready!.imageUrl.split('/').pop()!));
    const files = [master];
    for (const width of IMAGE_WIDTHS)
      for (const accept of ['image/avif', 'image/webp', 'image/jpeg']) {
        const response = await request(api.app)
          .get(`${ready!.imageUrl}?w=${width}`)
          .set('Accept', accept)
          .buffer(true)
          .expect(200);
        expect(response.headers['content-type']).toBe(accept);
        expect(response.headers['cache-control']).toContain('immutable');
        files.push(response.body as Buffer);
      }
    for (const file of files) {
      const metadata = await sharp(file).metadata();
      expect(metadata.exif).toBeUndefined();
      expect(metadata.xmp).toBeUndefined();
      expect(metadata.iptc).toBeUndefined();
      expect(metadata.orientation ?? 1).toBe(1);
      expect(metadata.width! > metadata.height!).toBe(true);
      // exifr reads JPEG (and AVIF) but not WebP; sharp's metadata above covers every format.
      if (metadata.format !== 'webp')
        expect(await exifr.parse(file, { tiff: true, gps: true, xmp: true, iptc: true })).toBeUndefined();
    }
    expect((await sharp(master).metadata()).icc).toBeDefined();
    // Upright: the red edge that was the stored picture's left column is now its top row.
    const { data } = await sharp(files[0])
      .extract({ left: 1200, top: 10, width: 1, height: 1 })
      .raw()
      .toBuffer({ resolveWithObject: true });
    expect(data[0]).toBeGreaterThan(200);
    expect(data[2]).toBeLessThan(80);
  });

  it('refuses files that are not pictures, cut short, too large in pixels, empty, or SVG', async () => {
    expectErrorLogs(/"job":"process-image"/);
    const good = await cameraJpeg(800, 600);
    const bad = [
      { name: 'invoice.jpg', file: Buffer.from('%PDF-1.7\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n') },
      { name: 'cut.jpg', file: good.subarray(0, Math.floor(good.length / 2)) },
      { name: 'bomb.png', file: hugePngHeader(30_000, 30_000), type: 'image/png' },
      { name: 'empty.jpg', file: Buffer.alloc(0) },
      {
        name: 'drawing.png',
        file: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
        type: 'image/png',
      },
    ];
    const before = await publicList();
    const added: number[] = [];
    for (const { name, file, type } of bad)
      added.push((await addPhoto(file, name, { alt: name }, type)).photo.id);
    await drain(worker.producer, 'process-image', 60_000);
    const rows = (await adminList()).filter((row) => added.includes(row.id));
    expect(rows.map((row) => [row.image?.originalName, row.image?.status, row.image?.error])).toEqual([
      ['invoice.jpg', 'failed', 'This file is not a JPEG, PNG or WebP picture'],
      ['cut.jpg', 'failed', 'This picture is damaged or incomplete (the file may be cut short)'],
      ['bomb.png', 'failed', 'This picture has more than 100 megapixels'],
      ['empty.jpg', 'failed', 'The file is empty'],
      ['drawing.png', 'failed', 'This file is not a JPEG, PNG or WebP picture'],
    ]);
    for (const id of added)
      await agent
        .patch(`/api/admin/portfolio/${id}`)
        .set('Origin', origin)
        .send({ published: true })
        .expect(200);
    expect(await publicList()).toEqual(before);
  });

  it("keeps a deleted photo's picture while a video shows it as its preview", async () => {
    const { photo } = await addPhoto(await cameraJpeg(800, 600), 'poster.jpg', { alt: 'Poster' });
    await drain(worker.producer, 'process-image', 60_000);
    const { imageUrl } = (await adminList()).find((row) => row.id === photo.id)!;
    await agent
      .post('/api/admin/videos')
      .set('Origin', origin)
      .send({ title: 'Duet', description: 'A duet', awsKey: 'videos/duet.mp4', previewUrl: imageUrl })
      .expect(201);
    await agent.delete(`/api/admin/portfolio/${photo.id}`).set('Origin', origin).expect(200);
    await request(api.app).get(`${imageUrl}?w=320`).expect(200);
  });

  it('refuses more than 50 MB and other formats before the upload; a visitor gets nothing', async () => {
    const ask = (body: object) => agent.post('/api/admin/images/upload-url').set('Origin', origin).send(body);
    expect(
      (await ask({ fileName: 'a.jpg', contentType: 'image/jpeg', size: 51 * 1024 ** 2 }).expect(400)).body
        .message,
    ).toMatch(/50 MB/);
    expect(
      (await ask({ fileName: 'a.heic', contentType: 'image/heic', size: 10 }).expect(400)).body.message,
    ).toMatch(/JPEG, PNG and WebP/);
    await request(api.app).get('/api/admin/portfolio').expect(401);
    await request(api.app).post('/api/admin/images/upload-url').set('Origin', origin).send({}).expect(401);
  });

  it('replaces a photo once the new picture is ready, reorders, and deletes with its files', async () => {
    const { photo } = await addPhoto(await cameraJpeg(1000, 700), 'first.jpg', {
      alt: 'First',
      category: 'group',
    });
    await drain(worker.producer, 'process-image', 60_000);
    await agent
      .patch(`/api/admin/portfolio/${photo.id}`)
      .set('Origin', origin)
      .send({ published: true, position: 5 })
      .expect(200);
    const firstUrl = (await adminList()).find((row) => row.id === photo.id)!.imageUrl;

    const replacement = await cameraJpeg(1200, 900);
    const target = singleUploadTargetSchema.parse(
      (
        await agent
          .post('/api/admin/images/upload-url')
          .set('Origin', origin)
          .send({ fileName: 'second.jpg', contentType: 'image/jpeg', size: replacement.length })
      ).body,
    );
    const url = new URL(target.uploadUrl);
    await agent
      .put(`${url.pathname}${url.search}`)
      .set('Origin', origin)
      .set('Content-Type', 'image/jpeg')
      .send(replacement)
      .expect(201);
    const pending = await agent
      .post(`/api/admin/portfolio/${photo.id}/replace`)
      .set('Origin', origin)
      .send({ awsKey: target.awsKey, originalName: 'second.jpg' })
      .expect(200);
    expect(adminPortfolioPhotoSchema.parse(pending.body)).toMatchObject({
      imageUrl: firstUrl,
      nextImage: { status: 'pending' },
    });
    expect((await publicList('?category=group')).find((row) => row.id === photo.id)).toMatchObject({
      imageUrl: firstUrl,
    });

    await drain(worker.producer, 'process-image', 60_000);
    const replaced = (await publicList('?category=group')).find((row) => row.id === photo.id)!;
    expect(replaced).toMatchObject({ width: 1200, height: 900 });
    expect(replaced.imageUrl).not.toBe(firstUrl);
    await request(api.app).get(`${firstUrl}?w=320`).expect(404);

    const deleted = await agent.delete(`/api/admin/portfolio/${photo.id}`).set('Origin', origin).expect(200);
    expect(deletedSchema.parse(deleted.body)).toEqual({ id: photo.id, deleted: true });
    expect((await publicList('?category=group')).map((row) => row.id)).not.toContain(photo.id);
    await request(api.app)
      .get(`${replaced.imageUrl as string}?w=320`)
      .expect(404);
  });
});

async function buffered(key: string): Promise<Buffer> {
  const object = await api.deps.storage.get(key);
  if (!object) throw new Error(`${key} is not in storage`);
  const chunks: Buffer[] = [];
  for await (const chunk of object.body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
