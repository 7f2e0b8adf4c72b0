import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { AdminContactList } from '@app/shared/schemas';
import { api } from '../../lib/api.ts';
import { adminKeys } from '../admin-shell/query-keys.ts';

export const PAGE_SIZE = 50;

/** One page of the enquiries (those matching `q` when given); it refreshes every 30 s, so new ones appear. */
export function useContacts(q: string, page: number) {
  const url = `/api/admin/contacts?page=${page}&pageSize=${PAGE_SIZE}${q ? `&q=${encodeURIComponent(q)}` : ''}`;
  return useQuery({
    queryKey: adminKeys.contacts.page(url),
    queryFn: () => api.get<AdminContactList>(url),
    refetchInterval: 30_000,
    placeholderData: keepPreviousData,
  });
}
