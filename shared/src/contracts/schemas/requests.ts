import { z } from 'zod';
import { accessCodeSchema, showcasePrivacySchema } from './privacy.ts';
import { slugSchema } from './library.ts';

// What the api accepts: the admin insert shapes and the public request bodies, shared by
// api validation and web forms. Browser-safe.

import { contactEventTypes, portfolioCategories, type ContactEventType } from '../constants.ts';
import { contentTypeFor, isSafeKey } from '../storage-keys.ts';

export {
  contactEventTypes,
  portfolioCategories,
  type ContactEventType,
  type PortfolioCategory,
} from '../constants.ts';
export const portfolioCategorySchema = z.enum(portfolioCategories);

const required = (label: string, max = 500) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(max, `${label} must be at most ${max} characters`);

const httpUrl = z
  .string()
  .trim()
  .max(2_000)
  .refine((value) => /^https?:\/\//i.test(value) && URL.canParse(value), 'Enter a full http(s) link');

/** A calendar day. Accepts yyyy-MM-dd or anything Date parses; stored as yyyy-MM-dd. */
export const calendarDateSchema = z
  .union([z.string(), z.date()], { error: 'Please enter a valid date' })
  .transform((value, ctx) => {
    if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value.trim())) {
      const day = value.trim();
      if (!Number.isNaN(Date.parse(`${day}T00:00:00Z`))) return day;
    } else {
      const date = typeof value === 'string' ? new Date(value) : value;
      if (!Number.isNaN(date.getTime())) return date.toISOString().slice(0, 10);
    }
    ctx.addIssue({ code: 'custom', message: 'Please enter a valid date' });
    return z.NEVER;
  });

/**
 * An event's picture: a full http(s) link, or a path of this site (/api/images/..., /api/photos/...,
 * /event.jpg). Anything else (javascript:, data:, //elsewhere) is refused: it ends up in an <img>
 * and in the owner's edit form's links.
 */
const eventImageSchema = required('Image', 2_000).refine(
  (value) =>
    (/^https?:\/\//i.test(value) && URL.canParse(value)) ||
    (/^\/[^/\\\s]/.test(value) && !/[\s\\]/.test(value) && !value.split(/[/?#]/).includes('..')),
  'Image must be an http(s) link or a picture of this site (a path starting with /)',
);

export const insertEventSchema = z.object({
  title: required('Title', 200),
  description: required('Description', 5_000),
  date: calendarDateSchema,
  location: required('Location', 200),
  eventType: required('Event type', 100).default('competition'),
  imageUrl: eventImageSchema,
  jotformUrl: z
    .union([httpUrl, z.literal(''), z.null()])
    .optional()
    .transform((value) => (value ? value : null)),
});

const contactEventTypeValues = contactEventTypes.map((type) => type.value) as [
  ContactEventType,
  ...ContactEventType[],
];

export const CONTACT_MESSAGE_MAX = 5_000;

export const insertContactSchema = z.object({
  firstName: required('First name', 100),
  lastName: required('Last name', 100),
  email: z.email({ error: 'Enter a valid email address' }).max(320),
  // Left blank: stored as null and shown as "Not given", so it never reads as a chosen "Other".
  eventType: z
    .union([z.enum(contactEventTypeValues), z.literal('')])
    .nullish()
    .transform((value): ContactEventType | null => value || null),
  message: required('Message', CONTACT_MESSAGE_MAX),
});

const showcaseFields = {
  name: required('Name', 200),
  description: required('Description', 2_000),
  orderPriority: z
    .number()
    .int('Order must be a whole number')
    .min(0, 'Order must be 0 or more')
    .max(1_000_000),
  published: z.boolean(),
  /** The page's address, /videos/<slug>; made from the name when absent. A change keeps the old one redirecting. */
  slug: slugSchema,
  /** "Show this showcase's videos in search engines" (performers are often children: off unless ticked). */
  showVideosInSearchEngines: z.boolean(),
  /** "Buy all N videos for NZ$X" (docs/decisions/023); null: no bundle. */
  bundlePriceCents: z
    .number()
    .int('The bundle price must be whole cents')
    .min(1, 'The bundle price must be more than 0')
    .max(10_000_000)
    .nullable(),
  /** Public, unlisted (link only) or behind an access code (docs/decisions/030). */
  privacy: showcasePrivacySchema,
  /** The code the studio hands out; required to switch to 'code' when none is set, kept when absent. */
  accessCode: accessCodeSchema.optional(),
};
export const insertShowcaseSchema = z.object({
  ...showcaseFields,
  privacy: showcaseFields.privacy.default('public'),
  orderPriority: showcaseFields.orderPriority.default(0),
  published: showcaseFields.published.default(true),
  slug: showcaseFields.slug.optional(),
  showVideosInSearchEngines: showcaseFields.showVideosInSearchEngines.default(false),
  bundlePriceCents: showcaseFields.bundlePriceCents.default(null),
});
/** Partial: the inline order save sends orderPriority alone, and nothing else may change. */
export const updateShowcaseSchema = z.object(showcaseFields).partial();

/** A path inside our storage: no `..`, no absolute path, no URL. */
const storageKeySchema = required('Storage key', 1_000).refine(
  isSafeKey,
  'Storage key must be a path inside storage such as videos/recital.mp4 (no "..", no leading "/")',
);

/** A video's file: a storage key under videos/, where the video upload link puts every video. */
const videoFileKeySchema = storageKeySchema.refine(
  (key) => key.startsWith('videos/'),
  'A video file must be stored under videos/ (upload it with the video upload)',
);

/**
 * A preview under /api/ (a site picture, or an uploaded one processed by the
 * worker at /api/photos/<id>) is used as is, anything else is a key the preview route serves from
 * storage, which serves only pictures under previews/. Anything else would show a
 * placeholder publicly, so it is refused here; blank means no preview.
 */
const previewUrlSchema = z
  .string()
  .trim()
  .max(2_000)
  .transform((value) => value || null)
  .refine(
    (value) =>
      value === null ||
      (/^\/api\/(images|video-preview|photos)\/[^\\?#]+$/.test(value) && !value.split('/').includes('..')) ||
      (isSafeKey(value) && value.startsWith('previews/') && contentTypeFor(value).startsWith('image/')),
    'Preview must be a picture of this site: a /api/images/... or /api/photos/... path or a storage key under previews/ (a link to another site cannot be shown)',
  );

// Without defaults: an update leaves out what it does not change (a default would overwrite it).
const videoFields = {
  title: required('Title', 200),
  description: required('Description', 5_000),
  tags: z.array(z.string().trim().min(1).max(50)).max(30),
  showcaseId: z.string().trim().min(1).max(100).nullable(),
  priceCents: z
    .number({ error: 'Price must be a number of cents' })
    .int('Price must be a whole number of cents')
    .min(0, 'Price must be 0 or more')
    .max(10_000_000),
  previewUrl: previewUrlSchema.nullable(),
  passwordProtected: z.boolean(),
  /** False hides the video from the public site; its paid buyers keep their downloads. */
  published: z.boolean(),
  /** New password; null or absent on edit keeps the current one. */
  password: z.string().min(1).max(200).nullable(),
};

/** The video insert omits id, createdAt, views and downloads. */
export const insertVideoSchema = z.object({
  ...videoFields,
  tags: videoFields.tags.default([]),
  showcaseId: videoFields.showcaseId.default(null),
  priceCents: videoFields.priceCents.default(0),
  previewUrl: videoFields.previewUrl.default(null),
  passwordProtected: videoFields.passwordProtected.default(false),
  published: videoFields.published.default(true),
  password: videoFields.password.default(null),
  awsKey: videoFileKeySchema,
});
/** On edit the file may change too (a new upload): the worker then processes the new one. */
export const updateVideoSchema = z.object({ ...videoFields, awsKey: videoFileKeySchema }).partial();

/** A text id from a path: videos' and showcases'. */
export const textIdSchema = z.string().trim().min(1).max(100);
/** A video's id as every route reads it (and as the password limits key it). */
export const videoIdSchema = textIdSchema;
/** A serial id from a path, named in its message ("Event id must be a number"). */
export const serialIdSchema = (thing: string) =>
  z.coerce
    .number({ error: `${thing} id must be a number` })
    .int()
    .positive()
    .max(2_147_483_647);

// Unknown fields are refused (.strict()): a guesser must not be able to vary a request the limits see.
export const verifyVideoPasswordSchema = z
  .object({
    videoId: videoIdSchema,
    password: z.string().min(1, 'Please enter the video password.').max(200),
  })
  .strict();
/** What a stream or download request may prove: the password, its token, a paid checkout session. */
export const videoAccessSchema = z
  .object({
    password: z.string().max(200).optional(),
    verificationToken: z.string().max(2_000).optional(),
    sessionId: z.string().max(255).optional(),
  })
  .strict();
export type VideoAccessRequest = z.infer<typeof videoAccessSchema>;

export const checkoutRequestSchema = z.object({
  videoId: videoIdSchema,
  customerEmail: z.email({ error: 'Enter a valid email address' }).max(320),
  customerName: required('Name', 200),
  verificationToken: z.string().max(2_000).optional(),
  /** The buyer ticked "e-mail me a reminder if I don't finish" (never pre-ticked; decision 029). */
  remindMe: z.boolean().optional(),
});
export type CheckoutRequest = z.infer<typeof checkoutRequestSchema>;
