import { z } from 'zod';
import { documentLinkSchema } from './gst.ts';

// The buyer's library (/my-videos, decision 024): the HTTP contract. Browser-safe.

/** A sign-in link works once, for this long. */
export const BUYER_LINK_MINUTES = 30;

/** An e-mail address as the library matches it: trimmed and lower-case. */
export const buyerEmailSchema = z
  .string({ error: 'Enter a valid email address' })
  .trim()
  .toLowerCase()
  .pipe(z.email({ error: 'Enter a valid email address' }).max(320));

/** POST /api/my-videos/link. */
export const buyerLinkRequestSchema = z.object({ email: buyerEmailSchema });
export type BuyerLinkRequest = z.infer<typeof buyerLinkRequestSchema>;

/** The answer to every link request, whether or not the address has bought anything. */
export const BUYER_LINK_SENT = `If this address has bought videos from us, a sign-in link is on its way to it. The link works once, for ${BUYER_LINK_MINUTES} minutes.`;

export const buyerLinkResponseSchema = z.object({ message: z.string() });
export type BuyerLinkResponse = z.infer<typeof buyerLinkResponseSchema>;

/** POST /api/my-videos/sign-in: the address and token of the e-mailed link. */
export const buyerSignInSchema = z.object({
  email: buyerEmailSchema,
  token: z.string().trim().min(1, 'The link has no token').max(200, 'The link is not valid'),
});
export type BuyerSignIn = z.infer<typeof buyerSignInSchema>;

/** One paid video on GET /api/my-videos, newest purchase first. */
export const buyerVideoSchema = z.object({
  id: z.string(),
  title: z.string(),
  showcaseName: z.string().nullable(),
  previewUrl: z.string().nullable(),
  passwordProtected: z.boolean(),
  /** Taken down after a removal request: the library says "This video has been withdrawn" instead. */
  withdrawn: z.boolean(),
  purchasedAt: z.string(),
  /** The video's download page with its purchase (where it plays and downloads through signed links). */
  watchUrl: z.string(),
});
export type BuyerVideo = z.infer<typeof buyerVideoSchema>;

/** GET /api/my-videos (401 without a buyer session). */
export const buyerLibrarySchema = z.object({
  email: z.string(),
  videos: z.array(buyerVideoSchema),
  /** Invoices, receipts and credit notes of the address's purchases, newest first. */
  documents: z.array(documentLinkSchema).optional(),
});
export type BuyerLibrary = z.infer<typeof buyerLibrarySchema>;

/** The sign-in page's address: the token and address ride in the fragment, so no server log or Referer sees them. */
export function buyerSignInUrl(publicUrl: string, email: string, token: string): string {
  return `${publicUrl}/my-videos/sign-in#${new URLSearchParams({ email, token }).toString()}`;
}
