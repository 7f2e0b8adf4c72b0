import { randomBytes } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import exifr from 'exifr';
import sharp from 'sharp';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import {
  MULTIPART_THRESHOLD_BYTES,
  multipartUploadTargetSchema,
  singleUploadTargetSchema,
} from '@app/shared/schemas';
import { MAX_IMAGE_BYTES } from '@app/shared/images';
import { MIN_PART_BYTES } from '@app/shared/storage';
import { binaryBody } from '../../../../test/support/app.ts';
import { withCameraMetadata } from '../../../../test/support/camera.ts';
import { partSizeFor } from './uploads.service.ts';
import { useTestWorld } from '../../../../test/support/world.ts';

const origin = 'http://localhost:3000';

/** The path and query of a link on our own api, for supertest. */
const local = (url: string) => {
  const target = new URL(url);
  expect(target.origin).toBe(origin);
  return `${target.pathname}${target.search}`;
};

describe('uploads with local storage', () => {
  const { env, api, agent } = useTestWorld({ admin: true });

  const uploadUrl = (body: object) =>
    agent.post('/api/admin/videos/upload-url').set('Origin', origin).send(body);

  it('hands out a signed link, takes the file, and serves it back with ranges and a download name', async () => {
    const response = await uploadUrl({
      fileName: 'C:\\clips\\Solo Final (1).mp4',
      contentType: 'video/mp4',
    }).expect(200);
    const target = singleUploadTargetSchema.parse(response.body);
    expect(target.awsKey).toMatch(/^videos\/[0-9a-f-]{36}-Solo-Final-1-\.mp4$/);
    expect(target.uploadUrl).toMatch(/^http:\/\/localhost:3000\/api\/admin\/uploads\/videos\//);

    const video = randomBytes(64 * 1024);
    await agent
      .put(local(target.uploadUrl))
      .set('Origin', origin)
      .set('Content-Type', 'video/mp4')
      .send(video)
      .expect(201, { awsKey: target.awsKey });

    const link = await api.deps.storage.signedDownloadUrl(target.awsKey, {
      expiresInSeconds: 60,
      fileName: 'Solo "Final".mp4',
    });
    const whole = await request(api.app).get(local(link)).buffer(true).expect(200);
    expect(Buffer.compare(whole.body as Buffer, video)).toBe(0);
    expect(whole.headers['content-type']).toBe('video/mp4');
    expect(whole.headers['accept-ranges']).toBe('bytes');
    expect(whole.headers['content-disposition']).toBe(
      `attachment; filename="Solo _Final_.mp4"; filename*=UTF-8''Solo%20%22Final%22.mp4`,
    );

    const part = await request(api.app)
      .get(local(link))
      .set('Range', 'bytes=100-199')
      .buffer(true)
      .expect(206);
    expect(part.headers['content-range']).toBe(`bytes 100-199/${video.length}`);
    expect(part.headers['content-length']).toBe('100');
    expect(Buffer.compare(part.body as Buffer, video.subarray(100, 200))).toBe(0);
    const tail = await request(api.app).get(local(link)).set('Range', 'bytes=-10').buffer(true).expect(206);
    expect(Buffer.compare(tail.body as Buffer, video.subarray(-10))).toBe(0);
    await request(api.app)
      .get(local(link))
      .set('Range', `bytes=${video.length}-`)
      .expect(416)
      .expect('Content-Range', `bytes */${video.length}`);

    const plain = await api.deps.storage.signedDownloadUrl(target.awsKey, { expiresInSeconds: 60 });
    const streamed = await request(api.app).get(local(plain)).expect(200);
    expect(streamed.headers['content-disposition']).toBeUndefined();
  });

  it('refuses tampered, expired and unsigned file links with 403 JSON', async () => {
    const key = `videos/${randomBytes(4).toString('hex')}.mp4`;
    await api.deps.storage.put(key, Buffer.from('frames'), 'video/mp4');
    const link = new URL(await api.deps.storage.signedDownloadUrl(key, { expiresInSeconds: 60 }));

    const otherKey = `videos/${randomBytes(4).toString('hex')}.mp4`;
    await api.deps.storage.put(otherKey, Buffer.from('secret'), 'video/mp4');
    const refused = await request(api.app).get(`/api/files/${otherKey}${link.search}`).expect(403);
    expect(refused.body).toEqual({ message: 'This link is not valid', code: 'forbidden' });

    const later = new URLSearchParams(link.search);
    later.set('expires', String(Number(later.get('expires')) + 3600));
    await request(api.app).get(`${link.pathname}?${later}`).expect(403);
    const named = new URLSearchParams(link.search);
    named.set('name', 'evil.html');
    await request(api.app).get(`${link.pathname}?${named}`).expect(403);
    await request(api.app).get(link.pathname).expect(403);

    const expired = await api.deps.storage.signedDownloadUrl(key, { expiresInSeconds: -1 });
    const gone = await request(api.app).get(local(expired)).expect(403);
    expect(gone.body).toEqual({ message: 'This link has expired', code: 'forbidden' });

    const missing = await api.deps.storage.signedDownloadUrl('videos/none.mp4', { expiresInSeconds: 60 });
    await request(api.app).get(local(missing)).expect(404);
    await request(api.app).get(`/api/files/..%2F..%2Fetc%2Fpasswd${link.search}`).expect(404);
  });

  it('refuses upload links that are tampered, expired, for another type, or without a session', async () => {
    const { body } = await uploadUrl({ fileName: 'a.mp4', contentType: 'video/mp4' }).expect(200);
    const target = singleUploadTargetSchema.parse(body);
    const put = (url: string, contentType = 'video/mp4') =>
      agent.put(url).set('Origin', origin).set('Content-Type', contentType).send(Buffer.from('x'));

    await put(local(target.uploadUrl), 'text/html').expect(403);
    await put(local(target.uploadUrl).replace(/videos\/[^?]+/, 'videos/other.mp4')).expect(403);
    const expired = await api.deps.storage.signedUploadUrl(target.awsKey, 'video/mp4', {
      expiresInSeconds: -1,
    });
    const refused = await put(local(expired)).expect(403);
    expect(refused.body).toEqual({ message: 'This upload link has expired', code: 'forbidden' });
    await request(api.app)
      .put(local(target.uploadUrl))
      .set('Content-Type', 'video/mp4')
      .send(Buffer.from('x'))
      .expect(401);
    await agent
      .put(local(target.uploadUrl))
      .set('Origin', 'https://evil.example')
      .set('Content-Type', 'video/mp4')
      .send(Buffer.from('x'))
      .expect(403);
    expect(await api.deps.storage.head(target.awsKey)).toBeNull();
  });

  it('refuses a body larger than 5 GB by its length', async () => {
    const { body } = await uploadUrl({ fileName: 'huge.mp4', contentType: 'video/mp4' }).expect(200);
    const response = await agent
      .put(local(body.uploadUrl))
      .set('Origin', origin)
      .set('Content-Type', 'video/mp4')
      .set('Content-Length', String(5 * 1024 ** 3 + 1))
      .send(Buffer.from('x'))
      .catch((error: { response?: request.Response }) => error.response);
    // Either the 413 arrives, or the connection is cut before the declared body; never a stored file.
    if (response) expect(response.status).toBe(413);
    expect(await api.deps.storage.head(body.awsKey)).toBeNull();
  });

  it('checks the upload request: only video types, a name, a size up to 5 GB', async () => {
    const bad = await uploadUrl({ fileName: 'x.exe', contentType: 'application/x-msdownload' }).expect(400);
    expect(bad.body).toEqual({
      message: expect.stringContaining('Only video files can be uploaded here'),
      code: 'invalid_input',
      issues: [{ path: 'contentType', message: 'Only video files can be uploaded here' }],
    });
    // Pictures go through the picture upload, whose job strips their metadata: never stored as they came.
    for (const contentType of ['image/svg+xml', 'image/jpeg', 'image/png']) {
      const picture = await uploadUrl({ fileName: 'Poster.PNG', contentType }).expect(400);
      expect(picture.body.issues).toEqual([
        {
          path: 'contentType',
          message: 'Only video files can be uploaded here: add a preview picture with the picture upload',
        },
      ]);
    }
    // One that got into storage under another type is never served as a picture of the site.
    await api.deps.storage.put('previews/sneaky.svg', Buffer.from('<svg onload="alert(1)"/>'), 'image/png');
    await request(api.app).get('/api/video-preview/previews%2Fsneaky.svg').expect(404);
    await uploadUrl({ fileName: '', contentType: 'video/mp4' }).expect(400);
    await uploadUrl({ fileName: 'a.mp4', contentType: 'video/mp4', size: 5 * 1024 ** 3 + 1 }).expect(400);
    await uploadUrl({ fileName: 'a.mp4', contentType: 'video/mp4', size: 0 }).expect(400);
    await request(api.app)
      .post('/api/admin/videos/upload-url')
      .send({ fileName: 'a.mp4', contentType: 'video/mp4' })
      .expect(401);
  });

  it('plans a big file in parts, takes the parts through the api, and assembles them', async () => {
    const size = MULTIPART_THRESHOLD_BYTES + 1;
    const { body } = await uploadUrl({ fileName: 'Gala.mp4', contentType: 'video/mp4', size }).expect(200);
    const plan = multipartUploadTargetSchema.parse(body);
    expect(plan.partSize).toBe(partSizeFor(size));
    expect(plan.parts.map((part) => part.partNumber)).toEqual(
      Array.from({ length: Math.ceil(size / plan.partSize) }, (_, index) => index + 1),
    );

    // Two parts are enough to prove the assembly (completing with fewer parts is allowed, as on S3).
    const first = randomBytes(plan.partSize);
    const second = randomBytes(1000);
    const uploaded = [];
    for (const [index, bytes] of [first, second].entries()) {
      const response = await agent
        .put(local(plan.parts[index]!.url))
        .set('Origin', origin)
        .send(bytes)
        .expect(200);
      expect(response.headers.etag).toMatch(/^"[0-9a-f]{32}"$/);
      uploaded.push({ partNumber: index + 1, etag: response.headers.etag as string });
    }
    // A part longer than the plan's part size would spill into the next one: refused.
    const spill = await agent
      .put(local(plan.parts[2]!.url))
      .set('Origin', origin)
      .send(randomBytes(plan.partSize + 1))
      .expect(400);
    expect(spill.body).toEqual({
      message: `Part 3 is larger than ${plan.partSize} bytes`,
      code: 'invalid_input',
    });
    await agent
      .post('/api/admin/videos/upload-complete')
      .set('Origin', origin)
      .send({ awsKey: plan.awsKey, uploadId: plan.uploadId, parts: [...uploaded].reverse() })
      .expect(400);
    await agent
      .post('/api/admin/videos/upload-complete')
      .set('Origin', origin)
      .send({ awsKey: plan.awsKey, uploadId: plan.uploadId, parts: uploaded })
      .expect(200, { awsKey: plan.awsKey });
    const stored = await api.deps.storage.head(plan.awsKey);
    expect(stored).toEqual({ size: first.length + second.length, contentType: 'video/mp4' });

    // The upload is finished: its part links and id are spent.
    await agent.put(local(plan.parts[0]!.url)).set('Origin', origin).send(first).expect(404);
    await agent
      .post('/api/admin/videos/upload-complete')
      .set('Origin', origin)
      .send({ awsKey: plan.awsKey, uploadId: plan.uploadId, parts: uploaded })
      .expect(404);
  });

  it("signs each S3 request of a big upload for the browser's S3 client: parts, list, complete, abort", async () => {
    const sign = (body: object) =>
      agent.post('/api/admin/videos/upload-sign').set('Origin', origin).send(body);
    const signed = async (body: object) => {
      const response = await sign(body).expect(200);
      expect(response.headers['cache-control']).toBe('no-store');
      return local((response.body as { url: string }).url);
    };
    const size = MULTIPART_THRESHOLD_BYTES + 1;
    const { body } = await uploadUrl({ fileName: 'Gala.mp4', contentType: 'video/mp4', size }).expect(200);
    const { awsKey, uploadId, partSize } = multipartUploadTargetSchema.parse(body);
    const upload = { awsKey, uploadId };

    const bytes = [randomBytes(partSize), randomBytes(1000)];
    const etags = [];
    for (const [index, part] of bytes.entries()) {
      const url = await signed({ ...upload, action: 'part', partNumber: index + 1 });
      etags.push((await agent.put(url).set('Origin', origin).send(part).expect(200)).headers.etag as string);
    }
    const listed = await agent
      .get(await signed({ ...upload, action: 'list' }))
      .set('Origin', origin)
      .buffer(true)
      .parse(binaryBody)
      .expect(200);
    const xml = (listed.body as Buffer).toString();
    for (const [index, etag] of etags.entries())
      expect(xml).toContain(
        `<Part><PartNumber>${index + 1}</PartNumber><ETag>${etag.replaceAll('"', '&quot;')}</ETag>`,
      );

    await agent
      .post(await signed({ ...upload, action: 'complete' }))
      .set('Origin', origin)
      .set('Content-Type', 'application/xml')
      .send(
        `<CompleteMultipartUpload>${etags.map((etag, index) => `<Part><PartNumber>${index + 1}</PartNumber><ETag>${etag}</ETag></Part>`).join('')}</CompleteMultipartUpload>`,
      )
      .expect(200);
    expect(await api.deps.storage.head(awsKey)).toEqual({ size: partSize + 1000, contentType: 'video/mp4' });

    // Another, aborted through its link: listing it is then refused, and nothing is left behind.
    const other = multipartUploadTargetSchema.parse(
      (await uploadUrl({ fileName: 'Cancel.mp4', contentType: 'video/mp4', size }).expect(200)).body,
    );
    const otherUpload = { awsKey: other.awsKey, uploadId: other.uploadId };
    await agent
      .put(await signed({ ...otherUpload, action: 'part', partNumber: 1 }))
      .set('Origin', origin)
      .send(Buffer.from('partial'))
      .expect(200);
    await agent
      .delete(await signed({ ...otherUpload, action: 'abort' }))
      .set('Origin', origin)
      .expect(204);
    await agent
      .get(await signed({ ...otherUpload, action: 'list' }))
      .set('Origin', origin)
      .expect(404);
    expect(await readdir(path.join(env.storageDir, '.uploads'))).toEqual([]);

    // Only the four requests of an upload's own key, each well formed.
    for (const bad of [
      { ...upload, action: 'create' },
      { ...upload, action: 'part' },
      { ...upload, action: 'part', partNumber: 0 },
      { ...upload, action: 'part', partNumber: 10_001 },
      { ...upload, action: 'list', partNumber: 1 },
      { ...upload, awsKey: '../etc/passwd', action: 'list' },
      { ...upload, awsKey: 'videos/..', action: 'list' },
      { ...upload, awsKey: 'events/a.jpg', action: 'list' },
      { awsKey, action: 'list' },
    ]) {
      const refused = await sign(bad).expect(400);
      expect(refused.body, JSON.stringify(bad)).toMatchObject({ code: 'invalid_input' });
    }
    await request(api.app)
      .post('/api/admin/videos/upload-sign')
      .set('Origin', origin)
      .send({ ...upload, action: 'list' })
      .expect(401);
  });

  it('aborts a big upload and leaves nothing behind', async () => {
    const size = MULTIPART_THRESHOLD_BYTES * 2;
    const { body } = await uploadUrl({ fileName: 'Cancel.mp4', contentType: 'video/mp4', size }).expect(200);
    const plan = multipartUploadTargetSchema.parse(body);
    await agent.put(local(plan.parts[0]!.url)).set('Origin', origin).send(Buffer.from('partial')).expect(200);
    await agent
      .post('/api/admin/videos/upload-abort')
      .set('Origin', origin)
      .send({ awsKey: plan.awsKey, uploadId: plan.uploadId })
      .expect(200, { awsKey: plan.awsKey, aborted: true });
    expect(await readdir(path.join(env.storageDir, '.uploads'))).toEqual([]);
    expect(await api.deps.storage.head(plan.awsKey)).toBeNull();
    await agent
      .post('/api/admin/videos/upload-abort')
      .set('Origin', origin)
      .send({ awsKey: '../etc/passwd', uploadId: plan.uploadId })
      .expect(400);
  });
});

/** A camera's JPEG: make, serial number and GPS in its EXIF. */
const cameraJpeg = () =>
  withCameraMetadata(sharp({ create: { width: 64, height: 48, channels: 3, background: '#2040a0' } }))
    .jpeg()
    .toBuffer();

describe('preview pictures', () => {
  const { api } = useTestWorld({ api: true });

  it('are served without their EXIF and GPS, at any width or none, and never read when too big', async () => {
    const key = 'previews/from-the-camera.jpg';
    const original = await cameraJpeg();
    expect(await exifr.gps(original)).toMatchObject({ latitude: expect.any(Number) });
    await api.deps.storage.put(key, original, 'image/jpeg');
    for (const width of ['', '?w=320']) {
      const response = await request(api.app)
        .get(`/api/video-preview/${encodeURIComponent(key)}${width}`)
        .buffer(true)
        .parse(binaryBody)
        .expect(200);
      expect(response.headers['content-type']).toBe('image/jpeg');
      const body = response.body as Buffer;
      expect(body.equals(original), width).toBe(false);
      expect(await exifr.parse(body, { tiff: true, gps: true }), width).toBeUndefined();
    }
    // Bigger than any picture may be: refused before a byte is read (and not a picture either).
    const huge = 'previews/huge.jpg';
    await api.deps.storage.put(huge, Buffer.alloc(MAX_IMAGE_BYTES + 1), 'image/jpeg');
    let reads = 0;
    const get = api.deps.storage.get.bind(api.deps.storage);
    api.deps.storage.get = async (...args) => {
      reads += 1;
      return get(...args);
    };
    try {
      await request(api.app)
        .get(`/api/video-preview/${encodeURIComponent(huge)}?w=320`)
        .expect(404);
      await request(api.app)
        .get(`/api/video-preview/${encodeURIComponent(huge)}`)
        .expect(404);
    } finally {
      api.deps.storage.get = get;
    }
    expect(reads).toBe(0);
  });
});

describe('uploads with S3 storage', () => {
  const { api, agent, s3 } = useTestWorld({ admin: true, s3: true });

  it('hands out a presigned PUT; the file lands in the bucket and downloads through a presigned GET', async () => {
    const { body } = await agent
      .post('/api/admin/videos/upload-url')
      .set('Origin', origin)
      .send({ fileName: 'Recital.mp4', contentType: 'video/mp4', size: 5 })
      .expect(200);
    const target = singleUploadTargetSchema.parse(body);
    expect(target.uploadUrl.startsWith(`${s3.endpoint}/${s3.bucket}/videos/`)).toBe(true);
    const put = await fetch(target.uploadUrl, {
      method: 'PUT',
      headers: { 'Content-Type': 'video/mp4' },
      body: Buffer.from('clips'),
    });
    expect(put.status).toBe(200);

    const download = await api.deps.storage.signedDownloadUrl(target.awsKey, {
      expiresInSeconds: 60,
      fileName: 'Recital.mp4',
    });
    const response = await fetch(download, { headers: { Range: 'bytes=1-2' } });
    expect(response.status).toBe(206);
    expect(await response.text()).toBe('li');
    expect(response.headers.get('content-disposition')).toContain('filename="Recital.mp4"');
    // The api does not serve S3 objects itself (a file link is refused); a preview picture goes
    // through the image pipeline, so the api sends its own copy, without the camera's metadata.
    await request(api.app).get(`/api/files/${target.awsKey}?expires=1&sig=x`).expect(404);
    const previewKey = 'previews/recital-poster.jpg';
    await api.deps.storage.put(previewKey, await cameraJpeg(), 'image/jpeg');
    const preview = await request(api.app)
      .get(`/api/video-preview/${encodeURIComponent(previewKey)}`)
      .buffer(true)
      .parse(binaryBody)
      .expect(200);
    expect(preview.headers['content-type']).toBe('image/jpeg');
    expect(await exifr.parse(preview.body as Buffer, { tiff: true, gps: true })).toBeUndefined();
  });

  it('plans a big file as an S3 multipart upload and completes it', async () => {
    const { body } = await agent
      .post('/api/admin/videos/upload-url')
      .set('Origin', origin)
      .send({ fileName: 'Final.mov', contentType: 'video/quicktime', size: 300 * 1024 * 1024 })
      .expect(200);
    const plan = multipartUploadTargetSchema.parse(body);
    expect(plan.parts).toHaveLength(Math.ceil((300 * 1024 * 1024) / plan.partSize));
    const bytes = [randomBytes(MIN_PART_BYTES), Buffer.from('end')];
    const parts = [];
    for (const [index, part] of bytes.entries()) {
      const response = await fetch(plan.parts[index]!.url, { method: 'PUT', body: part });
      expect(response.status).toBe(200);
      parts.push({ partNumber: index + 1, etag: response.headers.get('etag')! });
    }
    await agent
      .post('/api/admin/videos/upload-complete')
      .set('Origin', origin)
      .send({ awsKey: plan.awsKey, uploadId: plan.uploadId, parts })
      .expect(200);
    expect(await api.deps.storage.head(plan.awsKey)).toEqual({
      size: MIN_PART_BYTES + 3,
      contentType: 'video/quicktime',
    });
  });

  it("signs a big upload's part and complete requests for the browser's S3 client", async () => {
    const sign = async (body: object) =>
      (
        (await agent.post('/api/admin/videos/upload-sign').set('Origin', origin).send(body).expect(200))
          .body as { url: string }
      ).url;
    const { body } = await agent
      .post('/api/admin/videos/upload-url')
      .set('Origin', origin)
      .send({ fileName: 'Final.mov', contentType: 'video/quicktime', size: 300 * 1024 * 1024 })
      .expect(200);
    const { awsKey, uploadId } = multipartUploadTargetSchema.parse(body);
    const bytes = [randomBytes(MIN_PART_BYTES), Buffer.from('end')];
    const parts = [];
    for (const [index, part] of bytes.entries()) {
      const url = await sign({ awsKey, uploadId, action: 'part', partNumber: index + 1 });
      expect(url.startsWith(`${s3.endpoint}/${s3.bucket}/${awsKey}?`)).toBe(true);
      const response = await fetch(url, { method: 'PUT', body: part });
      expect(response.status).toBe(200);
      parts.push(
        `<Part><PartNumber>${index + 1}</PartNumber><ETag>${response.headers.get('etag')}</ETag></Part>`,
      );
    }
    const completed = await fetch(await sign({ awsKey, uploadId, action: 'complete' }), {
      method: 'POST',
      headers: { 'Content-Type': 'application/xml' },
      body: `<CompleteMultipartUpload>${parts.join('')}</CompleteMultipartUpload>`,
    });
    expect(completed.status).toBe(200);
    expect(await api.deps.storage.head(awsKey)).toEqual({
      size: MIN_PART_BYTES + 3,
      contentType: 'video/quicktime',
    });
    // s3rver answers no list or abort request (shared/src/server/storage/storage.test.ts): only their
    // links are checked.
    for (const action of ['list', 'abort'])
      expect(new URL(await sign({ awsKey, uploadId, action })).searchParams.get('uploadId')).toBe(uploadId);
  });

  it('allows the bucket in the Content-Security-Policy', async () => {
    const response = await request(api.app).get('/healthz').expect(200);
    expect(response.headers['content-security-policy']).toContain(`media-src 'self' blob: ${s3.endpoint}`);
    expect(response.headers['content-security-policy']).toMatch(
      new RegExp(`connect-src [^;]*${s3.endpoint}`),
    );
  });
});
