import { useQuery, useQueryClient } from '@tanstack/react-query';
import { EyeOff, Mail, RotateCcw } from 'lucide-react';
import { Link } from 'wouter';
import { formatDateTime } from '@app/shared/format';
import { removalRequesterLabels, REMOVAL_TARGET_DAYS } from '@app/shared/privacy';
import type { AdminRemovalRequest } from '@app/shared/schemas';
import { Badge } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { cardClass, EmptyCard } from '../../components/ui/card.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { api } from '../../lib/api.ts';
import { AdminLayout } from '../../features/admin-shell/admin-layout.tsx';
import { useAdminMutation } from '../../features/admin-shell/admin-mutation.ts';
import { QueryState } from '../../features/admin-shell/query-state.tsx';
import { ageLabel, removalDue } from '../../features/admin-privacy/removal-due.ts';

const LIST = '/api/admin/removal-requests';
const dueColour = { due: 'default', overdue: 'danger', closed: 'neutral' } as const;

/** The owner's takedown queue: each request's age against the 7-day target, and one click to hide. */
export default function AdminRemovalRequestsPage() {
  const client = useQueryClient();
  const requests = useQuery({
    queryKey: [LIST],
    queryFn: () => api.get<AdminRemovalRequest[]>(LIST),
    refetchInterval: 60_000,
  });
  const refresh = () => client.invalidateQueries({ queryKey: [LIST] });
  const hide = useAdminMutation({
    mutationFn: (request: AdminRemovalRequest) =>
      api.post(`/api/admin/videos/${encodeURIComponent(request.videoId!)}/withdraw`, {
        requestId: request.id,
      }),
    success: 'Routine hidden everywhere',
    failure: 'Failed to hide the routine',
    onSuccess: refresh,
  });
  const restore = useAdminMutation({
    mutationFn: (request: AdminRemovalRequest) =>
      api.post(`/api/admin/videos/${encodeURIComponent(request.videoId!)}/restore`, {}),
    success: 'Buyers have the video back; it stays hidden until you publish it',
    failure: 'Failed to restore the video',
    onSuccess: refresh,
  });
  const setStatus = useAdminMutation({
    mutationFn: ({ id, status }: { id: string; status: AdminRemovalRequest['status'] }) =>
      api.patch(`${LIST}/${encodeURIComponent(id)}`, { status }),
    failure: 'Failed to update the request',
    onSuccess: refresh,
  });
  const open = requests.data?.filter((request) => request.status === 'open').length ?? 0;
  return (
    <AdminLayout
      title="Removal requests"
      actions={
        <>
          {requests.data && <Badge variant={open > 0 ? 'danger' : 'neutral'}>{open} open</Badge>}
          <Button asChild size="sm" variant="secondary">
            <Link href="/admin/audit-log">Audit log</Link>
          </Button>
        </>
      }
    >
      <p className="mb-6 max-w-3xl text-sm text-zinc-400">
        Parents, dancers and studios ask from a video&apos;s page. Answer each within {REMOVAL_TARGET_DAYS}{' '}
        days. <strong className="text-zinc-200">Hide this routine</strong> takes it off every public page,
        search, the sitemap, its poster and clip within a minute; its buyers then see “This video has been
        withdrawn” instead of a player. Refunds are your decision, on the sale.
      </p>
      <QueryState
        query={requests}
        error="Error loading removal requests"
        fallback="Failed to fetch removal requests"
        loading={
          <div className="space-y-4">
            {Array.from({ length: 2 }, (_, index) => (
              <Skeleton key={index} className="h-40 rounded-2xl" />
            ))}
          </div>
        }
        isEmpty={(list) => list.length === 0}
        empty={
          <EmptyCard title="No removal requests">
            <p className="mt-2 text-zinc-400">
              Requests from the “Request removal” link on video pages appear here.
            </p>
          </EmptyCard>
        }
      >
        {(list) => (
          <ul className="space-y-4">
            {list.map((request) => {
              const due = removalDue(request.createdAt, request.status);
              return (
                <li
                  key={request.id}
                  className={`${cardClass} p-6`}
                  aria-label={`Request about ${request.videoTitle}`}
                >
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
                  <p className="mt-4 border-t border-white/10 pt-4 whitespace-pre-wrap text-zinc-200">
                    {request.reason}
                  </p>
                  <div className="mt-4 flex flex-wrap items-center gap-3">
                    {request.videoId === null ? (
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
                        {request.paidPurchases} paid {request.paidPurchases === 1 ? 'sale' : 'sales'}: decide
                        about refunds
                      </Link>
                    )}
                    {request.status === 'open' ? (
                      <Button
                        size="sm"
                        variant="ghost"
                        disabled={setStatus.isPending}
                        onClick={() => setStatus.mutate({ id: request.id, status: 'declined' })}
                      >
                        Decline
                      </Button>
                    ) : (
                      <Button
                        size="sm"
                        variant="ghost"
                        disabled={setStatus.isPending}
                        onClick={() => setStatus.mutate({ id: request.id, status: 'open' })}
                      >
                        Reopen
                      </Button>
                    )}
                  </div>
                </li>
              );
            })}
          </ul>
        )}
      </QueryState>
    </AdminLayout>
  );
}
