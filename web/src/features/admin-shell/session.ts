import { useEffect } from 'react';
import { useMutation, useQuery, useQueryClient, type Query } from '@tanstack/react-query';
import { toast } from '../../components/ui/toast-store.ts';
import type { AdminSession } from '@app/shared/schemas';
import { api, isApiError } from '../../lib/api.ts';
import { adminKeys } from './query-keys.ts';

const sessionKey = adminKeys.session;

/** Cached admin answers, which belong to one session (not the session query: its observers must see the change). */
const isAdminData = (query: Query) =>
  String(query.queryKey[0]).startsWith('/api/admin/') && query.queryKey[0] !== sessionKey[0];

/** Whether the owner is logged in, asked of the server (never a browser flag). */
export function useAdminSession() {
  return useQuery({
    queryKey: sessionKey,
    queryFn: () => api.get<AdminSession>('/api/admin/session'),
    staleTime: 0,
  });
}

export function useLogin() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (password: string) => api.post<void>('/api/admin/login', { password }),
    onSuccess: () => {
      client.removeQueries({
        predicate: (query) =>
          String(query.queryKey[0]).startsWith('/api/admin/') && query.queryKey[0] !== sessionKey[0],
      });
      client.setQueryData(sessionKey, { authenticated: true });
    },
  });
}

export function useLogout() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<void>('/api/admin/logout'),
    onSettled: () => {
      // Admin data must not outlive the session in this tab.
      client.removeQueries({ predicate: isAdminData });
      client.setQueryData(sessionKey, { authenticated: false });
    },
  });
}

/**
 * A session that ends while a screen is open (expired, or logged out in another tab) shows the login
 * again at the first admin call that gets a 401, instead of leaving the screen showing errors.
 */
export function useSessionExpiry() {
  const client = useQueryClient();
  useEffect(() => {
    const expired = (error: unknown) => {
      if (!isApiError(error, 'unauthorized')) return;
      const session = client.getQueryData<{ authenticated: boolean }>(sessionKey);
      if (!session?.authenticated) return; // a wrong password at the login, not an ended session
      client.removeQueries({ predicate: isAdminData });
      client.setQueryData(sessionKey, { authenticated: false });
      toast({ title: 'Session ended', description: 'Please log in again.', variant: 'destructive' });
    };
    const stopQueries = client.getQueryCache().subscribe((event) => {
      if (event.type === 'updated' && event.action.type === 'error') expired(event.action.error);
    });
    const stopMutations = client.getMutationCache().subscribe((event) => {
      if (event.type === 'updated' && event.action.type === 'error') expired(event.action.error);
    });
    return () => {
      stopQueries();
      stopMutations();
    };
  }, [client]);
}
