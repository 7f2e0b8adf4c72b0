import { useState } from 'react';
import type { BulkVideoAction, BulkVideoResult } from '@app/shared/schemas';
import { Button } from '../../components/ui/button.tsx';
import { ConfirmDialog } from '../../components/ui/confirm-dialog.tsx';
import { Input, moneyInput, Select, useTextInput } from '../../components/ui/input.tsx';
import { toast } from '../../components/ui/toast-store.ts';
import { api } from '../../lib/api.ts';
import type { Showcase } from './shared.ts';
import { ShowcaseOptions } from './showcase-options.tsx';
import { useAdminMutation } from '../admin-shell/admin-mutation.ts';

type Action = BulkVideoAction['action'];

/** What to do with the selected videos: move them to a showcase, set their price, delete the unsold. */
export function BulkActions({
  ids,
  showcases,
  onDone,
  onClear,
}: {
  ids: string[];
  showcases: Showcase[];
  onDone: () => Promise<unknown>;
  onClear: () => void;
}) {
  const [action, setAction] = useState<Action>('move');
  const [target, targetInput] = useTextInput('none');
  const [price, priceInput] = useTextInput();
  const [confirming, setConfirming] = useState(false);
  const count = `${ids.length} ${ids.length === 1 ? 'video' : 'videos'}`;
  const run = useAdminMutation({
    mutationFn: () => {
      const body =
        action === 'move'
          ? { ids, action, showcaseId: target === 'none' ? null : target }
          : action === 'price'
            ? { ids, action, priceCents: Math.round(Math.max(0, Number(price) || 0) * 100) }
            : { ids, action };
      return api.post<BulkVideoResult>('/api/admin/videos/bulk', body);
    },
    onSuccess: async (result) => {
      setConfirming(false);
      const done = action === 'move' ? 'moved' : action === 'price' ? 'repriced' : 'deleted';
      toast({
        title: `${result.changed} ${result.changed === 1 ? 'video' : 'videos'} ${done}`,
        description: result.kept.length
          ? `${result.kept.length} sold ${result.kept.length === 1 ? 'video was' : 'videos were'} kept: edit them instead.`
          : undefined,
        variant: 'success',
      });
      onClear();
      await onDone();
    },
    failure: 'The bulk action failed',
  });
  return (
    <div
      role="region"
      aria-label="Bulk actions"
      className="sticky top-2 z-10 mt-4 flex flex-wrap items-center gap-3 rounded-2xl border border-spotlight-400/40 bg-stage-900/95 p-4"
    >
      <span className="font-semibold text-white">{count} selected</span>
      <Select
        aria-label="Bulk action"
        className="w-48"
        value={action}
        onChange={(event) => setAction(event.target.value as Action)}
      >
        <option value="move">Move to showcase</option>
        <option value="price">Set price</option>
        <option value="delete">Delete unsold</option>
      </Select>
      {action === 'move' && (
        <Select aria-label="Move to" className="w-56" {...targetInput}>
          <ShowcaseOptions showcases={showcases} />
        </Select>
      )}
      {action === 'price' && (
        <Input
          aria-label="Price (NZ$)"
          {...moneyInput('NZ$')}
          placeholder="NZ$, 0 for free"
          className="w-40"
          {...priceInput}
        />
      )}
      <Button
        size="sm"
        variant={action === 'delete' ? 'danger' : 'primary'}
        disabled={run.isPending || (action === 'price' && price.trim() === '')}
        onClick={() => (action === 'delete' ? setConfirming(true) : run.mutate())}
      >
        Apply to {count}
      </Button>
      <Button size="sm" variant="ghost" onClick={onClear}>
        Clear selection
      </Button>
      <ConfirmDialog
        open={confirming}
        message={`Delete ${count}? Videos that have been sold are kept. This action cannot be undone.`}
        busy={run.isPending}
        onCancel={() => setConfirming(false)}
        onConfirm={() => run.mutate()}
      />
    </div>
  );
}
