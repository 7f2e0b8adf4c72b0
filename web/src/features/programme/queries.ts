import { useMutation } from '@tanstack/react-query';
import type { OnlineAlertAnswer, OnlineAlertRequest } from '@app/shared/schemas';
import { api } from '../../lib/api.ts';

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
