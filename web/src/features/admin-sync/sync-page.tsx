import { AdminLayout } from '../../features/admin-shell/admin-layout.tsx';
import { OrderLinkEvents } from '../../features/admin-sync/order-link-events.tsx';
import { useSyncRuns } from '../../features/admin-sync/queries.ts';
import { RowsToFix, SyncHistory } from '../../features/admin-sync/sync-history.tsx';
import { SyncPanel } from '../../features/admin-sync/sync-panel.tsx';

export default function AdminSyncPage() {
  const runs = useSyncRuns();
  return (
    <AdminLayout title="Order Links Sync">
      <div className="grid gap-6 lg:grid-cols-[2fr_3fr]">
        <SyncPanel configured={runs.data?.configured} />
        <OrderLinkEvents />
      </div>
      <RowsToFix latest={runs.data?.runs[0]} />
      <SyncHistory runs={runs} />
    </AdminLayout>
  );
}
