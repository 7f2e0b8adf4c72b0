import { useState, type ReactNode } from 'react';
import { Dialog, DialogContent } from '../../components/ui/dialog.tsx';

/**
 * Which record an admin page's edit dialog shows: one to edit, 'new' for an empty form, null when it is
 * closed. `saved` closes it and refreshes the page's lists (`onSaved`).
 */
export function useEditDialog<T>(onSaved: () => Promise<unknown>) {
  const [editing, setEditing] = useState<T | 'new' | null>(null);
  return {
    editing,
    open: (record: T | 'new') => setEditing(record),
    close: () => setEditing(null),
    saved: async () => {
      setEditing(null);
      await onSaved();
    },
  };
}

export type EditDialogState<T> = ReturnType<typeof useEditDialog<T>>;

/** The dialog of `useEditDialog`: titled for a new record or an edit; `children` renders the form. */
export function EditDialog<T>({
  dialog,
  title,
  className,
  children,
}: {
  dialog: EditDialogState<T>;
  title: { new: string; edit: string };
  className?: string;
  /** The form, given the record to edit (undefined for a new one). */
  children: (record: T | undefined) => ReactNode;
}) {
  const { editing, close } = dialog;
  return (
    <Dialog open={editing !== null} onOpenChange={(open) => !open && close()}>
      {editing !== null && (
        <DialogContent title={editing === 'new' ? title.new : title.edit} className={className}>
          {children(editing === 'new' ? undefined : editing)}
        </DialogContent>
      )}
    </Dialog>
  );
}
