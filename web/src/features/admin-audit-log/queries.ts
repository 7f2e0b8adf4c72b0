import { useQuery } from '@tanstack/react-query';
import type { AuditEntry } from '@app/shared/schemas';
import { api } from '../../lib/api.ts';
import { adminKeys } from '../admin-shell/query-keys.ts';

/** Every hide, unhide, delete and takedown of a video or showcase, newest first. */
export function useAuditLog() {
  return useQuery({
    queryKey: adminKeys.auditLog,
    queryFn: () => api.get<AuditEntry[]>('/api/admin/audit-log'),
  });
}
