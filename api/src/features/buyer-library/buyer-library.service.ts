import { and, eq, gt, inArray, isNull, lt, sql } from 'drizzle-orm';
import { hashSecret, newSecret, paidVideosForEmail } from '@app/shared/buyer-library';
import { buyerSessions, buyerSignInLinks, showcases, videos, type Db } from '@app/shared/db';
import type { BuyerLibrary } from '@app/shared/schemas';
import type { Deps } from '../../deps.ts';
import { HttpError } from '../../http/errors.ts';
import { previewUrlColumn } from '../video-processing/video-processing.service.ts';

// The buyer's library (decision 024). Which videos an address owns comes only from
// paidVideosForEmail; this file adds sign-in links, buyer sessions and what the page shows.

/** The buyer's cookie: its own name and path, so it never meets the admin session (and vice versa). */
export const BUYER_COOKIE = 'buyer_sid';

/** A buyer stays signed in this long (not rolling: a month after the link, a new link). */
export const BUYER_SESSION_DAYS = 30;

/**
 * Records a link request and queues its job, the same work for every address: whether it has
 * purchases is decided by the worker, so neither the answer nor its timing tells.
 */
export async function requestSignInLink(deps: Pick<Deps, 'db' | 'producer'>, email: string): Promise<void> {
  const [request] = await deps.db
    .insert(buyerSignInLinks)
    .values({ email })
    .returning({ id: buyerSignInLinks.id });
  await deps.producer.enqueue('buyer-sign-in', { requestId: request!.id });
}

export const LINK_USED = 'This sign-in link has already been used. Ask for a new one below.';
export const LINK_EXPIRED = 'This sign-in link has expired. Ask for a new one below.';
export const LINK_INVALID = 'This sign-in link is not valid. Ask for a new one below.';

/**
 * Spends a link's token (once, before its expiry, for the address it was sent to) and opens a buyer
 * session; returns the session's secret for the cookie. A token that was used, expired, changed or
 * sent to another address is refused with a message saying which.
 */
export async function signIn(
  db: Db,
  email: string,
  token: string,
): Promise<{ secret: string; expiresAt: Date }> {
  const tokenHash = hashSecret(token);
  const now = new Date();
  const [spent] = await db
    .update(buyerSignInLinks)
    .set({ usedAt: now })
    .where(
      and(
        eq(buyerSignInLinks.tokenHash, tokenHash),
        eq(buyerSignInLinks.email, email),
        isNull(buyerSignInLinks.usedAt),
        gt(buyerSignInLinks.expiresAt, now),
      ),
    )
    .returning({ email: buyerSignInLinks.email });
  if (!spent) {
    const [link] = await db
      .select({ email: buyerSignInLinks.email, usedAt: buyerSignInLinks.usedAt })
      .from(buyerSignInLinks)
      .where(eq(buyerSignInLinks.tokenHash, tokenHash));
    // A link for another address says only that it is not valid here, never whose it is.
    if (!link || link.email !== email) throw new HttpError(400, LINK_INVALID);
    throw new HttpError(400, link.usedAt ? LINK_USED : LINK_EXPIRED);
  }
  const secret = newSecret();
  const expiresAt = new Date(now.getTime() + BUYER_SESSION_DAYS * 24 * 3600_000);
  await db.insert(buyerSessions).values({ idHash: hashSecret(secret), email: spent.email, expiresAt });
  await db.delete(buyerSessions).where(lt(buyerSessions.expiresAt, now));
  return { secret, expiresAt };
}

/** The address of a live buyer session, or undefined. */
export async function buyerSessionEmail(db: Db, secret: string | undefined): Promise<string | undefined> {
  if (!secret) return undefined;
  const [session] = await db
    .select({ email: buyerSessions.email })
    .from(buyerSessions)
    .where(and(eq(buyerSessions.idHash, hashSecret(secret)), gt(buyerSessions.expiresAt, new Date())));
  return session?.email;
}

export async function signOut(db: Db, secret: string | undefined): Promise<void> {
  if (secret) await db.delete(buyerSessions).where(eq(buyerSessions.idHash, hashSecret(secret)));
}

/** Every video the address has paid for and kept, newest purchase first, each with its watch page. */
export async function buyerLibrary(db: Db, email: string): Promise<BuyerLibrary> {
  const paid = await paidVideosForEmail(db, email);
  if (paid.length === 0) return { email, videos: [] };
  const details = await db
    .select({
      id: videos.id,
      title: videos.title,
      showcaseName: showcases.name,
      // A withdrawn video (taken down) shows its notice, not its picture (docs/decisions/030).
      previewUrl: sql<string | null>`case when ${videos.withdrawnAt} is null then ${previewUrlColumn} end`,
      passwordProtected: videos.passwordProtected,
      withdrawn: sql<boolean>`${videos.withdrawnAt} is not null`,
    })
    .from(videos)
    .leftJoin(showcases, eq(showcases.id, videos.showcaseId))
    .where(
      inArray(
        videos.id,
        paid.map((video) => video.videoId),
      ),
    );
  const byId = new Map(details.map((video) => [video.id, video]));
  return {
    email,
    videos: paid.flatMap((item) => {
      const video = byId.get(item.videoId);
      if (!video) return [];
      return [
        {
          ...video,
          purchasedAt: item.purchasedAt.toISOString(),
          // The page receipts link to: it plays and downloads through the signed links of this purchase.
          watchUrl: `/video/${encodeURIComponent(video.id)}/download?session_id=${encodeURIComponent(item.accessSessionId)}`,
        },
      ];
    }),
  };
}
