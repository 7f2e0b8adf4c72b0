import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { AdminTestimonial } from '@app/shared/schemas';
import { api } from '../../lib/api.ts';
import { useAdminMutation } from '../admin-shell/admin-mutation.ts';
import { useConfirmDelete } from '../admin-shell/confirm-delete.ts';
import { adminKeys, publicKeys } from '../admin-shell/query-keys.ts';

export function useAdminTestimonials() {
  return useQuery({
    queryKey: adminKeys.testimonials,
    queryFn: () => api.get<AdminTestimonial[]>('/api/admin/testimonials'),
  });
}

/** The owner's list and the home page's. */
export function useRefreshTestimonials() {
  const client = useQueryClient();
  return () =>
    Promise.all(
      [adminKeys.testimonials, publicKeys.testimonials].map((queryKey) =>
        client.invalidateQueries({ queryKey }),
      ),
    );
}

/** Puts the testimonials in this order (every id, first shown first). */
export function useReorderTestimonials(onDone: () => Promise<unknown>) {
  return useAdminMutation({
    mutationFn: (ids: number[]) => api.put<AdminTestimonial[]>('/api/admin/testimonials/order', { ids }),
    onSuccess: onDone,
    failure: 'Failed to reorder testimonials',
  });
}

/** Shows a testimonial on the home page, or hides it. */
export function useShowTestimonial(onDone: () => Promise<unknown>) {
  return useAdminMutation({
    mutationFn: ({ id, published }: { id: number; published: boolean }) =>
      api.put<AdminTestimonial>(`/api/admin/testimonials/${id}`, { published }),
    success: (row) => (row.published ? 'Shown on the home page' : 'Hidden from the home page'),
    onSuccess: onDone,
    failure: 'Failed to update testimonial',
  });
}

export function useDeleteTestimonial(onDeleted: () => Promise<unknown>) {
  return useConfirmDelete({
    remove: ({ id }: AdminTestimonial) => api.delete(`/api/admin/testimonials/${id}`),
    onDeleted,
    success: 'Testimonial deleted',
    failure: 'Failed to delete testimonial',
  });
}

export interface TestimonialFields {
  name: string;
  quote: string;
  event: string | null;
}

/** Adds a testimonial, or changes `testimonial` when given. */
export function useSaveTestimonial(
  testimonial: AdminTestimonial | undefined,
  onDone: () => Promise<unknown>,
) {
  return useAdminMutation({
    mutationFn: (body: TestimonialFields) =>
      testimonial
        ? api.put(`/api/admin/testimonials/${testimonial.id}`, body)
        : api.post('/api/admin/testimonials', body),
    success: testimonial ? 'Testimonial updated' : 'Testimonial added',
    onSuccess: onDone,
    failure: 'Failed to save testimonial',
  });
}
