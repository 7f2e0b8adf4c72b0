import { z } from 'zod';
import { showcasePrivacySchema } from './privacy.ts';
import { videoProcessingSchema } from './media.ts';
import { showcaseSummarySchema, wholeNumber } from './library.ts';
import { publicVideoSchema } from './shop.ts';

export const adminLoginSchema = z.strictObject({
  password: z.string({ error: 'Password is required' }).min(1, 'Password is required').max(1_000),
});

/** GET /api/admin/session: whether this browser holds the owner's session. */
export const adminSessionSchema = z.object({ authenticated: z.boolean() });
export type AdminSession = z.infer<typeof adminSessionSchema>;

// Direct uploads from the owner's browser to storage (POST /api/admin/videos/upload-url and friends).

/** The largest file the admin can upload (S3's limit for one PUT, and the local driver's). */
export const MAX_UPLOAD_BYTES = 5 * 1024 ** 3;
/** Files larger than this go up in parts (and need `size` in the upload-url request). */
export const MULTIPART_THRESHOLD_BYTES = 100 * 1024 ** 2;

export const uploadContentTypeSchema = z
  .string({ error: 'Content type is required' })
  .trim()
  .toLowerCase()
  .regex(/^(video|image)\/[a-z0-9][\w.+-]*$/, {
    message: 'Only video files can be uploaded here',
    abort: true,
  })
  // Pictures go through the picture upload (/api/admin/images/upload-url): the process-image job
  // strips their metadata (GPS) before anyone sees them. This link stores files as they come.
  .refine(
    (type) => type.startsWith('video/'),
    'Only video files can be uploaded here: add a preview picture with the picture upload',
  );

export const uploadUrlRequestSchema = z.object({
  fileName: z
    .string({ error: 'File name is required' })
    .trim()
    .min(1, 'File name is required')
    .max(255, 'File name must be at most 255 characters'),
  contentType: uploadContentTypeSchema,
  size: z
    .number()
    .int()
    .min(1, 'The file is empty')
    .max(MAX_UPLOAD_BYTES, 'Files up to 5 GB can be uploaded')
    .optional(),
});
export type UploadUrlRequest = z.infer<typeof uploadUrlRequestSchema>;

/**
 * A key an upload-url call handed out: `videos/` or `uploads/` (`previews/` from before), then a
 * uuid-prefixed file name (never `.` or `..`, which storage refuses as unsafe).
 */
export const uploadKeySchema = z
  .string({ error: 'Storage key is required' })
  .regex(/^(videos|previews|uploads)\/[\w-][\w.-]{0,199}$/, 'Not an upload key');
export const uploadIdSchema = z.string().trim().min(1).max(1_000);

/** One PUT of the whole file to `uploadUrl`, with the same Content-Type. */
export const singleUploadTargetSchema = z.object({
  kind: z.literal('single'),
  uploadUrl: z.string(),
  awsKey: uploadKeySchema,
  contentType: z.string(),
});
/**
 * A large file: PUT bytes [(n-1)*partSize, n*partSize) to part n's url (no Content-Type needed),
 * keep each answer's ETag header, then POST upload-complete (or upload-abort on cancel). The admin's
 * uploader (Uppy) asks upload-sign for each request instead, so a resumed upload gets fresh links.
 */
export const multipartUploadTargetSchema = z.object({
  kind: z.literal('multipart'),
  uploadId: uploadIdSchema,
  awsKey: uploadKeySchema,
  contentType: z.string(),
  partSize: z.number().int().positive(),
  parts: z.array(z.object({ partNumber: z.number().int().positive(), url: z.string() })),
});
export const uploadTargetSchema = z.discriminatedUnion('kind', [
  singleUploadTargetSchema,
  multipartUploadTargetSchema,
]);
export type UploadTarget = z.infer<typeof uploadTargetSchema>;

export const uploadCompleteRequestSchema = z.object({
  awsKey: uploadKeySchema,
  uploadId: uploadIdSchema,
  parts: z
    .array(
      z.object({
        partNumber: z.number().int().min(1).max(10_000),
        etag: z.string().trim().min(1).max(200),
      }),
    )
    .min(1, 'No parts were uploaded')
    .max(10_000),
});
export const uploadAbortRequestSchema = z.object({ awsKey: uploadKeySchema, uploadId: uploadIdSchema });

/**
 * POST /api/admin/videos/upload-sign: a link for one S3 request on a multipart upload upload-url
 * planned, as a browser's S3 client (Uppy) makes them: PUT a part; list the parts stored, complete or
 * abort. Answered with `{ url }` (signedUploadRequestSchema).
 */
export const uploadSignRequestSchema = z.discriminatedUnion('action', [
  z.strictObject({
    awsKey: uploadKeySchema,
    uploadId: uploadIdSchema,
    action: z.literal('part'),
    partNumber: z.number().int().min(1).max(10_000),
  }),
  z.strictObject({
    awsKey: uploadKeySchema,
    uploadId: uploadIdSchema,
    action: z.enum(['list', 'complete', 'abort']),
  }),
]);
export type UploadSignRequest = z.infer<typeof uploadSignRequestSchema>;

// What the admin calls answer (GET/POST/PUT/PATCH /api/admin/...). Timestamps are ISO strings.

export const adminContactSchema = z.object({
  id: z.number().int(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  /** Null when the visitor left it blank. */
  eventType: z.string().nullable(),
  message: z.string(),
  createdAt: z.string(),
});
export type AdminContact = z.infer<typeof adminContactSchema>;

/** GET /api/events: the competitions the home page lists. */
export const publicEventSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  description: z.string(),
  /** A calendar day, yyyy-MM-dd. */
  date: z.string(),
  location: z.string(),
  eventType: z.string(),
  imageUrl: z.string(),
  jotformUrl: z.string().nullable(),
});
export type PublicEvent = z.infer<typeof publicEventSchema>;

export const adminEventSchema = publicEventSchema.extend({ createdAt: z.string(), updatedAt: z.string() });
export type AdminEvent = z.infer<typeof adminEventSchema>;

export const showcaseSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  orderPriority: z.number().int(),
  published: z.boolean(),
  slug: z.string(),
  showVideosInSearchEngines: z.boolean(),
  bundlePriceCents: z.number().int().nullable(),
  privacy: showcasePrivacySchema,
  /** The access code, read back for the owner to give the studio; null unless one is set. */
  accessCode: z.string().nullable(),
  createdAt: z.string(),
});
export type Showcase = z.infer<typeof showcaseSchema>;

/** The owner's view of a video: storage key and counters, never the password or its hash. */
export const adminVideoSchema = publicVideoSchema.extend({
  awsKey: z.string(),
  views: z.number().int(),
  downloads: z.number().int(),
  /** previewUrl is the owner's own picture here; visitors see it, else this frame the worker took. */
  posterUrl: z.string().nullable(),
  processing: videoProcessingSchema,
  published: z.boolean(),
  /** The stored file's size in bytes; null when no file is stored under awsKey. */
  fileSize: z.number().int().nullable(),
});
export type AdminVideo = z.infer<typeof adminVideoSchema>;

/** GET /api/admin/showcases: hidden ones too, each counting all its videos. */
export const adminShowcaseSchema = showcaseSummarySchema.extend({
  published: z.boolean(),
  /** The access code, read back for the owner to give the studio; null unless one is set. */
  accessCode: z.string().nullable(),
  bundlePriceCents: z.number().int().nullable(),
});
export type AdminShowcase = z.infer<typeof adminShowcaseSchema>;

/** POST /api/admin/videos/{id}/publish and /hide, and the showcase ones: the new state. */
export const publishedStateSchema = z.object({ id: z.string(), published: z.boolean() });
export type PublishedState = z.infer<typeof publishedStateSchema>;

const testimonialFields = {
  name: z
    .string({ error: 'Name is required' })
    .trim()
    .min(1, 'Name is required')
    .max(120, 'Name must be at most 120 characters'),
  quote: z
    .string({ error: 'Quote is required' })
    .trim()
    .min(1, 'Quote is required')
    .max(1_000, 'Quote must be at most 1000 characters'),
  event: z
    .string()
    .trim()
    .max(200, 'Event must be at most 200 characters')
    .nullish()
    .transform((value) => value || null),
  published: z.boolean(),
};
export const insertTestimonialSchema = z.object({
  ...testimonialFields,
  published: testimonialFields.published.default(true),
});
export const updateTestimonialSchema = z.object(testimonialFields).partial();
/** PUT /api/admin/testimonials/order: every testimonial's id, first shown first. */
export const testimonialOrderSchema = z.object({
  ids: z.array(z.number().int().positive()).min(1, 'Nothing to order').max(500),
});

export const adminTestimonialSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  quote: z.string(),
  event: z.string().nullable(),
  position: z.number().int(),
  published: z.boolean(),
});
export type AdminTestimonial = z.infer<typeof adminTestimonialSchema>;

/** The answer to a DELETE. */
export const deletedSchema = z.object({ id: z.union([z.number(), z.string()]), deleted: z.literal(true) });
export type Deleted = z.infer<typeof deletedSchema>;

// Paged admin lists (decision 020): `{ <items>, page, pageSize, total }`, like the purchases list.

const adminPage = {
  page: wholeNumber('Page', 1, 100_000).default(1),
  pageSize: wholeNumber('Page size', 1, 200).default(50),
  q: z.string().max(200, 'Search text must be at most 200 characters').optional(),
};

/** GET /api/admin/videos: search, showcase ("more": none), order, page. */
export const adminVideoListQuerySchema = z.object({
  ...adminPage,
  showcase: z.string().trim().min(1).max(100).optional(),
  sort: z.enum(['newest', 'oldest', 'title', 'relevance']).default('newest'),
});
export type AdminVideoListQuery = z.infer<typeof adminVideoListQuerySchema>;

export const adminVideoListSchema = z.object({
  videos: z.array(adminVideoSchema),
  page: z.number().int(),
  pageSize: z.number().int(),
  total: z.number().int(),
});
export type AdminVideoList = z.infer<typeof adminVideoListSchema>;

/** GET /api/admin/contacts: newest first, searched in names, e-mail and message. */
export const adminContactListQuerySchema = z.object(adminPage);
export const adminContactListSchema = z.object({
  contacts: z.array(adminContactSchema),
  page: z.number().int(),
  pageSize: z.number().int(),
  total: z.number().int(),
});
export type AdminContactList = z.infer<typeof adminContactListSchema>;

/** GET /api/admin/events: upcoming (soonest first) or past (latest first). */
export const adminEventListQuerySchema = z.object({
  ...adminPage,
  when: z.enum(['upcoming', 'past'], { error: 'When must be "upcoming" or "past"' }).default('upcoming'),
});
export const adminEventListSchema = z.object({
  events: z.array(adminEventSchema),
  page: z.number().int(),
  pageSize: z.number().int(),
  total: z.number().int(),
});
export type AdminEventList = z.infer<typeof adminEventListSchema>;

/** The most videos one bulk action takes. */
export const BULK_MAX = 500;

/** POST /api/admin/videos/bulk: what the owner does to many videos after uploading a competition. */
export const bulkVideoActionSchema = z.intersection(
  z.object({
    ids: z
      .array(z.string().trim().min(1).max(100))
      .min(1, 'Choose at least one video')
      .max(BULK_MAX, `At most ${BULK_MAX} videos at a time`),
  }),
  z.discriminatedUnion('action', [
    z.object({ action: z.literal('move'), showcaseId: z.string().trim().min(1).max(100).nullable() }),
    z.object({
      action: z.literal('price'),
      priceCents: z
        .number({ error: 'Price must be a number of cents' })
        .int('Price must be a whole number of cents')
        .min(0, 'Price must be 0 or more')
        .max(10_000_000),
    }),
    z.object({ action: z.literal('delete') }),
  ]),
);
export type BulkVideoAction = z.infer<typeof bulkVideoActionSchema>;

/** What a bulk action did: `kept` are the videos a delete left because they have purchases. */
export const bulkVideoResultSchema = z.object({
  changed: z.number().int(),
  kept: z.array(z.string()),
});
export type BulkVideoResult = z.infer<typeof bulkVideoResultSchema>;
