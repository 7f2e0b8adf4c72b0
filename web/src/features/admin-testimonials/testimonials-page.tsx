import type { AdminTestimonial } from '@app/shared/schemas';
import { Button } from '../../components/ui/button.tsx';
import { EmptyCard } from '../../components/ui/card.tsx';
import { ConfirmDialog } from '../../components/ui/confirm-dialog.tsx';
import { AdminLayout } from '../admin-shell/admin-layout.tsx';
import { EditDialog, useEditDialog } from '../admin-shell/edit-dialog.tsx';
import { QueryState } from '../admin-shell/query-state.tsx';
import { AddButton } from '../admin-shell/row-actions.tsx';
import { useAdminTestimonials, useDeleteTestimonial, useRefreshTestimonials } from './queries.ts';
import { TestimonialForm } from './testimonial-form.tsx';
import { TestimonialList } from './testimonial-list.tsx';

/** The quotes on the home page: add, edit, reorder, hide and remove them (the section hides when none show). */
export default function AdminTestimonialsPage() {
  const list = useAdminTestimonials();
  const refresh = useRefreshTestimonials();
  const dialog = useEditDialog<AdminTestimonial>(refresh);
  const deletion = useDeleteTestimonial(refresh);
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
          <TestimonialList rows={rows} onChanged={refresh} onEdit={dialog.open} onDelete={deletion.ask} />
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
