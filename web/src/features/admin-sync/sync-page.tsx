import { AdminLayout } from '../admin-shell/admin-layout.tsx';
import { OrderLinkEvents } from './order-link-events.tsx';
import { useSyncRuns } from './queries.ts';
import { RowsToFix, SyncHistory } from './sync-history.tsx';
import { SyncPanel } from './sync-panel.tsx';

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
