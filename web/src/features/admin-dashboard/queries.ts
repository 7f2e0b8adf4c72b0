import { useQuery } from '@tanstack/react-query';
import type { SalesSummary } from '@app/shared/schemas';
import { api } from '../../lib/api.ts';
import { adminKeys } from '../admin-shell/query-keys.ts';

/** Videos sold and revenue, over 30 days and all time. */
export function useSalesSummary() {
  return useQuery({
    queryKey: adminKeys.salesSummary,
    queryFn: () => api.get<SalesSummary>('/api/admin/sales-summary'),
  });
}
