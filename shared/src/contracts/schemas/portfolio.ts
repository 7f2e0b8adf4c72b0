import { z } from 'zod';
import { portfolioCategories } from '../constants.ts';
import { ACCEPTED_IMAGE_TYPES, MAX_IMAGE_BYTES } from '../images.ts';

// The owner's portfolio and uploaded pictures (/admin/portfolio, the image picker). Browser-safe.

export const ALT_REQUIRED_MESSAGE =
  'Alt text is required before a photo is published: it is what screen readers and search engines read';

/** POST /api/admin/images/upload-url: a picture for the process-image job, at most 50 MB. */
export const imageUploadUrlRequestSchema = z.object({
  fileName: z
    .string({ error: 'File name is required' })
    .trim()
    .min(1, 'File name is required')
    .max(255, 'File name must be at most 255 characters'),
  contentType: z.enum(ACCEPTED_IMAGE_TYPES, { error: 'Only JPEG, PNG and WebP pictures can be uploaded' }),
  size: z
    .number()
    .int()
    .min(1, 'The file is empty')
    .max(MAX_IMAGE_BYTES, 'Pictures up to 50 MB can be uploaded'),
});

/** An upload the image upload-url call handed out: `uploads/<uuid>-<name>`, never served as it is. */
export const imageUploadKeySchema = z
  .string({ error: 'Storage key is required' })
  .regex(/^uploads\/[\w.-]{1,200}$/, 'Not a picture upload key');

const uploadedSchema = z.object({
  awsKey: imageUploadKeySchema,
  originalName: z.string().trim().max(255).default(''),
});

export const imagePurposes = ['portfolio', 'event', 'poster'] as const;
export const imageStatuses = ['pending', 'ready', 'failed'] as const;

/** POST /api/admin/images: the upload is complete; process it (event images, posters). */
export const createImageRequestSchema = uploadedSchema.extend({
  purpose: z.enum(['event', 'poster']),
});

export const adminImageSchema = z.object({
  id: z.string(),
  purpose: z.enum(imagePurposes),
  url: z.string(),
  originalName: z.string(),
  status: z.enum(imageStatuses),
  error: z.string().nullable(),
  width: z.number().nullable(),
  height: z.number().nullable(),
  placeholder: z.string().nullable(),
  /** A portfolio photo's alt text, for the picker. */
  alt: z.string().nullable(),
  createdAt: z.string(),
});
export type AdminImage = z.infer<typeof adminImageSchema>;

const altSchema = z.string().trim().max(500, 'Alt text must be at most 500 characters');
const categorySchema = z.enum(portfolioCategories, { error: 'Choose solo, group, stage or studio' });

/** POST /api/admin/portfolio: a photo whose upload has completed. It starts unpublished. */
export const createPortfolioPhotoSchema = uploadedSchema.extend({
  category: categorySchema,
  alt: altSchema.default(''),
  featured: z.boolean().default(false),
});

/** PATCH /api/admin/portfolio/:id: any of these; publishing needs alt text (the photo's, or sent with it). */
export const updatePortfolioPhotoSchema = z
  .object({
    alt: altSchema,
    category: categorySchema,
    featured: z.boolean(),
    published: z.boolean(),
    position: z
      .number({ error: 'Order must be a number' })
      .int('Order must be a whole number')
      .min(0, 'Order must be 0 or more')
      .max(1_000_000),
  })
  .partial()
  .refine((value) => Object.keys(value).length > 0, 'Nothing to change');
export type UpdatePortfolioPhoto = z.infer<typeof updatePortfolioPhotoSchema>;

/** POST /api/admin/portfolio/:id/replace: a new upload takes the photo's place once it is processed. */
export const replacePortfolioPhotoSchema = uploadedSchema;

const imageStateSchema = z.object({
  status: z.enum(imageStatuses),
  error: z.string().nullable(),
  originalName: z.string(),
});

/** GET /api/portfolio: what the gallery and the hero show (the image's fields plus size and placeholder). */
export const publicPortfolioImageSchema = z.object({
  id: z.number(),
  imageUrl: z.string(),
  alt: z.string(),
  category: z.string(),
  featured: z.boolean(),
  width: z.number().nullable(),
  height: z.number().nullable(),
  placeholder: z.string().nullable(),
});
export type PublicPortfolioImage = z.infer<typeof publicPortfolioImageSchema>;

export const adminPortfolioPhotoSchema = publicPortfolioImageSchema.extend({
  category: z.enum(portfolioCategories),
  published: z.boolean(),
  position: z.number(),
  /** The uploaded picture shown (null for a built-in one), and a replacement being processed. */
  image: imageStateSchema.nullable(),
  nextImage: imageStateSchema.nullable(),
});
export type AdminPortfolioPhoto = z.infer<typeof adminPortfolioPhotoSchema>;
