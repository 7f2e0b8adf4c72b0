import { PassThrough } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Router } from 'express';
import {
  MAX_UPLOAD_BYTES,
  uploadAbortRequestSchema,
  uploadCompleteRequestSchema,
  uploadUrlRequestSchema,
} from '@app/shared/schemas';
import {
  byteLimit,
  isLocalStorage,
  isSafeKey,
  LOCAL_UPLOADS_PATH,
  verifyLocalUpload,
} from '@app/shared/storage';
import type { Deps } from '../../deps.ts';
import { HttpError, notFound } from '../../http/errors.ts';
import { planUpload } from './uploads.service.ts';

const tooLarge = () => new HttpError(413, 'Files up to 5 GB can be uploaded');

/** Direct uploads from the owner's browser to storage: a signed link, then the file goes straight there. */
export function registerUploadRoutes(admin: Router, { config, storage }: Deps): void {
  admin.post('/api/admin/videos/upload-url', async (req, res) => {
    const target = await planUpload(storage, uploadUrlRequestSchema.parse(req.body ?? {}));
    res.set('Cache-Control', 'no-store').json(target);
  });

  admin.post('/api/admin/videos/upload-complete', async (req, res) => {
    const { awsKey, uploadId, parts } = uploadCompleteRequestSchema.parse(req.body ?? {});
    await storage.completeMultipartUpload(awsKey, uploadId, parts);
    res.json({ awsKey });
  });

  admin.post('/api/admin/videos/upload-abort', async (req, res) => {
    const { awsKey, uploadId } = uploadAbortRequestSchema.parse(req.body ?? {});
    await storage.abortMultipartUpload(awsKey, uploadId);
    res.json({ awsKey, aborted: true });
  });

  // The local driver's upload target (S3 receives the PUTs itself). A whole-file link is signed for
  // one key and Content-Type; a part link for one key, upload and part number.
  admin.put(`${LOCAL_UPLOADS_PATH}*key`, async (req, res) => {
    if (!isLocalStorage(storage)) throw notFound();
    const key = (req.params as { key: string[] }).key.join('/');
    const check = isSafeKey(key)
      ? verifyLocalUpload(config.SESSION_SECRET, key, req.get('content-type') ?? '', req.query)
      : ({ valid: false, reason: 'unsigned' } as const);
    if (!check.valid)
      throw new HttpError(
        403,
        check.reason === 'expired' ? 'This upload link has expired' : 'This upload link is not valid',
      );
    if (Number(req.get('content-length') ?? 0) > MAX_UPLOAD_BYTES) throw tooLarge();

    // A part goes straight to its place (putPart stops it at the part size); each stream between
    // the socket and the disk costs throughput.
    if (check.part) {
      const { etag } = await storage.putPart(key, check.part.uploadId, check.part.partNumber, req);
      res.set('ETag', etag).json({ partNumber: check.part.partNumber, etag });
      return;
    }
    // A whole file fails with 413 as soon as it passes the limit, whatever Content-Length said; a
    // client that goes away ends it with an error, so the partial write is dropped.
    const body = new PassThrough();
    pipeline(req, byteLimit(MAX_UPLOAD_BYTES, tooLarge), body).catch(() => {});
    await storage.put(key, body, req.get('content-type') ?? 'application/octet-stream');
    res.status(201).json({ awsKey: key });
  });
}
