import { useState } from 'react';
import { useForm, Controller } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { ExternalLink, MapPin } from 'lucide-react';
import type { z } from 'zod';
import { formatEventDate } from '@app/shared/format';
import type { AdminEvent, AdminEventList } from '@app/shared/schemas';
import { insertEventSchema } from '../../lib/schemas.ts';
import { Button } from '../../components/ui/button.tsx';
import { Card, cardClass } from '../../components/ui/card.tsx';
import { ConfirmDialog } from '../../components/ui/confirm-dialog.tsx';
import { FieldError, Input, Label, Textarea } from '../../components/ui/input.tsx';
import { PageNav } from '../../components/ui/page-nav.tsx';
import { api } from '../../lib/api.ts';
import { AdminLayout } from '../../features/admin-shell/admin-layout.tsx';
import { useAdminMutation } from '../../features/admin-shell/admin-mutation.ts';
import { QueryState } from '../../features/admin-shell/query-state.tsx';
import { AddButton, EditDeleteButtons } from '../../features/admin-shell/row-actions.tsx';
import { EditDialog, useEditDialog } from '../../features/admin-shell/edit-dialog.tsx';
import { useConfirmDelete } from '../../features/admin-shell/confirm-delete.ts';
import { FormSubmit } from '../../features/admin-shell/form-submit.tsx';
import { ImagePicker, Thumbnail } from '../../features/admin-uploads/image-picker.tsx';

type EventInput = z.input<typeof insertEventSchema>;
type EventOutput = z.output<typeof insertEventSchema>;

const listKey = ['/api/admin/events'];
const PAGE_SIZE = 50;
type When = 'upcoming' | 'past';
const listUrl = (when: When, page: number, q = '') =>
  `/api/admin/events?when=${when}&page=${page}&pageSize=${PAGE_SIZE}${q ? `&q=${encodeURIComponent(q)}` : ''}`;
/** The events with this title, upcoming and past (what a write is checked against). */
const fetchEvents = (title: string) =>
  Promise.all(
    (['upcoming', 'past'] as const).map((when) =>
      api.get<AdminEventList>(listUrl(when, 1, title.slice(0, 200))),
    ),
  ).then((lists) => lists.flatMap((list) => list.events));
const blank: EventInput = {
  title: '',
  description: '',
  date: '',
  location: '',
  eventType: 'competition',
  jotformUrl: '',
  imageUrl: '',
};

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

export default function AdminEventsPage() {
  const client = useQueryClient();
  const [when, setWhen] = useState<When>('upcoming');
  const [page, setPage] = useState(1);
  const events = useQuery({
    queryKey: [...listKey, when, page],
    queryFn: () => api.get<AdminEventList>(listUrl(when, page)),
  });
  const pageCount = Math.max(1, Math.ceil((events.data?.total ?? 0) / PAGE_SIZE));

  const refresh = () =>
    Promise.all([
      client.invalidateQueries({ queryKey: listKey }),
      client.invalidateQueries({ queryKey: ['/api/events'] }),
    ]);
  const dialog = useEditDialog<AdminEvent>(refresh);
  const save = useAdminMutation({
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
    onSuccess: dialog.saved,
    failure: ({ id }) => (id === undefined ? 'Failed to create event' : 'Failed to update event'),
  });
  const deletion = useConfirmDelete({
    remove: async ({ id, title }: AdminEvent) => {
      await api.delete(`/api/admin/events/${id}`);
      await verify(title, (list) => !list.some((event) => event.id === id), {
        unverifiable: 'Event deletion could not be verified',
        failed: 'Event was not properly deleted - still exists in database',
      });
    },
    onDeleted: refresh,
    success: 'Event deleted and verified successfully',
    failure: 'Failed to delete event',
  });

  return (
    <AdminLayout
      title="Event Management"
      actions={<AddButton onClick={() => dialog.open('new')}>Create Event</AddButton>}
    >
      <div role="group" aria-label="Which events" className="mb-6 flex gap-2">
        {(['upcoming', 'past'] as const).map((option) => (
          <Button
            key={option}
            size="sm"
            variant={when === option ? 'primary' : 'secondary'}
            aria-pressed={when === option}
            onClick={() => {
              setWhen(option);
              setPage(1);
            }}
          >
            {option === 'upcoming' ? 'Upcoming' : 'Past'}
          </Button>
        ))}
      </div>
      <QueryState
        query={events}
        error="Failed to fetch events"
        loading="Loading events..."
        isEmpty={(list) => list.events.length === 0}
        empty={
          <Card className="p-10 text-center text-zinc-400">
            {when === 'upcoming' ? 'No upcoming events. Create the next one.' : 'No past events.'}
          </Card>
        }
      >
        {(list) => (
          <ul className="grid gap-6 md:grid-cols-2">
            {list.events.map((event) => (
              <li key={event.id} className={`${cardClass} flex flex-col gap-4 p-5 sm:flex-row`}>
                <Thumbnail
                  key={event.imageUrl}
                  src={event.imageUrl}
                  className="aspect-video w-full shrink-0 rounded-lg sm:aspect-auto sm:h-24 sm:w-32"
                />
                <div className="min-w-0 flex-1">
                  <div className="flex items-start justify-between gap-2">
                    <h2 className="flex items-center gap-2 font-sans text-lg font-semibold text-white">
                      {event.title}
                      {event.jotformUrl && (
                        <a
                          href={event.jotformUrl}
                          target="_blank"
                          rel="noopener noreferrer"
                          aria-label={`Booking form for ${event.title}`}
                        >
                          <ExternalLink className="size-4 text-spotlight-300" aria-hidden />
                        </a>
                      )}
                    </h2>
                    <div className="flex shrink-0 gap-1">
                      <EditDeleteButtons
                        name={event.title}
                        onEdit={() => dialog.open(event)}
                        onDelete={() => deletion.ask(event)}
                      />
                    </div>
                  </div>
                  <p className="text-sm text-spotlight-300">{formatEventDate(event.date)}</p>
                  <p className="flex items-center gap-1 text-sm text-zinc-400">
                    <MapPin className="size-3" aria-hidden /> {event.location}
                  </p>
                  <p className="mt-2 text-sm text-zinc-300">{event.description || 'No description'}</p>
                  <dl className="mt-2 grid grid-cols-[auto_minmax(0,1fr)] gap-x-2 text-xs text-zinc-400">
                    <dt>Type</dt>
                    <dd>{event.eventType}</dd>
                    <dt>Booking URL</dt>
                    <dd className="truncate">{event.jotformUrl ?? 'Not set'}</dd>
                  </dl>
                </div>
              </li>
            ))}
          </ul>
        )}
      </QueryState>
      <PageNav label="Event pages" page={page} pageCount={pageCount} onPage={setPage} />

      <EditDialog dialog={dialog} title={{ new: 'Create Event', edit: 'Edit Event' }} className="max-w-xl">
        {(event) => (
          <EventForm
            initial={event ? { ...event, jotformUrl: event.jotformUrl ?? '' } : blank}
            busy={save.isPending}
            onSubmit={(input) => save.mutate({ input, id: event?.id })}
          />
        )}
      </EditDialog>
      <ConfirmDialog message="Are you sure you want to delete this event?" {...deletion.dialog} />
    </AdminLayout>
  );
}

function EventForm({
  initial,
  busy,
  onSubmit,
}: {
  initial: EventInput;
  busy: boolean;
  onSubmit: (input: EventOutput) => void;
}) {
  const form = useForm<EventInput, unknown, EventOutput>({
    resolver: zodResolver(insertEventSchema),
    defaultValues: initial,
  });
  const { errors } = form.formState;
  return (
    <form noValidate onSubmit={form.handleSubmit(onSubmit)} className="space-y-4">
      <div>
        <Label htmlFor="event-title">Title</Label>
        <Input id="event-title" {...form.register('title')} aria-invalid={errors.title ? true : undefined} />
        <FieldError message={errors.title?.message} />
      </div>
      <div>
        <Label htmlFor="event-description">Description</Label>
        <Textarea id="event-description" rows={3} {...form.register('description')} />
        <FieldError message={errors.description?.message} />
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <div>
          <Label htmlFor="event-date">Date</Label>
          <Input id="event-date" type="date" {...form.register('date')} />
          <FieldError message={errors.date?.message} />
        </div>
        <div>
          <Label htmlFor="event-type">Event type</Label>
          <Input id="event-type" {...form.register('eventType')} />
          <FieldError message={errors.eventType?.message} />
        </div>
      </div>
      <div>
        <Label htmlFor="event-location">Location</Label>
        <Input id="event-location" {...form.register('location')} />
        <FieldError message={errors.location?.message} />
      </div>
      <div>
        <Label htmlFor="event-jotform">Booking form URL (optional)</Label>
        <Input
          id="event-jotform"
          placeholder="https://form.jotform.com/..."
          {...form.register('jotformUrl')}
        />
        <FieldError message={errors.jotformUrl?.message} />
      </div>
      <div>
        <Label htmlFor="event-image">Event image</Label>
        <Controller
          control={form.control}
          name="imageUrl"
          render={({ field }) => (
            <ImagePicker
              id="event-image"
              value={field.value}
              onChange={field.onChange}
              invalid={Boolean(errors.imageUrl)}
            />
          )}
        />
        <FieldError message={errors.imageUrl?.message} />
      </div>
      <FormSubmit pending={busy}>Save Event</FormSubmit>
    </form>
  );
}
