import { useState } from 'react';
import type { AdminEvent } from '@app/shared/schemas';
import { Button } from '../../components/ui/button.tsx';
import { ConfirmDialog } from '../../components/ui/confirm-dialog.tsx';
import { PageNav } from '../../components/ui/page-nav.tsx';
import { AdminLayout } from '../admin-shell/admin-layout.tsx';
import { EditDialog, useEditDialog } from '../admin-shell/edit-dialog.tsx';
import { AddButton } from '../admin-shell/row-actions.tsx';
import { blankEvent, EventForm } from './event-form.tsx';
import { EventList } from './event-list.tsx';
import {
  PAGE_SIZE,
  useAdminEvents,
  useDeleteEvent,
  useRefreshEvents,
  useSaveEvent,
  type When,
} from './queries.ts';

export default function AdminEventsPage() {
  const [when, setWhen] = useState<When>('upcoming');
  const [page, setPage] = useState(1);
  const events = useAdminEvents(when, page);
  const pageCount = Math.max(1, Math.ceil((events.data?.total ?? 0) / PAGE_SIZE));
  const refresh = useRefreshEvents();
  const dialog = useEditDialog<AdminEvent>(refresh);
  const save = useSaveEvent(dialog.saved);
  const deletion = useDeleteEvent(refresh);

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
      <EventList events={events} when={when} onEdit={dialog.open} onDelete={deletion.ask} />
      <PageNav label="Event pages" page={page} pageCount={pageCount} onPage={setPage} />

      <EditDialog dialog={dialog} title={{ new: 'Create Event', edit: 'Edit Event' }} className="max-w-xl">
        {(event) => (
          <EventForm
            initial={event ? { ...event, jotformUrl: event.jotformUrl ?? '' } : blankEvent}
            busy={save.isPending}
            onSubmit={(input) => save.mutate({ input, id: event?.id })}
          />
        )}
      </EditDialog>
      <ConfirmDialog message="Are you sure you want to delete this event?" {...deletion.dialog} />
    </AdminLayout>
  );
}
