import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { AdminRemovalRequest } from '@app/shared/schemas';
import { api } from '../../lib/api.ts';
import { useAdminMutation } from '../admin-shell/admin-mutation.ts';
import { adminKeys } from '../admin-shell/query-keys.ts';

const LIST = '/api/admin/removal-requests';

/** The takedown queue, asked again every minute. */
export function useRemovalRequests() {
  return useQuery({
    queryKey: adminKeys.removalRequests,
    queryFn: () => api.get<AdminRemovalRequest[]>(LIST),
    refetchInterval: 60_000,
  });
}

/** The queue's actions; each asks for the queue again once done. */
export function useRemovalActions() {
  const client = useQueryClient();
  const refresh = () => client.invalidateQueries({ queryKey: adminKeys.removalRequests });
  const hide = useAdminMutation({
    mutationFn: (request: AdminRemovalRequest) =>
      api.post(`/api/admin/videos/${encodeURIComponent(request.videoId!)}/withdraw`, {
        requestId: request.id,
      }),
    success: 'Routine hidden everywhere',
    failure: 'Failed to hide the routine',
    onSuccess: refresh,
  });
  const restore = useAdminMutation({
    mutationFn: (request: AdminRemovalRequest) =>
      api.post(`/api/admin/videos/${encodeURIComponent(request.videoId!)}/restore`, {}),
    success: 'Buyers have the video back; it stays hidden until you publish it',
    failure: 'Failed to restore the video',
    onSuccess: refresh,
  });
  const setStatus = useAdminMutation({
    mutationFn: ({ id, status }: { id: string; status: AdminRemovalRequest['status'] }) =>
      api.patch(`${LIST}/${encodeURIComponent(id)}`, { status }),
    failure: 'Failed to update the request',
    onSuccess: refresh,
  });
  return { hide, restore, setStatus };
}

export type RemovalActions = ReturnType<typeof useRemovalActions>;
