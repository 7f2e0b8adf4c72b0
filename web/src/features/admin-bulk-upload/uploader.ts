import Uppy, { type UppyFile } from '@uppy/core';
import AwsS3 from '@uppy/aws-s3';
import type { UploadFile } from '@app/shared/schemas';
import { bulkPartSize } from '../../lib/schemas.ts';
import { api, errorMessage } from '../../lib/api.ts';
import { signAction } from '../admin-uploads/upload.ts';

// The bulk upload's sending side (decision 033): Uppy's S3 client, with every S3 request signed by
// the api for the file's own upload. Every file is registered first, so Uppy always starts from the
// upload the api knows: it lists the parts already stored and sends only the others, which is how a
// reload, a dropped connection or a second tab continues instead of starting again.

type Meta = { fileId: string; batchId: string };
type Body = Record<string, never>;

/** Files sent at once: enough to fill a venue's line, few enough that each file finishes in turn. */
export const FILES_AT_ONCE = 4;

export interface UploaderEvents {
  progress: (fileId: string, fraction: number) => void;
  arrived: (fileId: string) => void;
  failed: (fileId: string, message: string) => void;
}

export function createUploader(batchId: string, events: UploaderEvents) {
  const uppy = new Uppy<Meta, Body>({ autoProceed: true, allowMultipleUploadBatches: true });
  const fileOfKey = new Map<string, string>();
  uppy.use(AwsS3<Meta, Body>, {
    shouldUseMultipart: true,
    limit: FILES_AT_ONCE,
    getChunkSize: ({ size }) => bulkPartSize(size),
    signRequest: async (request) => {
      const fileId = fileOfKey.get(request.key);
      if (!fileId) throw new Error('This file is not part of the upload');
      return api.post<{ url: string }>(
        `/api/admin/upload-batches/${encodeURIComponent(batchId)}/files/${encodeURIComponent(fileId)}/sign`,
        signAction(request),
      );
    },
  });
  const idOf = (file: UppyFile<Meta, Body> | undefined) => file?.meta.fileId ?? '';
  uppy.on('upload-progress', (file, progress) => {
    if (file && progress.bytesTotal)
      events.progress(idOf(file), (progress.bytesUploaded ?? 0) / progress.bytesTotal);
  });
  uppy.on('upload-success', (file) => {
    if (!file) return;
    events.arrived(idOf(file));
    uppy.removeFile(file.id);
  });
  // A refused signing request arrives here as our ApiError: the owner reads the api's sentence.
  uppy.on('upload-error', (file, error) => {
    if (file) events.failed(idOf(file), errorMessage(error, 'The upload stopped'));
  });

  return {
    /** Sends `data` as the registered `file`, continuing its multipart upload from the parts stored. */
    add(data: File, file: UploadFile) {
      if (!file.uploadId) return;
      fileOfKey.set(file.awsKey, file.id);
      const existing = uppy.getFiles().find((candidate) => candidate.meta.fileId === file.id);
      if (existing) return;
      const id = uppy.addFile({
        name: data.name,
        type: data.type || file.contentType,
        data,
        meta: { fileId: file.id, batchId },
      });
      uppy.setFileState(id, { s3Multipart: { key: file.awsKey, uploadId: file.uploadId } });
      void uppy.upload();
    },
    retry(fileId: string) {
      const found = uppy.getFiles().find((candidate) => candidate.meta.fileId === fileId);
      if (found) void uppy.retryUpload(found.id);
    },
    /** Stops sending (leaving the uploads in storage to continue later). */
    close() {
      uppy.destroy();
    },
  };
}

export type Uploader = ReturnType<typeof createUploader>;
