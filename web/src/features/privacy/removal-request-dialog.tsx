import { useId, useState, type FormEvent } from 'react';
import { removalRequesterLabels, removalRequesterValues, REMOVAL_TARGET_DAYS } from '@app/shared/privacy';
import type { RemovalRequestInput } from '@app/shared/schemas';
import { Button } from '../../components/ui/button.tsx';
import { Dialog, DialogContent } from '../../components/ui/dialog.tsx';
import { FieldError, Input, Label, Select, Textarea } from '../../components/ui/input.tsx';
import { api, errorMessage } from '../../lib/api.ts';
import type { RemovalTarget } from './removal-request.tsx';

const targetPath = (target: RemovalTarget) =>
  'videoId' in target
    ? `/api/videos/${encodeURIComponent(target.videoId)}/removal-request`
    : `/api/dancers/${encodeURIComponent(target.dancerId)}/removal-request`;

/**
 * The "Request removal" dialog (removal-request.tsx opens it): a parent or guardian, the dancer or the
 * studio asks the owner to take the video (or the dancer's name and routines) down (docs/decisions/030).
 * The owner is e-mailed and answers within 7 days. Its own module, with the dialog's code: it loads when
 * it is first wanted, not with the page.
 */
export default function RemovalRequestDialog({
  target,
  open,
  onOpenChange,
}: {
  target: RemovalTarget;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const id = useId();
  const [fields, setFields] = useState<RemovalRequestInput>({ requester: 'parent', reason: '', email: '' });
  const [state, setState] = useState<
    { kind: 'idle' | 'sending' } | { kind: 'sent' | 'failed'; message: string }
  >({
    kind: 'idle',
  });
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setState({ kind: 'sending' });
    try {
      const { message } = await api.post<{ message: string }>(targetPath(target), fields);
      setState({ kind: 'sent', message });
    } catch (error) {
      setState({
        kind: 'failed',
        message: errorMessage(error, 'Your request could not be sent. Please try again.'),
      });
    }
  };
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        title="Request removal"
        description={
          'videoId' in target
            ? `Are you in this video, or is your child or your studio? Tell us and we will answer within ${REMOVAL_TARGET_DAYS} days.`
            : `Is this you, your child or your studio's dancer? Tell us whether to remove the name, the routines' videos or both, and we will answer within ${REMOVAL_TARGET_DAYS} days.`
        }
      >
        {state.kind === 'sent' ? (
          <p role="status" className="text-zinc-200">
            {state.message}
          </p>
        ) : (
          <form onSubmit={(event) => void submit(event)} className="space-y-4">
            <div>
              <Label htmlFor={`${id}-who`}>Who is asking</Label>
              <Select
                id={`${id}-who`}
                value={fields.requester}
                onChange={(event) =>
                  setFields({ ...fields, requester: event.target.value as RemovalRequestInput['requester'] })
                }
              >
                {removalRequesterValues.map((value) => (
                  <option key={value} value={value}>
                    {removalRequesterLabels[value]}
                  </option>
                ))}
              </Select>
            </div>
            <div>
              <Label htmlFor={`${id}-why`}>Why</Label>
              <Textarea
                id={`${id}-why`}
                required
                maxLength={2_000}
                rows={4}
                value={fields.reason}
                onChange={(event) => setFields({ ...fields, reason: event.target.value })}
              />
            </div>
            <div>
              <Label htmlFor={`${id}-email`}>Your e-mail</Label>
              <Input
                id={`${id}-email`}
                type="email"
                required
                autoComplete="email"
                value={fields.email}
                onChange={(event) => setFields({ ...fields, email: event.target.value })}
              />
            </div>
            <FieldError message={state.kind === 'failed' ? state.message : undefined} />
            <Button type="submit" disabled={state.kind === 'sending'}>
              {state.kind === 'sending' ? 'Sending...' : 'Send request'}
            </Button>
          </form>
        )}
      </DialogContent>
    </Dialog>
  );
}
