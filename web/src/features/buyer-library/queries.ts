import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { BuyerLibrary, BuyerLinkResponse, BuyerSignIn } from '@app/shared/schemas';
import { api } from '../../lib/api.ts';

const LIBRARY_KEY = ['/api/my-videos'] as const;

/** The signed-in buyer's videos; null when this browser has no buyer session (401). */
export const useBuyerLibrary = () =>
  useQuery({
    queryKey: LIBRARY_KEY,
    queryFn: () => api.getOrNull<BuyerLibrary>('/api/my-videos'),
    staleTime: 30_000,
  });

export const useRequestLink = () =>
  useMutation({
    mutationFn: (email: string) => api.post<BuyerLinkResponse>('/api/my-videos/link', { email }),
  });

export function useSignIn() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (link: BuyerSignIn) => api.post<{ email: string }>('/api/my-videos/sign-in', link),
    // The library is fetched afresh for the session just opened.
    onSuccess: () => queryClient.removeQueries({ queryKey: LIBRARY_KEY }),
  });
}

export function useSignOut() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<void>('/api/my-videos/logout'),
    onSuccess: () => queryClient.setQueryData(LIBRARY_KEY, null),
  });
}
