import { Router } from 'express';
import rangeParser from 'range-parser';
import { contentDisposition, isSafeKey, LOCAL_FILES_PATH, verifyLocalLink } from '@app/shared/storage';
import type { Deps } from '../../deps.ts';
import { HttpError, notFound } from '../../http/errors.ts';

/**
 * Signed links to objects in local storage (the S3 driver hands out presigned S3 links instead):
 * checked for tampering and expiry, served with Range support so videos can seek.
 */
export function fileRoutes({ config, storage }: Deps): Router {
  const router = Router();
  router.get(`${LOCAL_FILES_PATH}*key`, async (req, res) => {
    const key = (req.params as { key: string[] }).key.join('/');
    if (storage.driver !== 'local' || !isSafeKey(key)) throw notFound('File not found');
    const check = verifyLocalLink(config.SESSION_SECRET, key, req.query);
    if (!check.valid)
      throw new HttpError(
        403,
        check.reason === 'expired' ? 'This link has expired' : 'This link is not valid',
      );

    const head = await storage.head(key);
    if (!head) throw notFound('File not found');
    const ranges = req.headers.range
      ? rangeParser(head.size, req.headers.range, { combine: true })
      : undefined;
    if (ranges === -1) {
      res.status(416).set('Content-Range', `bytes */${head.size}`).json({ message: 'Range not satisfiable' });
      return;
    }
    const range =
      Array.isArray(ranges) && ranges.type === 'bytes' && ranges.length === 1 ? ranges[0] : undefined;
    const object = await storage.get(key, range && { start: range.start, end: range.end });
    if (!object) throw notFound('File not found');

    res.set({
      'Content-Type': object.contentType,
      'Accept-Ranges': 'bytes',
      'Cache-Control': 'private, no-store',
      ...(check.name && { 'Content-Disposition': contentDisposition(check.name) }),
    });
    if (range) {
      res.status(206).set({
        'Content-Range': `bytes ${range.start}-${range.end}/${head.size}`,
        'Content-Length': String(range.end - range.start + 1),
      });
    } else {
      res.set('Content-Length', String(head.size));
    }
    object.body.on('error', () => res.destroy());
    object.body.pipe(res);
  });
  return router;
}
