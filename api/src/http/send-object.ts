import type { Request, Response } from 'express';
import rangeParser from 'range-parser';
import { errorBody } from '@app/shared/errors';
import { isLocalStorage, type Storage } from '@app/shared/storage';
import { notFound } from './errors.ts';

/** A presigned link to an object in the bucket lives an hour; browsers keep the redirect for half. */
const BUCKET_LINK_SECONDS = 3600;

/**
 * Sends a stored object with Range support (players seek and browsers fetch video in ranges);
 * `headers` add caching and naming. From a bucket the answer is a redirect to a presigned link: the
 * api never carries S3's bytes (decision 018).
 */
export async function sendStoredObject(
  req: Request,
  res: Response,
  storage: Storage,
  key: string,
  headers: Record<string, string>,
  missing = 'File not found',
  /** `linkSeconds`: a short-lived private link instead (stream segments, decision 031), never cached. */
  options: { linkSeconds?: number } = {},
): Promise<void> {
  if (!isLocalStorage(storage)) {
    const seconds = options.linkSeconds ?? BUCKET_LINK_SECONDS;
    const link = await storage.signedDownloadUrl(key, { expiresInSeconds: seconds });
    // A private answer (a protected video's clip behind its token, a stream segment) is not kept by shared caches.
    const shared = !options.linkSeconds && !/private|no-store/.test(headers['Cache-Control'] ?? '');
    res
      .set('Cache-Control', shared ? `public, max-age=${seconds / 2}` : 'private, no-store')
      .redirect(302, link);
    return;
  }
  const head = await storage.head(key);
  if (!head) throw notFound(missing);
  const ranges = req.headers.range ? rangeParser(head.size, req.headers.range, { combine: true }) : undefined;
  if (ranges === -1) {
    res
      .status(416)
      .set('Content-Range', `bytes */${head.size}`)
      .json(errorBody(416, 'Range not satisfiable'));
    return;
  }
  const range =
    Array.isArray(ranges) && ranges.type === 'bytes' && ranges.length === 1 ? ranges[0] : undefined;
  res.set({ 'Content-Type': head.contentType, 'Accept-Ranges': 'bytes', ...headers });
  if (range) {
    res.status(206).set({
      'Content-Range': `bytes ${range.start}-${range.end}/${head.size}`,
      'Content-Length': String(range.end - range.start + 1),
    });
  } else {
    res.set('Content-Length', String(head.size));
  }
  if (req.method === 'HEAD') {
    res.end();
    return;
  }
  // Headers are sent: a file gone or unreadable meanwhile can only cut the response short.
  await storage
    .send(key, range?.start ?? 0, range?.end ?? head.size - 1, res)
    .then(() => res.end())
    .catch(() => res.destroy());
}
