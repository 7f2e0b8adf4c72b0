import { and, desc, eq, sql } from 'drizzle-orm';
import type { Response } from 'express';
import { auditLog, removalRequests, showcases, videos, type Db } from '@app/shared/db';
import {
  type AdminRemovalRequest,
  type AuditEntry,
  type RemovalRequestInput,
  WRONG_ACCESS_CODE,
} from '@app/shared/schemas';
import type { Deps } from '../../deps.ts';
import { HttpError, notFound } from '../../http/errors.ts';
import type { BoundGuard } from '../../http/guesses.ts';
import { accessCodeMatches, grantShowcaseAccess, type ShowcaseGate } from './showcase-access.ts';
import { paidPurchaseIdsOfVideo } from '@app/shared/sales';

// Private showcases, takedowns and the audit log (docs/decisions/030).

/** The columns of a showcase's gate (ShowcaseGate), for a select from showcases or joined to them. */
export const showcaseGateColumns = {
  showcaseId: showcases.id,
  privacy: showcases.privacy,
  accessCodeEncrypted: showcases.accessCodeEncrypted,
};

/** A showcase's privacy and stored code, for the access check. */
export async function showcaseGate(db: Db, id: string): Promise<ShowcaseGate> {
  const [row] = await db.select(showcaseGateColumns).from(showcases).where(eq(showcases.id, id));
  return row ?? { showcaseId: id, privacy: 'code', accessCodeEncrypted: null };
}

/**
 * A typed access code, for the showcase of `slug`, or of the video, dancer or studio named. A wrong code, a showcase that does
 * not exist, is hidden or has no code all get the same 401, so guessing tells nothing.
 */
export async function openShowcase(
  deps: Pick<Deps, 'db' | 'config'>,
  res: Response,
  input: { slug?: string; videoId?: string; dancerId?: string; studioId?: string; code: string },
  guesses?: BoundGuard,
): Promise<{ slug: string }> {
  // Wrong codes from many addresses slow every address that has typed one wrong (GuessGuard).
  await guesses?.check();
  const where = input.slug
    ? eq(showcases.slug, input.slug)
    : input.videoId
      ? sql`${showcases.id} = (select showcase_id from videos where id = ${input.videoId})`
      : input.dancerId
        ? sql`${showcases.id} = (select showcase_id from programme_dancers where id = ${input.dancerId})`
        : input.studioId
          ? sql`${showcases.id} = (select showcase_id from programme_studios where id = ${input.studioId})`
          : undefined;
  const [showcase] = where
    ? await deps.db
        .select({
          id: showcases.id,
          slug: showcases.slug,
          accessCodeEncrypted: showcases.accessCodeEncrypted,
        })
        .from(showcases)
        .where(and(where, eq(showcases.published, true), eq(showcases.privacy, 'code')))
    : [];
  const stored = showcase?.accessCodeEncrypted ?? null;
  // Compared even when nothing was found (against nothing), so both answers take about as long.
  const matches = accessCodeMatches(deps, stored, input.code);
  if (!showcase || !stored || !matches) {
    await guesses?.failed();
    throw new HttpError(401, WRONG_ACCESS_CODE);
  }
  grantShowcaseAccess(deps, res, { id: showcase.id, accessCodeEncrypted: stored });
  return { slug: showcase.slug };
}

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/** Writes one audit entry (the owner is the only actor the admin has). */
export async function recordAudit(
  db: Db | Tx,
  entry: {
    action: AuditEntry['action'];
    subjectKind: AuditEntry['subjectKind'];
    subjectId: string;
    subjectName: string;
    reason?: string | null;
    actor?: string;
  },
): Promise<void> {
  await db.insert(auditLog).values({ actor: 'owner', reason: null, ...entry });
}

/** GET /api/admin/audit-log: newest first. */
export async function auditEntries(db: Db, limit = 500): Promise<AuditEntry[]> {
  const rows = await db
    .select()
    .from(auditLog)
    .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
    .limit(limit);
  return rows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() }));
}

/** What a removal request is about: a video, or a dancer of a programme (her name and routines). */
export type RemovalSubject =
  | { kind: 'video'; id: string; title: string }
  | { kind: 'dancer'; id: string; name: string; showcaseName: string };

/** A visitor's removal request: saved, then one e-mail per minute tells the owner of every new one. */
export async function requestRemoval(
  deps: Pick<Deps, 'db' | 'producer' | 'logger'>,
  subject: RemovalSubject,
  input: RemovalRequestInput,
): Promise<void> {
  const [saved] = await deps.db
    .insert(removalRequests)
    .values({
      ...input,
      subjectKind: subject.kind,
      ...(subject.kind === 'video'
        ? { videoId: subject.id, videoTitle: subject.title }
        : { dancerId: subject.id, videoTitle: `${subject.name} (dancer), ${subject.showcaseName}` }),
    })
    .returning({ id: removalRequests.id });
  // Saved is what matters; if Redis is down the worker's sweep sends the e-mail later.
  await deps.producer.enqueue('removal-request-notification', {}).catch((error: unknown) => {
    deps.logger.warn({ err: error, requestId: saved!.id }, 'removal-request-notification not queued');
  });
}

/** GET /api/admin/removal-requests: newest first, with the video's state and how many bought it. */
export async function adminRemovalRequests(db: Db): Promise<AdminRemovalRequest[]> {
  const rows = await db
    .select({
      request: removalRequests,
      withdrawnAt: videos.withdrawnAt,
      videoExists: sql<boolean>`${videos.id} is not null`,
      paidPurchases: sql<number>`(select count(distinct p.id)::int from purchase_items i join purchases p on p.id = i.purchase_id
        where i.video_id = ${removalRequests.videoId} and p.status = 'paid')`,
      dancer: sql<AdminRemovalRequest['dancer']>`(select jsonb_build_object('id', d.id, 'name', d.name,
        'showcaseId', d.showcase_id) from programme_dancers d where d.id = ${removalRequests.dancerId})`,
    })
    .from(removalRequests)
    .leftJoin(videos, eq(videos.id, removalRequests.videoId))
    .orderBy(desc(removalRequests.createdAt))
    .limit(1_000);
  return rows.map(({ request, withdrawnAt, videoExists, paidPurchases, dancer }) => ({
    id: request.id,
    subjectKind: request.subjectKind,
    videoId: request.videoId,
    videoTitle: request.videoTitle,
    dancer: dancer ?? null,
    videoWithdrawn: videoExists ? withdrawnAt !== null : null,
    paidPurchases,
    requester: request.requester,
    reason: request.reason,
    email: request.email,
    status: request.status,
    createdAt: request.createdAt.toISOString(),
    resolvedAt: request.resolvedAt?.toISOString() ?? null,
  }));
}

export async function setRemovalStatus(db: Db, id: string, status: AdminRemovalRequest['status']) {
  const [row] = await db
    .update(removalRequests)
    .set({ status, resolvedAt: status === 'open' ? null : new Date() })
    .where(eq(removalRequests.id, id))
    .returning({ id: removalRequests.id, status: removalRequests.status });
  if (!row) throw notFound('Removal request not found');
  return row;
}

/**
 * "Hide this routine": the video leaves every public surface (it is hidden) and its buyers' players
 * and downloads give way to "withdrawn". The request it answers (if any) is marked done. The caller
 * marks the public lists changed before answering, so every replica forgets it at once.
 */
export async function withdrawVideo(
  db: Db,
  id: string,
  input: { reason?: string; requestId?: string },
): Promise<{ id: string; withdrawn: true }> {
  return db.transaction(async (tx) => {
    const [video] = await tx
      .update(videos)
      .set({ published: false, withdrawnAt: sql`coalesce(${videos.withdrawnAt}, now())` })
      .where(eq(videos.id, id))
      .returning({ id: videos.id, title: videos.title });
    if (!video) throw notFound('Video not found');
    let reason = input.reason || null;
    if (input.requestId) {
      const [request] = await tx
        .update(removalRequests)
        .set({ status: 'done', resolvedAt: new Date() })
        .where(and(eq(removalRequests.id, input.requestId), eq(removalRequests.videoId, id)))
        .returning({ reason: removalRequests.reason, requester: removalRequests.requester });
      if (!request) throw notFound('Removal request not found');
      reason ??= `Removal request (${request.requester}): ${request.reason}`;
    }
    await recordAudit(tx, {
      action: 'takedown',
      subjectKind: 'video',
      subjectId: id,
      subjectName: video.title,
      reason,
    });
    return { id, withdrawn: true as const };
  });
}

/** Undoes a takedown: buyers get their video back; it stays hidden until the owner publishes it. */
export async function restoreVideo(
  db: Db,
  id: string,
  reason?: string,
): Promise<{ id: string; withdrawn: false }> {
  return db.transaction(async (tx) => {
    const [video] = await tx
      .update(videos)
      .set({ withdrawnAt: null })
      .where(and(eq(videos.id, id), sql`${videos.withdrawnAt} is not null`))
      .returning({ id: videos.id, title: videos.title });
    if (!video) {
      const [exists] = await tx.select({ id: videos.id }).from(videos).where(eq(videos.id, id));
      throw exists ? new HttpError(409, 'This video is not withdrawn') : notFound('Video not found');
    }
    await recordAudit(tx, {
      action: 'restore',
      subjectKind: 'video',
      subjectId: id,
      subjectName: video.title,
      reason: reason || null,
    });
    return { id, withdrawn: false as const };
  });
}

/** The paid purchases holding a video, for the owner's refund decision (links to the sales screen). */
export const paidPurchaseIds = paidPurchaseIdsOfVideo;
