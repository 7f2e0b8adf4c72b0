import { z } from 'zod';
import { MAX_UPLOAD_BYTES, uploadContentTypeSchema } from './admin.ts';

// A competition's files in one batch (decision 033): resumable multipart uploads matched to the
// programme's entries, then made videos when the owner confirms.

const MEBIBYTE = 1024 * 1024;
/**
 * A bulk file's part size: 8 MB up to 256 MB (a resumed file resends little), 64 MB above (a 4 GB file
 * in 64 requests). Fixed by the size alone, so the same file is always cut the same way and its content
 * hash (S3's multipart ETag) is the same every time it is uploaded; the browser cuts by the same rule.
 */
export const bulkPartSize = (size: number) => (size > 256 * MEBIBYTE ? 64 * MEBIBYTE : 8 * MEBIBYTE);

/** What a browser may send as a file name: no folders, no control characters, at most 255 characters. */
export const uploadFileNameSchema = z
  .string({ error: 'File name is required' })
  .min(1, 'File name is required')
  .max(255, 'File names must be at most 255 characters: rename the file')
  .refine((name) => !/[/\\]/.test(name), 'File names may not contain / or \\: rename the file')
  // eslint-disable-next-line no-control-regex
  .refine((name) => !/[\u0000-\u001f\u007f]/.test(name), 'File names may not contain control characters')
  .refine((name) => name.trim() === name && name !== '.' && name !== '..', 'Not a file name');

export const registerUploadFileSchema = z.strictObject({
  fileName: uploadFileNameSchema,
  size: z
    .number({ error: 'File size is required' })
    .int()
    .min(1, 'The file is empty (0 bytes)')
    .max(MAX_UPLOAD_BYTES, 'Files up to 5 GB can be uploaded: this one is larger'),
  contentType: uploadContentTypeSchema,
  /** When the camera recorded it (ms since 1970), from the file's metadata. */
  capturedAt: z.number().int().nonnegative().nullable().default(null),
  entryId: z.string().max(100).nullable().default(null),
  matchedBy: z.enum(['number', 'order', 'hand']).nullable().default(null),
});
export type RegisterUploadFile = z.input<typeof registerUploadFileSchema>;

export const signUploadRequestSchema = z.discriminatedUnion('action', [
  z.strictObject({ action: z.literal('part'), partNumber: z.number().int().min(1).max(10_000) }),
  z.strictObject({ action: z.enum(['list', 'complete', 'abort']) }),
]);
export type SignUploadRequest = z.infer<typeof signUploadRequestSchema>;
export const signedUploadRequestSchema = z.object({ url: z.string() });

export const matchUploadFileSchema = z.strictObject({
  entryId: z.string().max(100).nullable(),
  /** 'order': the camera files' order was matched again from another first entry. */
  matchedBy: z.enum(['order', 'hand']).default('hand'),
});

export const firstUploadEntrySchema = z.strictObject({
  entryId: z.string().max(100).nullable(),
});

export const confirmUploadBatchSchema = z.strictObject({
  publish: z.boolean(),
  priceCents: z.number().int().min(0).max(1_000_000),
});

/** Where a file is: sent, waiting, the worker's steps, or done; failed and duplicate say why. */
export const uploadStageSchema = z.enum([
  'uploading',
  'uploaded',
  'probing',
  'poster',
  'preview',
  'ready',
  'failed',
  'duplicate',
]);
export type UploadStage = z.infer<typeof uploadStageSchema>;

export const uploadFileSchema = z.object({
  id: z.string(),
  fileName: z.string(),
  size: z.number().int(),
  contentType: z.string(),
  capturedAt: z.number().nullable(),
  awsKey: z.string(),
  /** The storage's multipart upload while the file is being sent; null once it has arrived. */
  uploadId: z.string().nullable(),
  partSize: z.number().int(),
  entryId: z.string().nullable(),
  matchedBy: z.enum(['number', 'order', 'hand']).nullable(),
  videoId: z.string().nullable(),
  stage: uploadStageSchema,
  /** The worker's percentage while it processes the video. */
  progress: z.number().nullable(),
  /** Why it failed, or which video it duplicates. */
  reason: z.string().nullable(),
});
export type UploadFile = z.infer<typeof uploadFileSchema>;

export const uploadBatchEntrySchema = z.object({
  id: z.string(),
  entryNumber: z.string(),
  entrySort: z.number().int(),
  section: z.string(),
  title: z.string(),
});
export type UploadBatchEntry = z.infer<typeof uploadBatchEntrySchema>;

export const uploadBatchSchema = z.object({
  id: z.string(),
  showcaseId: z.string(),
  showcaseName: z.string(),
  publish: z.boolean(),
  priceCents: z.number().int(),
  confirmedAt: z.string().nullable(),
  files: z.array(uploadFileSchema),
  /** The showcase's programme, in order, for matching and the review table. */
  entries: z.array(uploadBatchEntrySchema),
  /** The entries she marked as not filmed (ids, in the programme's order): camera-named files skip them. */
  notFilmed: z.array(z.string()),
  /** The entry the first camera-named file belongs to; the others follow in the programme's order. */
  firstEntryId: z.string().nullable(),
});
export type UploadBatch = z.infer<typeof uploadBatchSchema>;
