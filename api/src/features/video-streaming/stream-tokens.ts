import { createToken, purposeKey, readToken } from '@app/shared/signing';

// The two signed tokens of adaptive playback (decision 031). A grant is the buyer's proof, carried on the
// playlist URLs: every playlist request re-checks it against the database. A segment token is checked by
// its HMAC alone (no database query per segment) and lives a minute, so a refund, a hide or a takedown
// ends playback once the player can no longer get a new one.

/** How long a playlist URL works without the player refreshing it. */
export const GRANT_SECONDS = 10 * 60;
/** How long segment links work: a revoked grant stops playback within this. */
export const SEGMENT_TOKEN_SECONDS = 60;

export interface Grant {
  videoId: string;
  /** The purchase that pays for the video, or `free` / `password` for what needs no purchase. */
  grantId: string;
  /** The proof the stream and download routes take, re-checked on each playlist request. */
  sessionId?: string;
  verificationToken?: string;
  /** Unix seconds. */
  expiresAt: number;
}

export interface SegmentGrant {
  videoId: string;
  grantId: string;
  /** The stream folder's digest (`streams/<digest>/`): a token opens only that folder. */
  digest: string;
  expiresAt: number;
}

const grantKey = (secret: string) => purposeKey(secret, 'hls-grant');
const segmentKey = (secret: string) => purposeKey(secret, 'hls-segment');
const seconds = (nowMs: number) => Math.floor(nowMs / 1000);

export function issueGrant(secret: string, grant: Omit<Grant, 'expiresAt'>, nowMs: number): string {
  return createToken(grantKey(secret), {
    v: grant.videoId,
    g: grant.grantId,
    ...(grant.sessionId && { s: grant.sessionId }),
    ...(grant.verificationToken && { t: grant.verificationToken }),
    exp: seconds(nowMs) + GRANT_SECONDS,
  });
}

/** The grant, when signed by us for this video and not expired; null otherwise. */
export function readGrant(secret: string, token: unknown, videoId: string, nowMs: number): Grant | null {
  if (typeof token !== 'string' || token.length > 4_000) return null;
  const payload = readToken(grantKey(secret), token);
  if (!payload || payload.v !== videoId || typeof payload.g !== 'string') return null;
  if (typeof payload.exp !== 'number' || payload.exp <= seconds(nowMs)) return null;
  return {
    videoId,
    grantId: payload.g,
    sessionId: typeof payload.s === 'string' ? payload.s : undefined,
    verificationToken: typeof payload.t === 'string' ? payload.t : undefined,
    expiresAt: payload.exp,
  };
}

export function issueSegmentToken(secret: string, grant: Omit<SegmentGrant, 'expiresAt'>, nowMs: number) {
  return createToken(segmentKey(secret), {
    v: grant.videoId,
    g: grant.grantId,
    d: grant.digest,
    exp: seconds(nowMs) + SEGMENT_TOKEN_SECONDS,
  });
}

/** The segment grant, when signed by us for this video and not expired; null otherwise. */
export function readSegmentToken(secret: string, token: unknown, videoId: string, nowMs: number) {
  if (typeof token !== 'string' || token.length > 1_000) return null;
  const payload = readToken(segmentKey(secret), token);
  if (!payload || payload.v !== videoId || typeof payload.g !== 'string') return null;
  if (typeof payload.d !== 'string' || !/^[a-f0-9]{24}$/.test(payload.d)) return null;
  if (typeof payload.exp !== 'number' || payload.exp <= seconds(nowMs)) return null;
  return { videoId, grantId: payload.g, digest: payload.d, expiresAt: payload.exp } satisfies SegmentGrant;
}

/**
 * A stored playlist with every URI (variant playlists, the init segment, media segments) given `query`,
 * so relative links stay inside the api's stream routes and carry the grant or the segment token.
 */
export function signPlaylist(playlist: string, query: string): string {
  return playlist
    .split('\n')
    .map((line) => {
      const trimmed = line.trim();
      if (trimmed === '') return line;
      if (trimmed.startsWith('#'))
        return trimmed.replace(/URI="([^"?]+)"/g, (_match, uri: string) => `URI="${uri}?${query}"`);
      return `${trimmed}?${query}`;
    })
    .join('\n');
}
