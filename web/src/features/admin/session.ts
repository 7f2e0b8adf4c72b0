import { useMutation, useQuery, useQueryClient, type Query } from '@tanstack/react-query';
import { api } from '../../lib/api.ts';

const sessionKey = ['/api/admin/session'];

/** Cached admin answers, which belong to one session (not the session query: its observers must see the change). */
const isAdminData = (query: Query) =>
  String(query.queryKey[0]).startsWith('/api/admin/') && query.queryKey[0] !== sessionKey[0];

/** Whether the owner is logged in, asked of the server (DESIGN.md section 6: never a browser flag). */
export function useAdminSession() {
  return useQuery({
    queryKey: sessionKey,
    queryFn: () => api.get<{ authenticated: boolean }>('/api/admin/session'),
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
