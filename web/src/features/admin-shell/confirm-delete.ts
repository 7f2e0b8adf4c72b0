import { useState } from 'react';
import { useAdminMutation } from './admin-mutation.ts';

/**
 * Deleting a record of an admin list after asking: `ask(record)` opens the question, and `dialog` is
 * what `ConfirmDialog` needs (open, busy, confirm, cancel). Once deleted, the question closes and
 * `onDeleted` refreshes the lists; `success`, `failure` and `fallback` are the toasts' words.
 */
export function useConfirmDelete<T>({
  remove,
  onDeleted,
  success,
  failure,
  fallback,
}: {
  remove: (record: T) => Promise<unknown>;
  onDeleted: () => Promise<unknown>;
  success: string;
  failure: string;
  fallback?: string;
}) {
  const [deleting, setDeleting] = useState<T | null>(null);
  const mutation = useAdminMutation({
    mutationFn: remove,
    success,
    onSuccess: async () => {
      setDeleting(null);
      await onDeleted();
    },
    failure,
    fallback,
  });
  return {
    ask: (record: T) => setDeleting(record),
    dialog: {
      open: deleting !== null,
      busy: mutation.isPending,
      onConfirm: () => deleting !== null && mutation.mutate(deleting),
      onCancel: () => setDeleting(null),
    },
  };
}
