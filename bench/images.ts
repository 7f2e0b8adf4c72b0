// Bench: camera-sized JPEGs through the process-image job in the real worker (queue, storage, database)
// against the same sharp pipeline called directly in this process, in the same run.
// Targets: photos per second at least 80 % of direct sharp; worker peak RSS at most 300 MB.
// Flags: --count N (default 200) photos for the worker, --baseline N (default 20) for direct sharp,
// --megapixels N (default 24).
import { count, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { createDatabase, images } from '@app/shared/db';
import { createProducer, createRedis } from '@app/shared/queue';
import { parseConfig } from '@app/shared/config';
import { createStorage } from '@app/shared/storage';
import { withCameraMetadata } from '../test/support/camera.ts';
import { startWorker } from '../test/support/processes.ts';
import { processImage } from '../worker/src/images/pipeline.ts';
import { numberFlags, peakRssMb, prepareBenchEnv, printTable, verdict, workerIdle } from './lib.ts';

const flags = numberFlags({ count: 200, baseline: 20, megapixels: 24 });
const photos = flags.count;
const baselinePhotos = Math.min(flags.baseline, photos);
const megapixels = flags.megapixels;
const width = Math.round(Math.sqrt((megapixels * 1e6 * 3) / 2));
const height = Math.round((width * 2) / 3);

/** A camera-like JPEG: texture (so it compresses like a photo, not a flat colour), EXIF and GPS. */
async function cameraJpeg(): Promise<Buffer> {
  const texture = await sharp({
    create: {
      width: 600,
      height: 400,
      channels: 3,
      background: '#000000',
      noise: { type: 'gaussian', mean: 128, sigma: 50 },
    },
  })
    .blur(1.5)
    .png()
    .toBuffer();
  return withCameraMetadata(sharp(texture).resize(width, height, { kernel: 'cubic' }))
    .jpeg({ quality: 90 })
    .toBuffer();
}

const env = await prepareBenchEnv('images');
const config = parseConfig(env);
const storage = createStorage(config);
const { db, pool } = createDatabase(env.DATABASE_URL!, { max: 4 });
const redis = createRedis(env.REDIS_URL!, 'client');
const producer = createProducer(redis, env.QUEUE_PREFIX!);
const jpeg = await cameraJpeg();
console.info(`${photos} photos of ${width} x ${height} (${(jpeg.length / 1024 ** 2).toFixed(1)} MB each)`);

// Direct: the same sharp pipeline in this process, one photo at a time (as the worker runs them).
let started = performance.now();
for (let index = 0; index < baselinePhotos; index++) await processImage(jpeg);
const directPerSecond = baselinePhotos / ((performance.now() - started) / 1000);

// Through the worker: uploads in storage, one images row each, queued as the upload-complete hook does.
const ids: string[] = [];
for (let index = 0; index < photos; index++) {
  const sourceKey = `uploads/bench-${index}-${Date.now()}.jpg`;
  await storage.put(sourceKey, jpeg, 'image/jpeg');
  const [row] = await db
    .insert(images)
    .values({ sourceKey, purpose: 'portfolio' })
    .returning({ id: images.id });
  ids.push(row!.id);
}
const worker = await startWorker(env);
await workerIdle(env);
try {
  started = performance.now();
  for (const imageId of ids) await producer.enqueue('process-image', { imageId });
  for (;;) {
    const [done] = await db.select({ n: count() }).from(images).where(eq(images.status, 'ready'));
    const [failed] = await db.select({ n: count() }).from(images).where(eq(images.status, 'failed'));
    if (failed!.n > 0) throw new Error(`${failed!.n} photos failed`);
    if (done!.n >= photos) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const workerPerSecond = photos / ((performance.now() - started) / 1000);
  const ratio = workerPerSecond / directPerSecond;
  const rss = peakRssMb(worker.child.pid!);
  printTable('process-image', [
    {
      measure: 'direct sharp (photos/s)',
      value: directPerSecond.toFixed(2),
      target: '',
      verdict: `${baselinePhotos} photos`,
    },
    {
      measure: 'worker job (photos/s)',
      value: workerPerSecond.toFixed(2),
      target: '',
      verdict: `${photos} photos`,
    },
    {
      measure: 'worker / direct',
      value: `${Math.round(ratio * 100)} %`,
      target: '>= 80 %',
      verdict: verdict(ratio >= 0.8),
    },
    { measure: 'worker peak RSS (MB)', value: rss, target: '<= 300', verdict: verdict(rss <= 300) },
  ]);
} finally {
  await worker.stop();
  await producer.close();
  redis.disconnect();
  await pool.end();
}
