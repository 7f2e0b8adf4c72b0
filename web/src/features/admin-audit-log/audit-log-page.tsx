import { AdminLayout } from '../admin-shell/admin-layout.tsx';
import { AuditTable } from './audit-table.tsx';
import { useAuditLog } from './queries.ts';

/** Every hide, unhide, delete and takedown of a video or showcase, newest first. */
export default function AdminAuditLogPage() {
  const entries = useAuditLog();
  return (
    <AdminLayout
      title="Audit log"
      intro="Who hid, published, deleted or took down a video or showcase, when, and why."
    >
      <AuditTable entries={entries} />
    </AdminLayout>
  );
}
