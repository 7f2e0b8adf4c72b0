import { PassThrough } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import express, { type Router } from 'express';
import {
  MAX_UPLOAD_BYTES,
  uploadAbortRequestSchema,
  uploadCompleteRequestSchema,
  uploadSignRequestSchema,
  uploadUrlRequestSchema,
} from '@app/shared/schemas';
import {
  byteLimit,
  isLocalStorage,
  isSafeKey,
  LOCAL_UPLOADS_PATH,
  StorageError,
  verifyLocalMultipart,
  verifyLocalUpload,
} from '@app/shared/storage';
import type { Deps } from '../../deps.ts';
import { HttpError, notFound } from '../../http/errors.ts';
import { compositeEtag, planUpload, signUploadRequest } from './uploads.service.ts';

const xml = (body: string) => `<?xml version="1.0" encoding="UTF-8"?>\n${body}`;
const xmlText = (text: string) =>
  text.replace(/[<>&"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;' })[c]!);
/** The parts of S3's CompleteMultipartUpload body (what Uppy sends): number and etag of each. */
function partsOf(body: string) {
  return [
    ...body.matchAll(/<Part>\s*<PartNumber>(\d+)<\/PartNumber>\s*<ETag>([^<]*)<\/ETag>\s*<\/Part>/g),
  ].map((match) => ({ partNumber: Number(match[1]), etag: match[2]!.replaceAll('&quot;', '"') }));
}

const tooLarge = () => new HttpError(413, 'Files up to 5 GB can be uploaded');

/** Direct uploads from the owner's browser to storage: a signed link, then the file goes straight there. */
export function registerUploadRoutes(admin: Router, { config, storage }: Deps): void {
  admin.post('/api/admin/videos/upload-url', async (req, res) => {
    const target = await planUpload(storage, uploadUrlRequestSchema.parse(req.body ?? {}));
    res.set('Cache-Control', 'no-store').json(target);
  });

  // Each S3 request of a big upload, signed as the browser's S3 client (Uppy) makes it, so a dropped
  // connection resumes from the parts stored (decision 033).
  admin.post('/api/admin/videos/upload-sign', async (req, res) => {
    const signed = await signUploadRequest(storage, uploadSignRequestSchema.parse(req.body ?? {}));
    res.set('Cache-Control', 'no-store').json(signed);
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

  // The local driver speaks S3's multipart protocol for a browser that does (Uppy, decision 033): list
  // the parts (GET ?uploadId), complete (POST ?uploadId, the parts as XML) and abort (DELETE ?uploadId),
  // each on a link signed for its key, upload and action.
  const multipart = async (req: express.Request, expected: 'list' | 'complete' | 'abort') => {
    if (!isLocalStorage(storage)) throw notFound();
    const key = (req.params as { key: string[] }).key.join('/');
    const check = isSafeKey(key)
      ? verifyLocalMultipart(config.SESSION_SECRET, key, req.query)
      : ({ valid: false, reason: 'unsigned' } as const);
    if (!check.valid || check.action !== expected)
      throw new HttpError(
        403,
        check.valid || check.reason !== 'expired'
          ? 'This upload link is not valid'
          : 'This upload link has expired',
      );
    return { key, uploadId: check.uploadId };
  };
  const storageRefusal = (error: unknown): never => {
    if (error instanceof StorageError)
      throw new HttpError(error.code === 'upload-not-found' ? 404 : 400, error.message);
    throw error;
  };
  admin.get(`${LOCAL_UPLOADS_PATH}*key`, async (req, res) => {
    const { key, uploadId } = await multipart(req, 'list');
    const parts = await storage.listParts(key, uploadId).catch(storageRefusal);
    res
      .type('application/xml')
      .send(
        xml(
          `<ListPartsResult><Key>${xmlText(key)}</Key><UploadId>${uploadId}</UploadId><IsTruncated>false</IsTruncated>${parts
            .map(
              (part) =>
                `<Part><PartNumber>${part.partNumber}</PartNumber><ETag>${xmlText(part.etag)}</ETag><Size>${part.size}</Size></Part>`,
            )
            .join('')}</ListPartsResult>`,
        ),
      );
  });
  admin.post(
    `${LOCAL_UPLOADS_PATH}*key`,
    express.text({ type: () => true, limit: '2mb' }),
    async (req, res) => {
      const { key, uploadId } = await multipart(req, 'complete');
      const parts = partsOf(typeof req.body === 'string' ? req.body : '');
      await storage.completeMultipartUpload(key, uploadId, parts).catch(storageRefusal);
      res
        .type('application/xml')
        .send(
          xml(
            `<CompleteMultipartUploadResult><Location>${xmlText(`${config.PUBLIC_URL}/${key}`)}</Location><Key>${xmlText(key)}</Key><ETag>${xmlText(compositeEtag(parts.map((part) => part.etag)))}</ETag></CompleteMultipartUploadResult>`,
          ),
        );
    },
  );
  admin.delete(`${LOCAL_UPLOADS_PATH}*key`, async (req, res) => {
    const { key, uploadId } = await multipart(req, 'abort');
    await storage.abortMultipartUpload(key, uploadId);
    res.status(204).end();
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
    // the socket and the disk costs throughput. The request's chunks are the api's own copies, so
    // each is freed once written (decision 033).
    if (check.part) {
      const { etag } = await storage.putPart(key, check.part.uploadId, check.part.partNumber, req, {
        releaseChunks: true,
      });
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
