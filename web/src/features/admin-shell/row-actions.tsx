import { Pencil, Plus, Trash2, type LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Button } from '../../components/ui/button.tsx';

/** The pencil and bin of an admin list row, named after the row for screen readers. */
export function EditDeleteButtons({
  name,
  onEdit,
  onDelete,
}: {
  name: string;
  onEdit: () => void;
  onDelete: () => void;
}) {
  return (
    <>
      <Button size="icon" variant="ghost" aria-label={`Edit ${name}`} onClick={onEdit}>
        <Pencil className="size-4" aria-hidden />
      </Button>
      <Button size="icon" variant="ghost" aria-label={`Delete ${name}`} onClick={onDelete}>
        <Trash2 className="size-4 text-red-300" aria-hidden />
      </Button>
    </>
  );
}

/** A table row's own action (retry a job, resend a receipt): a small button, off while it runs. */
export function RowActionButton({
  icon: Icon,
  busy,
  onClick,
  children,
}: {
  icon: LucideIcon;
  busy: boolean;
  onClick: () => void;
  children: ReactNode;
}) {
  return (
    <Button size="sm" variant="secondary" disabled={busy} onClick={onClick}>
      <Icon className="size-4" aria-hidden /> {children}
    </Button>
  );
}

/** A page header's "add" button (create an event, add a video): a plus and what it adds. */
export function AddButton({
  variant,
  onClick,
  children,
}: {
  variant?: 'secondary';
  onClick: () => void;
  children: ReactNode;
}) {
  return (
    <Button size="sm" variant={variant} onClick={onClick}>
      <Plus className="size-4" aria-hidden /> {children}
    </Button>
  );
}
