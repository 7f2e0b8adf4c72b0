import { useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { AlertTriangle, Eye, EyeOff } from 'lucide-react';
import type { AdminShowcase, AdminVideo, PublishedState } from '@app/shared/schemas';
import { Badge } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Dialog, DialogContent } from '../../components/ui/dialog.tsx';
import { toast } from '../../components/ui/toast-store.ts';
import { api, errorMessage, isApiError } from '../../lib/api.ts';
import { failureToast, useAdminMutation } from '../admin-shell/admin-mutation.ts';

// Hide, publish and delete for the owner's videos and showcases (api: video-publishing.service.ts).

type Kind = 'video' | 'showcase';
const kindPath = { video: 'videos', showcase: 'showcases' } as const;

function useSetPublished(kind: Kind, onChanged: () => Promise<unknown>) {
  return useAdminMutation({
    mutationFn: ({ id, published }: { id: string; published: boolean }) =>
      api.post<PublishedState>(
        `/api/admin/${kindPath[kind]}/${encodeURIComponent(id)}/${published ? 'publish' : 'hide'}`,
      ),
    onSuccess: async (state) => {
      toast({
        title: state.published ? 'Published: shown on the site' : 'Hidden from the site',
        description: state.published
          ? undefined
          : 'Paid buyers keep their downloads. Publish it again at any time.',
        variant: 'success',
      });
      await onChanged();
    },
    failure: 'Could not change what the site shows',
  });
}

/** A Hide / Publish button for one video or showcase. */
export function PublishToggle({
  onChanged,
  ...target
}: ({ video: AdminVideo } | { showcase: AdminShowcase }) & { onChanged: () => Promise<unknown> }) {
  const [kind, { id, published }, name] =
    'video' in target
      ? (['video', target.video, target.video.title] as const)
      : (['showcase', target.showcase, target.showcase.name] as const);
  const change = useSetPublished(kind, onChanged);
  const Icon = published ? EyeOff : Eye;
  return (
    <Button
      size="sm"
      variant="secondary"
      disabled={change.isPending}
      aria-label={`${published ? 'Hide' : 'Publish'} ${name}`}
      onClick={() => change.mutate({ id, published: !published })}
    >
      <Icon className="size-4" aria-hidden /> {published ? 'Hide' : 'Publish'}
    </Button>
  );
}

/** What the owner must know about a video at a glance: hidden, or its file is not in storage. */
export function VideoStateBadges({ video }: { video: Pick<AdminVideo, 'published' | 'fileSize'> }) {
  return (
    <>
      {!video.published && (
        <Badge variant="neutral">
          <EyeOff className="size-3" aria-hidden /> Hidden
        </Badge>
      )}
      {video.fileSize === null && (
        <Badge variant="danger" title="No file is stored under this video's storage key">
          <AlertTriangle className="size-3" aria-hidden /> File missing
        </Badge>
      )}
    </>
  );
}

/**
 * Deleting a video: asks first; when the api refuses (someone paid for it, or a checkout is still
 * open) it says why and offers to hide the video instead.
 */
export function DeleteVideoDialog({
  video,
  onClose,
  onChanged,
}: {
  video: AdminVideo | null;
  onClose: () => void;
  onChanged: () => Promise<unknown>;
}) {
  const [refusal, setRefusal] = useState<string | null>(null);
  const close = () => {
    setRefusal(null);
    onClose();
  };
  const remove = useMutation({
    mutationFn: (id: string) => api.delete(`/api/admin/videos/${encodeURIComponent(id)}`),
    onSuccess: async () => {
      toast({ title: 'Video deleted successfully', variant: 'success' });
      close();
      await onChanged();
    },
    onError: (error) => {
      if (isApiError(error, 'conflict'))
        return setRefusal(errorMessage(error, 'This video cannot be deleted.'));
      failureToast('Failed to delete video', error);
    },
  });
  const hide = useSetPublished('video', async () => {
    close();
    await onChanged();
  });

  return (
    <Dialog open={video !== null} onOpenChange={(next) => !next && close()}>
      {video && (
        <DialogContent
          title={refusal ? 'This video cannot be deleted' : 'Please confirm'}
          description={refusal ?? 'Are you sure you want to delete this video? This action cannot be undone.'}
        >
          <div className="flex justify-end gap-2">
            <Button variant="secondary" onClick={close}>
              Cancel
            </Button>
            {refusal ? (
              video.published && (
                <Button
                  disabled={hide.isPending}
                  onClick={() => hide.mutate({ id: video.id, published: false })}
                >
                  <EyeOff className="size-4" aria-hidden /> Hide instead
                </Button>
              )
            ) : (
              <Button variant="danger" disabled={remove.isPending} onClick={() => remove.mutate(video.id)}>
                Delete
              </Button>
            )}
          </div>
        </DialogContent>
      )}
    </Dialog>
  );
}
