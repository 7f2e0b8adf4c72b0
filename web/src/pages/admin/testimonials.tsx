import { useState, type FormEvent } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { ArrowDown, ArrowUp, Eye, EyeOff } from 'lucide-react';
import type { AdminTestimonial } from '@app/shared/schemas';
import { Badge } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { cardClass, EmptyCard } from '../../components/ui/card.tsx';
import { ConfirmDialog } from '../../components/ui/confirm-dialog.tsx';
import { InputField, TextareaField, textBinder } from '../../components/ui/input.tsx';
import { api } from '../../lib/api.ts';
import { AdminLayout } from '../../features/admin-shell/admin-layout.tsx';
import { useAdminMutation } from '../../features/admin-shell/admin-mutation.ts';
import { QueryState } from '../../features/admin-shell/query-state.tsx';
import { AddButton, EditDeleteButtons } from '../../features/admin-shell/row-actions.tsx';
import { EditDialog, useEditDialog } from '../../features/admin-shell/edit-dialog.tsx';
import { useConfirmDelete } from '../../features/admin-shell/confirm-delete.ts';
import { FormSubmit } from '../../features/admin-shell/form-submit.tsx';

const testimonialsKey = ['/api/admin/testimonials'];

/** The quotes on the home page: add, edit, reorder, hide and remove them (the section hides when none show). */
export default function AdminTestimonialsPage() {
  const client = useQueryClient();
  const list = useQuery({
    queryKey: testimonialsKey,
    queryFn: () => api.get<AdminTestimonial[]>('/api/admin/testimonials'),
  });
  const refresh = () =>
    Promise.all(
      [testimonialsKey, ['/api/testimonials']].map((queryKey) => client.invalidateQueries({ queryKey })),
    );
  const dialog = useEditDialog<AdminTestimonial>(refresh);

  const reorder = useAdminMutation({
    mutationFn: (ids: number[]) => api.put<AdminTestimonial[]>('/api/admin/testimonials/order', { ids }),
    onSuccess: refresh,
    failure: 'Failed to reorder testimonials',
  });
  const setShown = useAdminMutation({
    mutationFn: ({ id, published }: { id: number; published: boolean }) =>
      api.put<AdminTestimonial>(`/api/admin/testimonials/${id}`, { published }),
    success: (row) => (row.published ? 'Shown on the home page' : 'Hidden from the home page'),
    onSuccess: refresh,
    failure: 'Failed to update testimonial',
  });
  const deletion = useConfirmDelete({
    remove: ({ id }: AdminTestimonial) => api.delete(`/api/admin/testimonials/${id}`),
    onDeleted: refresh,
    success: 'Testimonial deleted',
    failure: 'Failed to delete testimonial',
  });

  const move = (index: number, by: -1 | 1) => {
    const ids = (list.data ?? []).map((row) => row.id);
    const [moved] = ids.splice(index, 1);
    ids.splice(index + by, 0, moved!);
    reorder.mutate(ids);
  };

  const shown = list.data?.filter((row) => row.published).length ?? 0;
  return (
    <AdminLayout
      title="Testimonials"
      actions={<AddButton onClick={() => dialog.open('new')}>Add Testimonial</AddButton>}
    >
      <p className="text-sm text-zinc-400">
        Quotes from real clients, shown on the home page in this order. Hidden ones stay here for later. With
        none shown, the home page leaves the Testimonials section out.
      </p>
      <QueryState
        className="mt-4"
        query={list}
        error="Failed to load testimonials"
        loading="Loading testimonials..."
        empty={
          <EmptyCard title="No testimonials yet">
            <p className="mt-2 text-zinc-400">
              The home page shows no Testimonials section until you add one.
            </p>
            <Button className="mt-4" onClick={() => dialog.open('new')}>
              Add First Testimonial
            </Button>
          </EmptyCard>
        }
      >
        {(rows) => (
          <>
            <p className="text-sm text-zinc-300">
              {shown} of {rows.length} shown on the home page
            </p>
            <ol className="mt-2 space-y-3" aria-label="Testimonials in home page order">
              {rows.map((row, index) => (
                <li
                  key={row.id}
                  className={`${cardClass} flex flex-col gap-3 p-5 sm:flex-row sm:items-start sm:gap-4`}
                >
                  <figure className="min-w-0 flex-1">
                    <blockquote className="text-zinc-100">“{row.quote}”</blockquote>
                    <figcaption className="mt-2 flex flex-wrap items-center gap-2 text-sm text-spotlight-300">
                      {row.name}
                      {row.event && <span className="text-zinc-400">· {row.event}</span>}
                      {!row.published && (
                        <Badge variant="neutral">
                          <EyeOff className="size-3" aria-hidden /> Hidden
                        </Badge>
                      )}
                    </figcaption>
                  </figure>
                  <div className="flex shrink-0 flex-wrap gap-1">
                    <Button
                      size="icon"
                      variant="ghost"
                      aria-label={`Move ${row.name} up`}
                      disabled={index === 0 || reorder.isPending}
                      onClick={() => move(index, -1)}
                    >
                      <ArrowUp className="size-4" aria-hidden />
                    </Button>
                    <Button
                      size="icon"
                      variant="ghost"
                      aria-label={`Move ${row.name} down`}
                      disabled={index === rows.length - 1 || reorder.isPending}
                      onClick={() => move(index, 1)}
                    >
                      <ArrowDown className="size-4" aria-hidden />
                    </Button>
                    <Button
                      size="icon"
                      variant="ghost"
                      aria-label={`${row.published ? 'Hide' : 'Show'} ${row.name}`}
                      disabled={setShown.isPending}
                      onClick={() => setShown.mutate({ id: row.id, published: !row.published })}
                    >
                      {row.published ? (
                        <EyeOff className="size-4" aria-hidden />
                      ) : (
                        <Eye className="size-4" aria-hidden />
                      )}
                    </Button>
                    <EditDeleteButtons
                      name={row.name}
                      onEdit={() => dialog.open(row)}
                      onDelete={() => deletion.ask(row)}
                    />
                  </div>
                </li>
              ))}
            </ol>
          </>
        )}
      </QueryState>

      <EditDialog
        dialog={dialog}
        title={{ new: 'Add Testimonial', edit: 'Edit Testimonial' }}
        className="max-w-xl"
      >
        {(testimonial) => <TestimonialForm testimonial={testimonial} onDone={dialog.saved} />}
      </EditDialog>
      <ConfirmDialog
        message="Delete this testimonial? To take it off the home page but keep it, hide it instead."
        {...deletion.dialog}
      />
    </AdminLayout>
  );
}

function TestimonialForm({
  testimonial,
  onDone,
}: {
  testimonial?: AdminTestimonial;
  onDone: () => Promise<unknown>;
}) {
  const [fields, setFields] = useState({
    name: testimonial?.name ?? '',
    quote: testimonial?.quote ?? '',
    event: testimonial?.event ?? '',
  });
  const bind = textBinder(fields, (change) => setFields((current) => ({ ...current, ...change })));
  const save = useAdminMutation({
    mutationFn: () => {
      const body = { name: fields.name, quote: fields.quote, event: fields.event.trim() || null };
      return testimonial
        ? api.put(`/api/admin/testimonials/${testimonial.id}`, body)
        : api.post('/api/admin/testimonials', body);
    },
    success: testimonial ? 'Testimonial updated' : 'Testimonial added',
    onSuccess: onDone,
    failure: 'Failed to save testimonial',
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  return (
    <form className="space-y-4" onSubmit={submit}>
      <InputField
        id="testimonial-name"
        label="Name"
        required
        maxLength={120}
        placeholder="Sarah M., dance parent"
        {...bind('name')}
      />
      <TextareaField
        id="testimonial-quote"
        label="Quote"
        required
        rows={4}
        maxLength={1000}
        {...bind('quote')}
      />
      <InputField
        id="testimonial-event"
        label="Event (optional)"
        maxLength={200}
        placeholder="Canterbury Dance Festival 2026"
        {...bind('event')}
      />
      <FormSubmit disabled={!fields.name.trim() || !fields.quote.trim()} pending={save.isPending}>
        Save Testimonial
      </FormSubmit>
    </form>
  );
}
