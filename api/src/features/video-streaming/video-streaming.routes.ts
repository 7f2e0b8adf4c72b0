import { text } from 'node:stream/consumers';
import { Router, type Request, type Response } from 'express';
import { videoIdSchema, type HlsToken } from '@app/shared/schemas';
import { RENDITION_NAME, STREAM_FILE, STREAM_PREFIX } from '@app/shared/storage';
import type { videos } from '@app/shared/db';
import type { Deps } from '../../deps.ts';
import { HttpError, notFound } from '../../http/errors.ts';
import { sendStoredObject } from '../../http/send-object.ts';
import { authorizeVideo, type AccessProof } from '../videos/access.ts';
import {
  issueGrant,
  issueSegmentToken,
  readGrant,
  readSegmentToken,
  SEGMENT_TOKEN_SECONDS,
  signPlaylist,
  type Grant,
} from './stream-tokens.ts';

type Video = typeof videos.$inferSelect & { shown?: boolean };
/** The videos feature's own lookup: a missing video, or a hidden one without a purchase, is refused. */
export type FindShownVideo = (req: Request, id: string, sessionId: string | undefined) => Promise<Video>;

const PLAYLIST_TYPE = 'application/vnd.apple.mpegurl';
const refused = () => new HttpError(403, 'Playback of this video is not allowed');

/** `streams/<digest>/` of a video whose adaptive stream is ready, else null. */
function readyStream(video: Video) {
  const hls = video.media?.hls;
  return hls?.state === 'ready' && hls.prefix && STREAM_PREFIX.test(hls.prefix) ? hls.prefix : null;
}

const grantIdFor = (video: Video, purchaseId: string | undefined) =>
  purchaseId ?? (video.passwordProtected ? 'password' : 'free');

/**
 * The master playlist's address for a buyer who has just been authorized (the stream route's answer),
 * or undefined when the video has no adaptive stream yet (the player uses the fast-start copy).
 */
export function hlsUrlFor(
  deps: Pick<Deps, 'config'>,
  video: Video,
  proof: AccessProof,
  purchaseId: string | undefined,
): string | undefined {
  if (!readyStream(video)) return undefined;
  const grant = issueGrant(
    deps.config.SESSION_SECRET,
    {
      videoId: video.id,
      grantId: grantIdFor(video, purchaseId),
      sessionId: proof.sessionId,
      verificationToken: proof.verificationToken,
    },
    Date.now(),
  );
  return `/api/hls/${encodeURIComponent(video.id)}/master.m3u8?grant=${encodeURIComponent(grant)}`;
}

/**
 * Adaptive playback with links that can be taken back (decision 031): playlists are checked against the
 * database on every request (purchase still paid, video still shown to this buyer: the same check as the
 * stream and download links); segments only by a one-minute HMAC token.
 */
export function videoStreamingRoutes(deps: Deps, findShownVideo: FindShownVideo): Router {
  const { config, storage } = deps;
  const router = Router();

  /** The grant re-checked: signature and expiry, then the same authorization as the stream link. */
  async function authorized(req: Request): Promise<{ grant: Grant; prefix: string }> {
    const videoId = videoIdSchema.safeParse(req.params.id);
    if (!videoId.success) throw refused();
    const grant = readGrant(config.SESSION_SECRET, req.query.grant, videoId.data, Date.now());
    if (!grant) throw refused();
    let video: Video;
    let purchaseId: string | undefined;
    try {
      video = await findShownVideo(req, grant.videoId, grant.sessionId);
      ({ purchaseId } = await authorizeVideo(deps, video, {
        sessionId: grant.sessionId,
        verificationToken: grant.verificationToken,
      }));
    } catch (error) {
      if (error instanceof HttpError) throw refused();
      throw error;
    }
    if (grantIdFor(video, purchaseId) !== grant.grantId) throw refused();
    const prefix = readyStream(video);
    if (!prefix) throw notFound('This video has no adaptive stream');
    return { grant, prefix };
  }

  async function storedPlaylist(key: string) {
    const object = await storage.get(key);
    if (!object) throw notFound('Playlist not found');
    return text(object.body);
  }

  const sendPlaylist = (res: Response, body: string) =>
    res.set({ 'Content-Type': PLAYLIST_TYPE, 'Cache-Control': 'no-store' }).send(body);

  router.get('/api/hls/:id/master.m3u8', async (req, res) => {
    const { prefix } = await authorized(req);
    const master = await storedPlaylist(`${prefix}master.m3u8`);
    sendPlaylist(res, signPlaylist(master, `grant=${encodeURIComponent(String(req.query.grant))}`));
  });

  // The player's refresh: a new grant and segment token while the grant still holds.
  router.get('/api/hls/:id/token', async (req, res) => {
    const { grant, prefix } = await authorized(req);
    const now = Date.now();
    const answer: HlsToken = {
      grant: issueGrant(config.SESSION_SECRET, grant, now),
      token: segmentToken(grant, prefix, now),
      expiresInSeconds: SEGMENT_TOKEN_SECONDS,
    };
    res.set('Cache-Control', 'no-store').json(answer);
  });

  const segmentToken = (grant: Grant, prefix: string, now: number) =>
    issueSegmentToken(
      config.SESSION_SECRET,
      { videoId: grant.videoId, grantId: grant.grantId, digest: prefix.slice('streams/'.length, -1) },
      now,
    );

  router.get('/api/hls/:id/:rendition/index.m3u8', async (req, res) => {
    const rendition = String(req.params.rendition);
    if (!RENDITION_NAME.test(rendition)) throw refused();
    const { grant, prefix } = await authorized(req);
    const playlist = await storedPlaylist(`${prefix}${rendition}/index.m3u8`);
    const token = segmentToken(grant, prefix, Date.now());
    sendPlaylist(res, signPlaylist(playlist, `t=${encodeURIComponent(token)}`));
  });

  // Segments: the token's HMAC and expiry only, no database query; only files of the token's own folder.
  router.get('/api/hls/:id/:rendition/:file', async (req, res) => {
    const rendition = String(req.params.rendition);
    const file = String(req.params.file);
    if (!RENDITION_NAME.test(rendition) || !STREAM_FILE.test(file) || file === 'index.m3u8') throw refused();
    const segment = readSegmentToken(config.SESSION_SECRET, req.query.t, String(req.params.id), Date.now());
    if (!segment) throw refused();
    await sendStoredObject(
      req,
      res,
      storage,
      `streams/${segment.digest}/${rendition}/${file}`,
      { 'Cache-Control': 'private, max-age=60' },
      'Segment not found',
      { linkSeconds: SEGMENT_TOKEN_SECONDS },
    );
  });

  return router;
}
