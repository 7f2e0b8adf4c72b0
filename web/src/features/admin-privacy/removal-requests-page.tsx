import { Link } from 'wouter';
import { REMOVAL_TARGET_DAYS } from '@app/shared/privacy';
import { Badge } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { EmptyCard } from '../../components/ui/card.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { AdminLayout } from '../admin-shell/admin-layout.tsx';
import { QueryState } from '../admin-shell/query-state.tsx';
import { useRemovalActions, useRemovalRequests } from './queries.ts';
import { RemovalRequestCard } from './removal-request-card.tsx';

/** The owner's takedown queue: each request's age against the 7-day target, and one click to hide. */
export default function AdminRemovalRequestsPage() {
  const requests = useRemovalRequests();
  const actions = useRemovalActions();
  const open = requests.data?.filter((request) => request.status === 'open').length ?? 0;
  return (
    <AdminLayout
      title="Removal requests"
      intro={
        <>
          Parents, dancers and studios ask from a video&apos;s page. Answer each within {REMOVAL_TARGET_DAYS}{' '}
          days. <strong className="text-zinc-200">Hide this routine</strong> takes it off every public page,
          search, the sitemap, its poster and clip within a minute; its buyers then see “This video has been
          withdrawn” instead of a player. Refunds are your decision, on the sale.
        </>
      }
      actions={
        <>
          {requests.data && <Badge variant={open > 0 ? 'danger' : 'neutral'}>{open} open</Badge>}
          <Button asChild size="sm" variant="secondary">
            <Link href="/admin/audit-log">Audit log</Link>
          </Button>
        </>
      }
    >
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
            {list.map((request) => (
              <RemovalRequestCard key={request.id} request={request} actions={actions} />
            ))}
          </ul>
        )}
      </QueryState>
    </AdminLayout>
  );
}
