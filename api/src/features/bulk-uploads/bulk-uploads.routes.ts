import type { Router } from 'express';
import {
  confirmUploadBatchSchema,
  firstUploadEntrySchema,
  matchUploadFileSchema,
  registerUploadFileSchema,
  signUploadRequestSchema,
  textIdSchema,
} from '@app/shared/schemas';
import type { Deps } from '../../deps.ts';
import {
  confirmBatch,
  createBatch,
  fileUploaded,
  getBatch,
  markNotFilmed,
  matchFile,
  registerFile,
  removeFile,
  retryFile,
  setFirstEntry,
  signRequest,
} from './bulk-uploads.service.ts';

const ids = (params: unknown) => {
  const { batchId, fileId } = params as { batchId: string; fileId?: string };
  return {
    batchId: textIdSchema.parse(batchId),
    fileId: fileId === undefined ? '' : textIdSchema.parse(fileId),
  };
};

/** A competition's files in one batch (decision 033): resumable uploads, matched to entries, then videos. */
export function registerBulkUploadRoutes(admin: Router, deps: Deps): void {
  const base = '/api/admin/upload-batches';
  admin.post('/api/admin/showcases/:showcaseId/upload-batches', async (req, res) => {
    const batch = await createBatch(deps, textIdSchema.parse(req.params.showcaseId));
    res.status(201).json(await getBatch(deps, batch.id));
  });
  admin.get(`${base}/:batchId`, async (req, res) => {
    res.set('Cache-Control', 'no-store').json(await getBatch(deps, ids(req.params).batchId));
  });
  admin.post(`${base}/:batchId/files`, async (req, res) => {
    const file = await registerFile(
      deps,
      ids(req.params).batchId,
      registerUploadFileSchema.parse(req.body ?? {}),
    );
    res.json(file);
  });
  admin.post(`${base}/:batchId/files/:fileId/sign`, async (req, res) => {
    const { batchId, fileId } = ids(req.params);
    const signed = await signRequest(deps, batchId, fileId, signUploadRequestSchema.parse(req.body ?? {}));
    res.set('Cache-Control', 'no-store').json(signed);
  });
  admin.post(`${base}/:batchId/files/:fileId/uploaded`, async (req, res) => {
    const { batchId, fileId } = ids(req.params);
    res.json(await fileUploaded(deps, batchId, fileId));
  });
  admin.put(`${base}/:batchId/files/:fileId/entry`, async (req, res) => {
    const { batchId, fileId } = ids(req.params);
    await matchFile(deps, batchId, fileId, matchUploadFileSchema.parse(req.body ?? {}));
    res.status(204).end();
  });
  // An entry she did not film: camera-named files skip it. PUT marks it, DELETE takes the mark back.
  admin.put(`${base}/:batchId/not-filmed/:entryId`, async (req, res) => {
    await markNotFilmed(deps, ids(req.params).batchId, textIdSchema.parse(req.params.entryId), true);
    res.status(204).end();
  });
  admin.delete(`${base}/:batchId/not-filmed/:entryId`, async (req, res) => {
    await markNotFilmed(deps, ids(req.params).batchId, textIdSchema.parse(req.params.entryId), false);
    res.status(204).end();
  });
  // The entry of her first camera-named file (the others follow the programme's order from it).
  admin.put(`${base}/:batchId/first-entry`, async (req, res) => {
    const { entryId } = firstUploadEntrySchema.parse(req.body ?? {});
    await setFirstEntry(deps, ids(req.params).batchId, entryId);
    res.status(204).end();
  });
  admin.post(`${base}/:batchId/files/:fileId/retry`, async (req, res) => {
    const { batchId, fileId } = ids(req.params);
    res.json(await retryFile(deps, batchId, fileId));
  });
  admin.delete(`${base}/:batchId/files/:fileId`, async (req, res) => {
    const { batchId, fileId } = ids(req.params);
    await removeFile(deps, batchId, fileId);
    res.status(204).end();
  });
  admin.post(`${base}/:batchId/confirm`, async (req, res) => {
    const input = confirmUploadBatchSchema.parse(req.body ?? {});
    res.json(await confirmBatch(deps, ids(req.params).batchId, input));
  });
}
