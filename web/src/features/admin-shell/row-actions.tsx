import { Pencil, Trash2 } from 'lucide-react';
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
