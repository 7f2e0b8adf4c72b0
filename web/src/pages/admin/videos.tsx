import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Eye, Download, Lock, Pencil, Plus, Trash2, Upload } from 'lucide-react';
import { formatPrice } from '@app/shared/format';
import { Badge } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Dialog, DialogContent } from '../../components/ui/dialog.tsx';
import { Input, Label, Select, Textarea } from '../../components/ui/input.tsx';
import { toast } from '../../components/ui/toast-store.ts';
import { api, errorMessage } from '../../lib/api.ts';
import { Progress } from '../../components/ui/progress.tsx';
import { AdminLayout } from '../../features/admin/admin-layout.tsx';
import { uploadFile } from '../../features/admin/upload.ts';
import type { AdminVideo } from '@app/shared/schemas';
import type { Showcase } from '../../features/shop/queries.ts';
import {
  ProcessingStatus,
  processingRefetchInterval,
} from '../../features/video-processing/processing-status.tsx';
import {
  DeleteVideoDialog,
  PublishToggle,
  VideoStateBadges,
} from '../../features/admin/video-publishing.tsx';

const videosKey = ['/api/admin/videos'];
const showcasesKey = ['/api/admin/showcases'];

/** SPEC.md section 5's parsing: a non-number counts as 0, never below 0. */
const whole = (value: string) => Math.max(0, Number.parseInt(value, 10) || 0);
const splitTags = (value: string) =>
  value
    .split(',')
    .map((tag) => tag.trim())
    .filter(Boolean);

export default function AdminVideosPage() {
  const client = useQueryClient();
  const videos = useQuery({
    queryKey: videosKey,
    queryFn: () => api.get<AdminVideo[]>('/api/admin/videos'),
    refetchInterval: processingRefetchInterval,
  });
  const showcases = useQuery({
    queryKey: showcasesKey,
    queryFn: () => api.get<Showcase[]>('/api/admin/showcases'),
  });
  const [videoDialog, setVideoDialog] = useState<AdminVideo | 'new' | null>(null);
  const [showcaseDialog, setShowcaseDialog] = useState<Showcase | 'new' | null>(null);
  const [bulkOpen, setBulkOpen] = useState(false);
  const [deleting, setDeleting] = useState<AdminVideo | null>(null);
  const refresh = () =>
    Promise.all(
      [videosKey, showcasesKey, ['/api/videos'], ['/api/showcases']].map((queryKey) =>
        client.invalidateQueries({ queryKey }),
      ),
    );

  return (
    <AdminLayout
      title="Video Management"
      actions={
        <>
          <Button size="sm" variant="secondary" onClick={() => setShowcaseDialog('new')}>
            <Plus className="size-4" aria-hidden /> New Showcase
          </Button>
          <Button size="sm" variant="secondary" onClick={() => setBulkOpen(true)}>
            <Upload className="size-4" aria-hidden /> Bulk Upload
          </Button>
          <Button size="sm" onClick={() => setVideoDialog('new')}>
            <Plus className="size-4" aria-hidden /> Add Video
          </Button>
        </>
      }
    >
      <ShowcaseOrder showcases={showcases.data ?? []} onEdit={setShowcaseDialog} onSaved={refresh} />

      <h2 className="mt-10 font-sans text-lg font-semibold text-white">Videos</h2>
      {videos.isError ? (
        <p className="mt-4 text-red-300">
          Failed to load videos: {errorMessage(videos.error, 'An unknown error occurred')}
        </p>
      ) : videos.isPending ? (
        <p className="mt-4 text-zinc-400">Loading videos...</p>
      ) : videos.data.length === 0 ? (
        <div className="mt-4 rounded-2xl border border-white/10 bg-stage-800/70 p-10 text-center">
          <p className="text-lg font-semibold text-white">No videos added</p>
          <Button className="mt-4" onClick={() => setVideoDialog('new')}>
            Add First Video
          </Button>
        </div>
      ) : (
        <ul className="mt-4 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {videos.data.map((video) => (
            <li
              key={video.id}
              className="flex flex-col rounded-2xl border border-white/10 bg-stage-800/70 p-5"
            >
              <div className="flex items-start justify-between gap-2">
                <h3 className="font-sans text-lg font-semibold text-white">{video.title}</h3>
                <div className="flex shrink-0 gap-1">
                  <Button
                    size="icon"
                    variant="ghost"
                    aria-label={`Edit ${video.title}`}
                    onClick={() => setVideoDialog(video)}
                  >
                    <Pencil className="size-4" aria-hidden />
                  </Button>
                  <Button
                    size="icon"
                    variant="ghost"
                    aria-label={`Delete ${video.title}`}
                    onClick={() => setDeleting(video)}
                  >
                    <Trash2 className="size-4 text-red-300" aria-hidden />
                  </Button>
                </div>
              </div>
              <p className="mt-1 flex-1 text-sm text-zinc-400">{video.description}</p>
              <div className="mt-3 flex flex-wrap items-center gap-2">
                <Badge variant={video.priceCents === 0 ? 'success' : 'default'}>
                  {formatPrice(video.priceCents)}
                </Badge>
                {video.passwordProtected && (
                  <Badge variant="neutral">
                    <Lock className="size-3" aria-hidden /> Protected
                  </Badge>
                )}
                <VideoStateBadges video={video} />
                {video.tags.map((tag) => (
                  <Badge key={tag} variant="neutral">
                    {tag}
                  </Badge>
                ))}
              </div>
              <p className="mt-3 flex gap-4 text-xs text-zinc-400">
                <span className="flex items-center gap-1">
                  <Eye className="size-3" aria-hidden /> {video.views} views
                </span>
                <span className="flex items-center gap-1">
                  <Download className="size-3" aria-hidden /> {video.downloads} downloads
                </span>
              </p>
              <ProcessingStatus video={video} />
              <div className="mt-3">
                <PublishToggle
                  kind="video"
                  id={video.id}
                  name={video.title}
                  published={video.published}
                  onChanged={refresh}
                />
              </div>
            </li>
          ))}
        </ul>
      )}

      <Dialog open={videoDialog !== null} onOpenChange={(open) => !open && setVideoDialog(null)}>
        {videoDialog !== null && (
          <DialogContent title={videoDialog === 'new' ? 'Add Video' : 'Edit Video'} className="max-w-xl">
            <VideoForm
              video={videoDialog === 'new' ? undefined : videoDialog}
              showcases={showcases.data ?? []}
              onDone={async () => {
                setVideoDialog(null);
                await refresh();
              }}
            />
          </DialogContent>
        )}
      </Dialog>
      <Dialog open={showcaseDialog !== null} onOpenChange={(open) => !open && setShowcaseDialog(null)}>
        {showcaseDialog !== null && (
          <DialogContent title={showcaseDialog === 'new' ? 'New Showcase' : 'Edit Showcase'}>
            <ShowcaseForm
              showcase={showcaseDialog === 'new' ? undefined : showcaseDialog}
              onDone={async () => {
                setShowcaseDialog(null);
                await refresh();
              }}
            />
          </DialogContent>
        )}
      </Dialog>
      <Dialog open={bulkOpen} onOpenChange={setBulkOpen}>
        {bulkOpen && (
          <DialogContent
            title="Bulk Upload"
            description="One video per file; edit titles and prices afterwards."
            className="max-w-xl"
          >
            <BulkUpload
              showcases={showcases.data ?? []}
              onSaved={refresh}
              onClose={() => setBulkOpen(false)}
            />
          </DialogContent>
        )}
      </Dialog>
      <DeleteVideoDialog video={deleting} onClose={() => setDeleting(null)} onChanged={refresh} />
    </AdminLayout>
  );
}

function ShowcaseOrder({
  showcases,
  onEdit,
  onSaved,
}: {
  showcases: Showcase[];
  onEdit: (showcase: Showcase) => void;
  onSaved: () => Promise<unknown>;
}) {
  const [orders, setOrders] = useState<Record<string, string>>({});
  const save = useMutation({
    mutationFn: ({ id, orderPriority }: { id: string; orderPriority: number }) =>
      api.patch(`/api/admin/showcases/${id}`, { orderPriority }),
    onSuccess: async (_result, { id }) => {
      toast({ title: 'Showcase updated successfully', variant: 'success' });
      setOrders(({ [id]: _saved, ...rest }) => rest);
      await onSaved();
    },
    onError: (error) =>
      toast({
        title: 'Failed to update showcase',
        description: errorMessage(error, 'An unknown error occurred'),
        variant: 'destructive',
      }),
  });
  return (
    <section
      aria-labelledby="showcase-order"
      className="rounded-2xl border border-white/10 bg-stage-800/70 p-6"
    >
      <h2 id="showcase-order" className="font-sans text-lg font-semibold text-white">
        Showcase Order
      </h2>
      <p className="text-sm text-zinc-400">Lower numbers appear first in the video library.</p>
      {showcases.length === 0 ? (
        <p className="mt-4 text-zinc-400">No showcases created yet</p>
      ) : (
        <ul className="mt-4 divide-y divide-white/10">
          {[...showcases]
            .sort((a, b) => a.orderPriority - b.orderPriority)
            .map((showcase) => {
              const draft = orders[showcase.id];
              const changed = draft !== undefined && whole(draft) !== showcase.orderPriority;
              return (
                <li key={showcase.id} className="flex flex-wrap items-center gap-3 py-3">
                  <span className="min-w-0 flex-1 text-zinc-100">
                    {showcase.name} {!showcase.published && <Badge variant="neutral">Hidden</Badge>}
                  </span>
                  <Input
                    type="number"
                    min={0}
                    aria-label={`Order of ${showcase.name}`}
                    className="w-24"
                    value={draft ?? String(showcase.orderPriority)}
                    onChange={(event) =>
                      setOrders((current) => ({ ...current, [showcase.id]: event.target.value }))
                    }
                  />
                  {changed && (
                    <Button
                      size="sm"
                      disabled={save.isPending}
                      onClick={() => save.mutate({ id: showcase.id, orderPriority: whole(draft) })}
                    >
                      Save
                    </Button>
                  )}
                  <PublishToggle
                    kind="showcase"
                    id={showcase.id}
                    name={showcase.name}
                    published={showcase.published}
                    onChanged={onSaved}
                  />
                  <Button
                    size="icon"
                    variant="ghost"
                    aria-label={`Edit ${showcase.name}`}
                    onClick={() => onEdit(showcase)}
                  >
                    <Pencil className="size-4" aria-hidden />
                  </Button>
                </li>
              );
            })}
        </ul>
      )}
    </section>
  );
}

function ShowcaseForm({ showcase, onDone }: { showcase?: Showcase; onDone: () => Promise<unknown> }) {
  const [name, setName] = useState(showcase?.name ?? '');
  const [description, setDescription] = useState(showcase?.description ?? '');
  const [order, setOrder] = useState(String(showcase?.orderPriority ?? 0));
  const save = useMutation({
    mutationFn: () => {
      const body = { name: name.trim(), description: description.trim(), orderPriority: whole(order) };
      return showcase
        ? api.patch(`/api/admin/showcases/${showcase.id}`, body)
        : api.post('/api/admin/showcases', body);
    },
    onSuccess: async () => {
      toast({
        title: showcase ? 'Showcase updated successfully' : 'Showcase created successfully',
        variant: 'success',
      });
      await onDone();
    },
    onError: (error) =>
      toast({
        title: showcase ? 'Failed to update showcase' : 'Failed to create showcase',
        description: errorMessage(error, 'An unknown error occurred'),
        variant: 'destructive',
      }),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  return (
    <form onSubmit={submit} className="space-y-4">
      <div>
        <Label htmlFor="showcase-name">Name</Label>
        <Input id="showcase-name" required value={name} onChange={(event) => setName(event.target.value)} />
      </div>
      <div>
        <Label htmlFor="showcase-description">Description</Label>
        <Textarea
          id="showcase-description"
          required
          rows={3}
          value={description}
          onChange={(event) => setDescription(event.target.value)}
        />
      </div>
      <div>
        <Label htmlFor="showcase-order">Display order</Label>
        <Input
          id="showcase-order"
          type="number"
          min={0}
          value={order}
          onChange={(event) => setOrder(event.target.value)}
        />
        <p className="mt-1 text-xs text-zinc-500">Lower appears first.</p>
      </div>
      <div className="flex justify-end">
        <Button type="submit" disabled={!name.trim() || !description.trim() || save.isPending}>
          {save.isPending ? 'Saving...' : 'Save Showcase'}
        </Button>
      </div>
    </form>
  );
}

function VideoForm({
  video,
  showcases,
  onDone,
}: {
  video?: AdminVideo;
  showcases: Showcase[];
  onDone: () => Promise<unknown>;
}) {
  const [fields, setFields] = useState({
    title: video?.title ?? '',
    priceCents: String(video?.priceCents ?? ''),
    description: video?.description ?? '',
    tags: video?.tags.join(', ') ?? '',
    showcaseId: video?.showcaseId ?? 'none',
    awsKey: video?.awsKey ?? '',
    previewUrl: video?.previewUrl ?? '',
    passwordProtected: video?.passwordProtected ?? false,
    published: video?.published ?? true,
    password: '',
  });
  const [progress, setProgress] = useState<{ label: string; fraction: number } | null>(null);
  const upload = useRef<AbortController | null>(null);
  // Closing the dialog stops an upload in progress; nothing was created, so nothing is left behind.
  useEffect(() => () => upload.current?.abort(), []);
  const set = (change: Partial<typeof fields>) => setFields((current) => ({ ...current, ...change }));

  const sendFile = async (file: File, field: 'awsKey' | 'previewUrl') => {
    upload.current = new AbortController();
    setProgress({ label: `Uploading ${file.name}`, fraction: 0 });
    try {
      const key = await uploadFile(
        file,
        (fraction) => setProgress({ label: `Uploading ${file.name}`, fraction }),
        upload.current.signal,
      );
      setFields((current) => ({
        ...current,
        [field]: key,
        // A new video's title starts as its file's name; the owner can change it.
        ...(field === 'awsKey' && !current.title.trim() && { title: titleFromFileName(file.name) }),
      }));
    } catch (error) {
      if ((error as Error).name !== 'AbortError')
        toast({ title: 'Upload failed', description: (error as Error).message, variant: 'destructive' });
    } finally {
      setProgress(null);
      upload.current = null;
    }
  };

  const save = useMutation({
    mutationFn: () => {
      const body = {
        title: fields.title.trim(),
        description: fields.description.trim(),
        tags: splitTags(fields.tags),
        showcaseId: fields.showcaseId === 'none' ? null : fields.showcaseId,
        priceCents: whole(fields.priceCents),
        previewUrl: fields.previewUrl.trim() || null,
        passwordProtected: fields.passwordProtected,
        published: fields.published,
        password: fields.password || null,
      };
      return video
        ? api.put(`/api/admin/videos/${video.id}`, body)
        : api.post('/api/admin/videos', { ...body, awsKey: fields.awsKey.trim() });
    },
    onSuccess: async () => {
      toast({
        title: video ? 'Video updated successfully' : 'Video created successfully',
        variant: 'success',
      });
      await onDone();
    },
    onError: (error) =>
      toast({
        title: video ? 'Failed to update video' : 'Failed to create video',
        description: errorMessage(error, 'An unknown error occurred'),
        variant: 'destructive',
      }),
  });
  const ready =
    fields.title.trim() && fields.description.trim() && (video || fields.awsKey.trim()) && !progress;

  return (
    <form
      className="space-y-4"
      onSubmit={(event) => {
        event.preventDefault();
        save.mutate();
      }}
    >
      <div className="grid gap-4 sm:grid-cols-2">
        <div>
          <Label htmlFor="video-title">Title</Label>
          <Input
            id="video-title"
            required
            value={fields.title}
            onChange={(event) => set({ title: event.target.value })}
          />
        </div>
        <div>
          <Label htmlFor="video-price">Price in cents</Label>
          <Input
            id="video-price"
            type="number"
            min={0}
            placeholder="0 for free"
            value={fields.priceCents}
            onChange={(event) => set({ priceCents: event.target.value })}
          />
        </div>
      </div>
      <div>
        <Label htmlFor="video-description">Description</Label>
        <Textarea
          id="video-description"
          required
          rows={3}
          value={fields.description}
          onChange={(event) => set({ description: event.target.value })}
        />
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <div>
          <Label htmlFor="video-tags">Tags (comma-separated)</Label>
          <Input
            id="video-tags"
            value={fields.tags}
            onChange={(event) => set({ tags: event.target.value })}
          />
        </div>
        <div>
          <Label htmlFor="video-showcase">Showcase</Label>
          <Select
            id="video-showcase"
            value={fields.showcaseId}
            onChange={(event) => set({ showcaseId: event.target.value })}
          >
            <option value="none">No showcase</option>
            {showcases.map((showcase) => (
              <option key={showcase.id} value={showcase.id}>
                {showcase.name}
              </option>
            ))}
          </Select>
        </div>
      </div>
      {!video && (
        <div>
          <Label htmlFor="video-key">AWS key (storage path)</Label>
          <Input
            id="video-key"
            placeholder="videos/..."
            value={fields.awsKey}
            onChange={(event) => set({ awsKey: event.target.value })}
          />
          <Label htmlFor="video-file" className="mt-2 text-xs text-zinc-400">
            …or upload the video file
          </Label>
          <input
            id="video-file"
            type="file"
            accept="video/*"
            className="text-sm text-zinc-300 file:mr-3 file:rounded-full file:border-0 file:bg-white/10 file:px-4 file:py-2 file:text-zinc-100"
            onChange={(event) => {
              const file = event.target.files?.[0];
              if (file) void sendFile(file, 'awsKey');
            }}
          />
        </div>
      )}
      <div>
        <Label htmlFor="video-preview">Preview image URL (optional)</Label>
        <Input
          id="video-preview"
          value={fields.previewUrl}
          onChange={(event) => set({ previewUrl: event.target.value })}
        />
        <input
          aria-label="Upload a preview image"
          type="file"
          accept="image/*"
          className="mt-2 text-sm text-zinc-300 file:mr-3 file:rounded-full file:border-0 file:bg-white/10 file:px-4 file:py-2 file:text-zinc-100"
          onChange={(event) => {
            const file = event.target.files?.[0];
            if (file) void sendFile(file, 'previewUrl');
          }}
        />
      </div>
      {progress && (
        <div className="space-y-2">
          <Progress fraction={progress.fraction} label={progress.label} />
          <Button size="sm" variant="secondary" onClick={() => upload.current?.abort()}>
            Cancel upload
          </Button>
        </div>
      )}
      <label className="flex items-center gap-2 text-sm text-zinc-200">
        <input
          type="checkbox"
          checked={fields.passwordProtected}
          onChange={(event) => set({ passwordProtected: event.target.checked })}
          className="size-4 accent-spotlight-400"
        />
        Password Protected
      </label>
      {fields.passwordProtected && (
        <div>
          <Label htmlFor="video-password">Password</Label>
          <Input
            id="video-password"
            type="text"
            autoComplete="off"
            placeholder={video?.passwordProtected ? 'Leave empty to keep the current password' : ''}
            value={fields.password}
            onChange={(event) => set({ password: event.target.value })}
          />
        </div>
      )}
      <label className="flex items-center gap-2 text-sm text-zinc-200">
        <input
          type="checkbox"
          checked={fields.published}
          onChange={(event) => set({ published: event.target.checked })}
          className="size-4 accent-spotlight-400"
        />
        Shown on the site (untick to keep it hidden)
      </label>
      <div className="flex justify-end">
        <Button type="submit" disabled={!ready || save.isPending}>
          {save.isPending ? 'Saving...' : 'Save Video'}
        </Button>
      </div>
    </form>
  );
}

interface BulkItem {
  file: File;
  fraction: number;
  state: 'queued' | 'uploading' | 'done' | 'failed';
  error?: string;
}

const titleFromFileName = (name: string) =>
  name
    .replace(/\.[^.]+$/, '')
    .replace(/[-_]+/g, ' ')
    .trim() || name;

/** One video per file, uploaded one after another; a failed file does not stop the others. */
function BulkUpload({
  showcases,
  onSaved,
  onClose,
}: {
  showcases: Showcase[];
  onSaved: () => Promise<unknown>;
  onClose: () => void;
}) {
  const [items, setItems] = useState<BulkItem[]>([]);
  const [showcaseId, setShowcaseId] = useState('none');
  const [running, setRunning] = useState(false);
  const controller = useRef<AbortController | null>(null);
  useEffect(() => () => controller.current?.abort(), []);
  const update = (index: number, change: Partial<BulkItem>) =>
    setItems((current) => current.map((item, at) => (at === index ? { ...item, ...change } : item)));

  const start = async () => {
    controller.current = new AbortController();
    const { signal } = controller.current;
    setRunning(true);
    let failed = 0;
    let created = 0;
    for (const [index, { file, state }] of items.entries()) {
      if (state === 'done') continue;
      if (signal.aborted) break;
      update(index, { state: 'uploading', fraction: 0, error: undefined });
      try {
        const awsKey = await uploadFile(file, (fraction) => update(index, { fraction }), signal);
        try {
          await api.post('/api/admin/videos', {
            title: titleFromFileName(file.name),
            description: titleFromFileName(file.name),
            tags: [],
            showcaseId: showcaseId === 'none' ? null : showcaseId,
            priceCents: 0,
            awsKey,
            previewUrl: null,
            passwordProtected: false,
            password: null,
          });
        } catch (error) {
          throw new Error(
            `Failed to create video for ${file.name}: ${errorMessage(error, 'An unknown error occurred')}`,
            { cause: error },
          );
        }
        created += 1;
        update(index, { state: 'done', fraction: 1 });
      } catch (error) {
        if ((error as Error).name === 'AbortError') break;
        failed += 1;
        update(index, { state: 'failed', error: (error as Error).message });
      }
    }
    setRunning(false);
    controller.current = null;
    if (created > 0) await onSaved();
    if (failed > 0) {
      toast({
        title: 'Bulk upload failed',
        description: `${failed} of ${items.length} files could not be uploaded; the others were saved.`,
        variant: 'destructive',
      });
    } else if (!signal.aborted) {
      onClose();
      toast({
        title: `${created} ${created === 1 ? 'video' : 'videos'} uploaded`,
        description: 'Set their prices, descriptions and previews with Edit.',
        variant: 'success',
      });
    }
  };
  const pending = items.filter((item) => item.state !== 'done').length;
  return (
    <div className="space-y-4">
      <div>
        <Label htmlFor="bulk-files">Video files</Label>
        <input
          id="bulk-files"
          type="file"
          accept="video/*"
          multiple
          disabled={running}
          className="w-full text-sm text-zinc-300 file:mr-3 file:rounded-full file:border-0 file:bg-white/10 file:px-4 file:py-2 file:text-zinc-100"
          onChange={(event) =>
            setItems([...(event.target.files ?? [])].map((file) => ({ file, fraction: 0, state: 'queued' })))
          }
        />
      </div>
      <div>
        <Label htmlFor="bulk-showcase">Showcase</Label>
        <Select
          id="bulk-showcase"
          value={showcaseId}
          disabled={running}
          onChange={(event) => setShowcaseId(event.target.value)}
        >
          <option value="none">No showcase</option>
          {showcases.map((showcase) => (
            <option key={showcase.id} value={showcase.id}>
              {showcase.name}
            </option>
          ))}
        </Select>
      </div>
      {items.length > 0 && (
        <ul className="space-y-3">
          {items.map((item, index) => (
            <li key={`${index}-${item.file.name}`}>
              <Progress fraction={item.fraction} label={item.file.name} />
              {item.state === 'done' && <p className="mt-1 text-xs text-emerald-300">Saved</p>}
              {item.error && (
                <p role="alert" className="mt-1 text-xs break-words text-red-300">
                  {item.error}
                </p>
              )}
            </li>
          ))}
        </ul>
      )}
      <div className="flex flex-wrap justify-end gap-2">
        {running && (
          <Button variant="secondary" onClick={() => controller.current?.abort()}>
            Cancel
          </Button>
        )}
        <Button disabled={pending === 0 || running} onClick={start}>
          {running
            ? 'Uploading...'
            : items.some((item) => item.state === 'failed')
              ? `Retry ${pending} failed`
              : `Upload ${pending || ''} ${pending === 1 ? 'video' : 'videos'}`}
        </Button>
      </div>
    </div>
  );
}
