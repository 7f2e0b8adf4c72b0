import { Check, EyeOff, Mail, RotateCcw } from 'lucide-react';
import { Link } from 'wouter';
import { formatDateTime } from '@app/shared/format';
import { removalRequesterLabels } from '@app/shared/privacy';
import type { AdminRemovalRequest } from '@app/shared/schemas';
import { Badge } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { cardClass } from '../../components/ui/card.tsx';
import type { RemovalActions } from './queries.ts';
import { ageLabel, removalDue } from './removal-due.ts';
import { entriesPath } from '../admin-programmes/entries-path.ts';

const dueColour = { due: 'default', overdue: 'danger', closed: 'neutral' } as const;

/**
 * A dancer's request: her entries in the programme screen, where the owner removes the name (which
 * answers the request) or finds her routines' videos to hide; or "done" once handled another way.
 */
function DancerActions({
  request,
  setStatus,
}: {
  request: AdminRemovalRequest;
  setStatus: RemovalActions['setStatus'];
}) {
  if (!request.dancer) return <Badge variant="danger">Name removed from the programme</Badge>;
  const entries = entriesPath(request.dancer.showcaseId, request.dancer.name);
  return (
    <>
      <Link href={entries} className="text-sm text-spotlight-300 hover:underline">
        Open the dancer&apos;s entries: remove the name, or hide the routines
      </Link>
      {request.status === 'open' && (
        <Button
          size="sm"
          disabled={setStatus.isPending}
          onClick={() => setStatus.mutate({ id: request.id, status: 'done' })}
        >
          <Check className="size-4" aria-hidden /> Mark done
        </Button>
      )}
    </>
  );
}

/** One request: the video (or dancer), who asks and why, its age against the target, hide or undo, the sales, and its status. */
export function RemovalRequestCard({
  request,
  actions: { hide, restore, setStatus },
}: {
  request: AdminRemovalRequest;
  actions: RemovalActions;
}) {
  const due = removalDue(request.createdAt, request.status);
  return (
    <li className={`${cardClass} p-6`} aria-label={`Request about ${request.videoTitle}`}>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h2 className="font-sans text-lg font-semibold text-white">{request.videoTitle}</h2>
          <p className="mt-1 text-sm text-zinc-400">
            {removalRequesterLabels[request.requester]} ·{' '}
            <a
              href={`mailto:${request.email}`}
              className="inline-flex items-center gap-1 text-spotlight-300 hover:underline"
            >
              <Mail className="size-4" aria-hidden /> {request.email}
            </a>
          </p>
        </div>
        <div className="flex flex-col items-start gap-2 sm:items-end">
          <div className="flex gap-2">
            <Badge variant="neutral">{request.status}</Badge>
            <Badge variant={dueColour[due.state]}>{due.label}</Badge>
          </div>
          <time dateTime={request.createdAt} className="text-sm text-zinc-400">
            {ageLabel(due.ageDays)} · {formatDateTime(request.createdAt)}
          </time>
        </div>
      </div>
      <p className="mt-4 border-t border-white/10 pt-4 whitespace-pre-wrap text-zinc-200">{request.reason}</p>
      <div className="mt-4 flex flex-wrap items-center gap-3">
        {request.subjectKind === 'dancer' ? (
          <DancerActions request={request} setStatus={setStatus} />
        ) : request.videoId === null ? (
          <span className="text-sm text-zinc-500">The video has been deleted.</span>
        ) : request.videoWithdrawn ? (
          <>
            <Badge variant="danger">Hidden and withdrawn</Badge>
            <Button
              size="sm"
              variant="ghost"
              disabled={restore.isPending}
              onClick={() => restore.mutate(request)}
            >
              <RotateCcw className="size-4" aria-hidden /> Undo: give buyers the video back
            </Button>
          </>
        ) : (
          <Button size="sm" disabled={hide.isPending} onClick={() => hide.mutate(request)}>
            <EyeOff className="size-4" aria-hidden /> Hide this routine
          </Button>
        )}
        {request.videoId !== null && request.paidPurchases > 0 && (
          <Link
            href={`/admin/sales?videoId=${encodeURIComponent(request.videoId)}`}
            className="text-sm text-spotlight-300 hover:underline"
          >
            {request.paidPurchases} paid {request.paidPurchases === 1 ? 'sale' : 'sales'}: decide about
            refunds
          </Link>
        )}
        <Button
          size="sm"
          variant="ghost"
          disabled={setStatus.isPending}
          onClick={() =>
            setStatus.mutate({ id: request.id, status: request.status === 'open' ? 'declined' : 'open' })
          }
        >
          {request.status === 'open' ? 'Decline' : 'Reopen'}
        </Button>
      </div>
    </li>
  );
}
