import { useMutation, useQuery } from '@tanstack/react-query';
import type { OnlineAlertAnswer, OnlineAlertRequest, ProgrammeSearch } from '@app/shared/schemas';
import { api } from '../../lib/api.ts';

/**
 * "Find your dancer" for the library's search words (decision 032): asked in the browser only (the
 * answers name children and are never rendered on the server or kept by a proxy). The results and the
 * library's count read the same query. With the library's showcase filter (a competition's QR code
 * leads there), only that competition's programme is searched.
 */
export const useProgrammeSearch = (q: string, showcase: string | undefined, enabled: boolean) =>
  useQuery({
    queryKey: ['/api/programme/search', q, showcase ?? null],
    queryFn: () =>
      api.get<ProgrammeSearch>(
        `/api/programme/search?${new URLSearchParams({ q, ...(showcase && { showcase }) })}`,
      ),
    enabled,
    retry: false,
    staleTime: 60_000,
  });

// "Tell me when it is online" (decision 035). Nothing here is kept in the query cache: each is a write.

export const useRequestOnlineAlert = () =>
  useMutation({
    mutationFn: (request: OnlineAlertRequest) => api.post<OnlineAlertAnswer>('/api/online-alerts', request),
  });

export const useOnlineAlertAction = (id: string, action: 'confirm' | 'unsubscribe') =>
  useMutation({
    mutationFn: (token: string) =>
      api.post<OnlineAlertAnswer>(`/api/online-alerts/${encodeURIComponent(id)}/${action}`, { token }),
  });
