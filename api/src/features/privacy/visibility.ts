import type { Request } from 'express';
import { eq, or, sql } from 'drizzle-orm';
import { showcases, videos } from '@app/shared/db';
import type { Deps } from '../../deps.ts';
import { notFound } from '../../http/errors.ts';
import { mediaAccess, tokenQuerySchema } from '../videos/access.ts';
import { videoVisibilityColumns } from '../videos/library.service.ts';
import { hasShowcaseAccess, type ShowcaseGate } from './showcase-access.ts';

// What the public may fetch of a video's pictures and clip (docs/decisions/030): a key that belongs to
// a video is served only while that video is public, and behind an access code only to a browser that
// typed it. A hidden or withdrawn video's poster and clip are gone with it; keys no video names
// (pictures never attached) are left as they were.

interface Holder {
  shown: boolean;
  gate: ShowcaseGate | null;
}

/** How long a browser or shared cache may keep a clip or poster: a hidden video's are gone within it. */
export const MEDIA_MAX_AGE_SECONDS = 60;

/**
 * Refuses (404) a clip or poster key whose videos are all hidden, withdrawn or locked for this browser;
 * answers the Cache-Control to serve it with ('private' behind an access code).
 */
export async function checkMediaVisible(
  deps: Pick<Deps, 'db' | 'config' | 'publicCache'>,
  req: Request,
  key: string,
  kind: 'clip' | 'poster',
): Promise<string> {
  const holders = await deps.publicCache.value<Holder[]>(`media:${key}`, async () =>
    deps.db
      .select(videoVisibilityColumns)
      .from(videos)
      .leftJoin(showcases, eq(showcases.id, videos.showcaseId))
      .where(
        kind === 'clip'
          ? sql`${videos.media}->>'clipKey' = ${key}`
          : or(sql`${videos.media}->>'posterKey' = ${key}`, eq(videos.previewUrl, key)),
      )
      .limit(20),
  );
  if (!holders || holders.length === 0) return `public, max-age=${MEDIA_MAX_AGE_SECONDS}`;
  const open = holders.filter((holder) => holder.shown && hasShowcaseAccess(deps, req, holder.gate));
  if (open.length === 0) throw notFound(kind === 'clip' ? 'Preview clip not found' : 'Preview not found');
  const gated = open.every((holder) => holder.gate?.privacy === 'code');
  return `${gated ? 'private' : 'public'}, max-age=${MEDIA_MAX_AGE_SECONDS}`;
}

/**
 * How a clip or poster is served, or a 404: gone with a hidden, withdrawn or locked video (above), and
 * a password-protected video's only to a request carrying that video's token (`?token=`), uncached.
 */
export async function mediaCacheControl(
  deps: Pick<Deps, 'db' | 'config' | 'publicCache'>,
  req: Request,
  key: string,
  kind: 'clip' | 'poster',
): Promise<string> {
  const cacheControl = await checkMediaVisible(deps, req, key, kind);
  const { token } = tokenQuerySchema.parse(req.query);
  const access = await mediaAccess(deps, key, token);
  if (access === 'refused') throw notFound(kind === 'clip' ? 'Preview clip not found' : 'Preview not found');
  return access === 'unlocked' ? 'private, no-store' : cacheControl;
}
