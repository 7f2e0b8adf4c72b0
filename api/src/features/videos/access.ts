import { z } from 'zod';
import type { videos } from '@app/shared/db';
import { verifyPassword } from '@app/shared/password';
import { createToken, purposeKey, readToken } from '@app/shared/signing';
import { paidPurchaseIdOfVideo } from '@app/shared/sales';
import type { Deps } from '../../deps.ts';
import { HttpError } from '../../http/errors.ts';
import type { BoundGuard } from '../../http/guesses.ts';
import { protectedMediaKeys } from '../video-processing/video-processing.service.ts';

type Video = typeof videos.$inferSelect;

/** How long a correct video password is remembered (the token the browser keeps). */
export const VIDEO_TOKEN_TTL_SECONDS = 2 * 3600;

const tokenKey = (deps: Pick<Deps, 'config'>) => purposeKey(deps.config.SESSION_SECRET, 'video-password');

export function issueVideoToken(
  deps: Pick<Deps, 'config'>,
  videoId: string,
): { token: string; expiresAt: string } {
  const expires = Math.floor(Date.now() / 1000) + VIDEO_TOKEN_TTL_SECONDS;
  return {
    token: createToken(tokenKey(deps), { v: videoId, exp: expires }),
    expiresAt: new Date(expires * 1000).toISOString(),
  };
}

/** True when the token was issued for this video and has not expired. */
export function isValidVideoToken(
  deps: Pick<Deps, 'config'>,
  videoId: string,
  token: string | undefined,
): boolean {
  if (!token) return false;
  const payload = readToken(tokenKey(deps), token);
  return payload?.v === videoId && typeof payload.exp === 'number' && payload.exp * 1000 > Date.now();
}

export interface AccessProof {
  password?: string;
  verificationToken?: string;
  sessionId?: string;
}

/**
 * Who may stream or download a video: a protected video needs its password or
 * token (401); a paid one needs a paid purchase that holds this very video (403).
 */
export async function authorizeVideo(
  deps: Deps,
  video: Video,
  proof: AccessProof,
  guesses?: BoundGuard,
): Promise<{ purchaseId?: string }> {
  if (video.passwordProtected) {
    const tokenOk = isValidVideoToken(deps, video.id, proof.verificationToken);
    let passwordOk = false;
    if (!tokenOk && proof.password && video.passwordHash) {
      // Wrong guesses from many addresses slow every guesser that has failed (GuessGuard).
      await guesses?.check();
      passwordOk = await verifyPassword(proof.password, video.passwordHash);
      if (!passwordOk) await guesses?.failed();
    }
    if (!tokenOk && !passwordOk)
      throw new HttpError(
        401,
        proof.password || proof.verificationToken ? 'Invalid password' : 'Password required',
      );
  }
  if (video.priceCents === 0) return {};
  if (!proof.sessionId) throw new HttpError(403, 'This video needs a purchase');
  const purchaseId = await paidPurchaseId(deps, video.id, proof.sessionId);
  if (!purchaseId) throw new HttpError(403, 'No paid purchase of this video was found for that session');
  return { purchaseId };
}

const paidPurchaseId = (deps: Pick<Deps, 'db'>, videoId: string, sessionId: string) =>
  paidPurchaseIdOfVideo(deps.db, videoId, sessionId);

/** True when this checkout session paid for this video. */
export async function hasPaidPurchase(
  deps: Pick<Deps, 'db'>,
  videoId: string,
  sessionId: string,
): Promise<boolean> {
  return (await paidPurchaseId(deps, videoId, sessionId)) !== undefined;
}

/** A protected video's token (POST /api/verify-video-password) in the address of its poster or clip. */
export const tokenQuerySchema = z.object({
  token: z.string().trim().min(1).max(1_000).optional().catch(undefined),
});

/**
 * Whether a poster frame or preview clip may go to this request: `open` (no protected video uses it),
 * `unlocked` (a protected video uses it and the token is that video's), or `refused`.
 */
export async function mediaAccess(
  deps: Pick<Deps, 'config' | 'db' | 'publicCache'>,
  key: string,
  token: string | undefined,
): Promise<'open' | 'unlocked' | 'refused'> {
  const keys = await deps.publicCache.value('protected-media', () => protectedMediaKeys(deps.db));
  const users = keys?.[key];
  if (!users) return 'open';
  return users.some((id) => isValidVideoToken(deps, id, token)) ? 'unlocked' : 'refused';
}
