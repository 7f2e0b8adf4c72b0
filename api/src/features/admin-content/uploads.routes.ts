import { randomUUID } from 'node:crypto';
import type { Router } from 'express';
import { z } from 'zod';
import { isSafeKey, LOCAL_UPLOADS_PATH, verifyLocalUpload } from '@app/shared/storage';
import type { Deps } from '../../deps.ts';
import { HttpError } from '../../http/errors.ts';

const UPLOAD_LINK_SECONDS = 3600;
const MAX_UPLOAD_BYTES = 5 * 1024 ** 3;

const uploadRequestSchema = z.object({
  fileName: z.string().trim().min(1).max(255),
  contentType: z.string().regex(/^(video|image)\/[\w.+-]+$/, 'Only video and image files can be uploaded'),
  size: z.number().int().min(1).max(MAX_UPLOAD_BYTES, 'Files up to 5 GB can be uploaded').optional(),
});

/** `videos/<uuid>-<name>` (or previews/ for pictures): unique, and safe as a storage key. */
function storageKey(fileName: string, contentType: string): string {
  const base =
    fileName
      .normalize('NFKD')
      .replace(/[^\w.-]+/g, '-')
      .replace(/^[-.]+/, '')
      .slice(-120) || 'upload';
  return `${contentType.startsWith('image/') ? 'previews' : 'videos'}/${randomUUID()}-${base}`;
}

/** Direct uploads from the owner's browser to storage: a signed link, then the file goes straight there. */
export function registerUploadRoutes(admin: Router, { config, storage }: Deps): void {
  admin.post('/api/admin/videos/upload-url', async (req, res) => {
    const { fileName, contentType } = uploadRequestSchema.parse(req.body ?? {});
    const awsKey = storageKey(fileName, contentType);
    const uploadUrl = await storage.signedUploadUrl(awsKey, contentType, {
      expiresInSeconds: UPLOAD_LINK_SECONDS,
    });
    res.json({ uploadUrl, awsKey, contentType });
  });

  // The local driver's upload target (S3 receives the PUT itself). The link is signed for one key and type.
  admin.put(`${LOCAL_UPLOADS_PATH}*key`, async (req, res) => {
    const key = (req.params as { key: string[] }).key.join('/');
    const contentType = req.get('content-type') ?? '';
    if (!isSafeKey(key) || !verifyLocalUpload(config.SESSION_SECRET, key, contentType, req.query)) {
      throw new HttpError(403, 'This upload link is not valid or has expired');
    }
    const length = Number(req.get('content-length') ?? NaN);
    if (!Number.isFinite(length) || length > MAX_UPLOAD_BYTES)
      throw new HttpError(413, 'Files up to 5 GB can be uploaded');
    await storage.put(key, req, contentType);
    res.status(201).json({ awsKey: key });
  });
}
