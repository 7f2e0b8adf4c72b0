import { QueryClient } from '@tanstack/react-query';

// No automatic refetching, data never stale, no retries. Screens that need fresher
// data (polling, 5-minute portfolio cache) say so on their own queries.
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { staleTime: Infinity, refetchOnWindowFocus: false, refetchInterval: false, retry: false },
      mutations: { retry: false },
    },
  });
}
