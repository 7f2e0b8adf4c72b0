import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { AdminPortfolioPhoto, PortfolioCategory, UpdatePortfolioPhoto } from '../../lib/schemas.ts';
import { api } from '../../lib/api.ts';
import { useAdminMutation } from '../admin-shell/admin-mutation.ts';
import { useConfirmDelete } from '../admin-shell/confirm-delete.ts';
import { adminKeys, publicKeys } from '../admin-shell/query-keys.ts';

export function usePortfolioPhotos() {
  return useQuery({
    queryKey: adminKeys.portfolio,
    queryFn: () => api.get<AdminPortfolioPhoto[]>('/api/admin/portfolio'),
    // While pictures are being processed, their rows follow the worker.
    refetchInterval: (query) =>
      query.state.data?.some(
        (photo) => photo.image?.status === 'pending' || photo.nextImage?.status === 'pending',
      )
        ? 1_500
        : false,
  });
}

/** The public lists change with every write here (their cache is dropped on the server too). */
export function useRefreshPortfolio() {
  const client = useQueryClient();
  return () =>
    Promise.all([
      client.invalidateQueries({ queryKey: adminKeys.portfolio }),
      client.invalidateQueries({ predicate: publicKeys.isPortfolio }),
    ]);
}

/** A photo whose picture has been uploaded (its storage key), in the category chosen for it. */
export const addPhoto = (awsKey: string, originalName: string, category: PortfolioCategory) =>
  api.post('/api/admin/portfolio', { awsKey, originalName, category });

/** A photo's new picture; the old one stays on the site until the new one is processed. */
export const replacePhoto = (id: number, awsKey: string, originalName: string) =>
  api.post(`/api/admin/portfolio/${id}/replace`, { awsKey, originalName });

export function useUpdatePhoto(id: number, onSaved: (saved: AdminPortfolioPhoto) => Promise<unknown>) {
  return useAdminMutation({
    mutationFn: (change: UpdatePortfolioPhoto) =>
      api.patch<AdminPortfolioPhoto>(`/api/admin/portfolio/${id}`, change),
    success: 'Photo updated',
    onSuccess: onSaved,
    failure: 'Failed to update photo',
    fallback: 'Try again',
  });
}

export function useDeletePhoto(onDeleted: () => Promise<unknown>) {
  return useConfirmDelete({
    remove: ({ id }: AdminPortfolioPhoto) => api.delete(`/api/admin/portfolio/${id}`),
    onDeleted,
    success: 'Photo deleted',
    failure: 'Failed to delete photo',
    fallback: 'Try again',
  });
}
