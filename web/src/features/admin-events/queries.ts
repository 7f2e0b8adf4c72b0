import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { AdminEvent, AdminEventList } from '@app/shared/schemas';
import type { insertEventSchema } from '../../lib/schemas.ts';
import { api } from '../../lib/api.ts';
import { useAdminMutation } from '../admin-shell/admin-mutation.ts';
import { useConfirmDelete } from '../admin-shell/confirm-delete.ts';
import { adminKeys, publicKeys } from '../admin-shell/query-keys.ts';

export type EventOutput = z.output<typeof insertEventSchema>;
export type When = 'upcoming' | 'past';

export const PAGE_SIZE = 50;
const listUrl = (when: When, page: number, q = '') =>
  `/api/admin/events?when=${when}&page=${page}&pageSize=${PAGE_SIZE}${q ? `&q=${encodeURIComponent(q)}` : ''}`;
/** The events with this title, upcoming and past (what a write is checked against). */
const fetchEvents = (title: string) =>
  Promise.all(
    (['upcoming', 'past'] as const).map((when) =>
      api.get<AdminEventList>(listUrl(when, 1, title.slice(0, 200))),
    ),
  ).then((lists) => lists.flatMap((list) => list.events));

/** Every write is checked by reading the list back. */
async function verify(
  title: string,
  check: (events: AdminEvent[]) => boolean,
  messages: { unverifiable: string; failed: string },
) {
  const events = await fetchEvents(title).catch(() => {
    throw new Error(messages.unverifiable);
  });
  if (!check(events)) throw new Error(messages.failed);
}

export function useAdminEvents(when: When, page: number) {
  return useQuery({
    queryKey: adminKeys.events.list(when, page),
    queryFn: () => api.get<AdminEventList>(listUrl(when, page)),
  });
}

/** The owner's lists and the public one. */
export function useRefreshEvents() {
  const client = useQueryClient();
  return () =>
    Promise.all([
      client.invalidateQueries({ queryKey: adminKeys.events.all }),
      client.invalidateQueries({ queryKey: publicKeys.events }),
    ]);
}

/** Creates an event (no `id`) or changes one, then reads it back. */
export function useSaveEvent(onSaved: () => Promise<unknown>) {
  return useAdminMutation({
    mutationFn: async ({ input, id }: { input: EventOutput; id?: number }) => {
      if (id === undefined) {
        const created = await api.post<AdminEvent>('/api/admin/events', input);
        await verify(
          input.title,
          (list) => list.some((event) => event.id === created.id && event.title === input.title),
          {
            unverifiable: 'Event creation could not be verified',
            failed: 'Event was not properly saved - verification failed',
          },
        );
        return 'Event created and verified successfully';
      }
      await api.put<AdminEvent>(`/api/admin/events/${id}`, input);
      await verify(
        input.title,
        (list) =>
          list.some(
            (event) =>
              event.id === id &&
              event.title === input.title &&
              event.location === input.location &&
              event.jotformUrl === input.jotformUrl,
          ),
        {
          unverifiable: 'Event update could not be verified',
          failed: 'Event changes were not properly saved - verification failed',
        },
      );
      return 'Event updated and verified successfully';
    },
    success: (message) => message,
    onSuccess: onSaved,
    failure: ({ id }) => (id === undefined ? 'Failed to create event' : 'Failed to update event'),
  });
}

export function useDeleteEvent(onDeleted: () => Promise<unknown>) {
  return useConfirmDelete({
    remove: async ({ id, title }: AdminEvent) => {
      await api.delete(`/api/admin/events/${id}`);
      await verify(title, (list) => !list.some((event) => event.id === id), {
        unverifiable: 'Event deletion could not be verified',
        failed: 'Event was not properly deleted - still exists in database',
      });
    },
    onDeleted,
    success: 'Event deleted and verified successfully',
    failure: 'Failed to delete event',
  });
}
