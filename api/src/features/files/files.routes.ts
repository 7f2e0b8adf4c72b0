import { Router } from 'express';
import { contentDisposition, isSafeKey, LOCAL_FILES_PATH, verifyLocalLink } from '@app/shared/storage';
import type { Deps } from '../../deps.ts';
import { HttpError, notFound } from '../../http/errors.ts';
import { sendStoredObject } from '../../http/send-object.ts';

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
    await sendStoredObject(req, res, storage, key, {
      'Cache-Control': 'private, no-store',
      ...(check.name && { 'Content-Disposition': contentDisposition(check.name) }),
    });
  });
  return router;
}
