import { keepPreviousData, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AdminPurchaseList, AdminVideoList } from '@app/shared/schemas';
import { toast } from '../../components/ui/toast-store.ts';
import { api } from '../../lib/api.ts';
import { useAdminMutation } from '../admin-shell/admin-mutation.ts';
import { adminKeys } from '../admin-shell/query-keys.ts';
import { useAdminShowcases } from '../admin-shell/competition-picker.tsx';

/** Paid sales over each period (a query string of `from`/`to`, '' for all time): one page of one, for its totals. */
export function usePaidTotals(periods: string[]) {
  return useQueries({
    queries: periods.map((period) => ({
      queryKey: adminKeys.purchases.totals(period),
      queryFn: () => api.get<AdminPurchaseList>(`/api/admin/purchases?status=paid&pageSize=1&${period}`),
    })),
  });
}

export function useCheckoutReminders() {
  return useQuery({
    queryKey: adminKeys.checkoutReminders,
    queryFn: () =>
      api.get<{ remindersSent: number; recovered: number; recoveredCents: number }>(
        '/api/admin/checkout-reminders',
      ),
  });
}

/** The newest 200 videos, which the Video filter offers; "Search buyer or video" finds any other by its title. */
export function useNewestVideos() {
  return useQuery({
    queryKey: adminKeys.videos.newest(),
    queryFn: () => api.get<AdminVideoList>('/api/admin/videos?pageSize=200'),
  });
}

/** One page of the purchases the filters (a query string) match. */
export function usePurchases(filters: URLSearchParams, page: number) {
  return useQuery({
    queryKey: adminKeys.purchases.list(filters.toString(), page),
    queryFn: () => api.get<AdminPurchaseList>(`/api/admin/purchases?${filters}&page=${page}`),
  });
}

/** Refreshes every purchase list and total (after a refund or an offline payment). */
export function useRefreshPurchases() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: adminKeys.purchases.all });
}

export function useResendReceipt() {
  return useAdminMutation({
    mutationFn: (id: string) => api.post(`/api/admin/purchases/${id}/resend`),
    onSuccess: () =>
      toast({
        title: 'Receipt queued',
        description: 'The buyer will get their link again shortly.',
        variant: 'success',
      }),
    failure: 'Could not resend',
  });
}

/** Gives back part or all of an offline payment; the buyer is e-mailed a credit note. */
export function useRefund(purchaseId: string, onDone: () => void) {
  return useAdminMutation({
    mutationFn: (refund: { amountCents: number; reason?: string }) =>
      api.post(`/api/admin/purchases/${purchaseId}/refund`, refund),
    onSuccess: () => {
      toast({
        title: 'Refund recorded',
        description: 'The buyer is being e-mailed a credit note.',
        variant: 'success',
      });
      onDone();
    },
    failure: 'Could not record the refund',
  });
}

export interface OfflinePayment {
  videoIds: string[];
  showcaseIds: string[];
  buyerName: string;
  buyerEmail: string;
  amountCents: number;
}

export function useRecordOfflinePayment(onDone: () => void) {
  return useAdminMutation({
    mutationFn: (payment: OfflinePayment) => api.post('/api/admin/purchases/offline', payment),
    onSuccess: () => {
      toast({
        title: 'Payment recorded',
        description: 'The sale is being recorded and the receipt sent.',
        variant: 'success',
      });
      onDone();
    },
    failure: 'Could not record the payment',
  });
}

/** The 50 videos that best match a search (the newest 50 without one): the library may hold tens of thousands. */
export function useVideoSearch(search: string) {
  const url = `/api/admin/videos?pageSize=50&sort=${search ? 'relevance' : 'newest'}&q=${encodeURIComponent(search)}`;
  return useQuery({
    queryKey: adminKeys.videos.search(url),
    queryFn: () => api.get<AdminVideoList>(url),
    placeholderData: keepPreviousData,
  });
}

/** The showcases the owner gave a bundle price. */
export function useBundles() {
  const showcases = useAdminShowcases();
  return (showcases.data ?? []).filter((showcase) => showcase.bundlePriceCents !== null);
}
