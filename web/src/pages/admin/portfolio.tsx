import { useRef, useState, type DragEvent } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { ImagePlus, RefreshCw, Trash2, X } from 'lucide-react';
import { portfolioCategoryLabels } from '@app/shared/constants';
import { imageUrl, MAX_IMAGE_BYTES } from '@app/shared/images';
import {
  ALT_REQUIRED_MESSAGE,
  portfolioCategories,
  type AdminPortfolioPhoto,
  type PortfolioCategory,
  type UpdatePortfolioPhoto,
} from '../../lib/schemas.ts';
import { Badge } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { ConfirmDialog } from '../../components/ui/confirm-dialog.tsx';
import { CheckboxField, Input, Label, Select, useTextInput } from '../../components/ui/input.tsx';
import { Progress } from '../../components/ui/progress.tsx';
import { toast } from '../../components/ui/toast-store.ts';
import { api, errorMessage } from '../../lib/api.ts';
import { cn } from '../../lib/cn.ts';
import { AdminLayout } from '../../features/admin-shell/admin-layout.tsx';
import { failureToast, useAdminMutation } from '../../features/admin-shell/admin-mutation.ts';
import { QueryState } from '../../features/admin-shell/query-state.tsx';
import { useConfirmDelete } from '../../features/admin-shell/confirm-delete.ts';
import { Thumbnail } from '../../features/admin-uploads/image-picker.tsx';
import { contentTypeOf, uploadFile } from '../../features/admin-uploads/upload.ts';

const listKey = ['/api/admin/portfolio'];
const ACCEPT = 'image/jpeg,image/png,image/webp,.jpg,.jpeg,.png,.webp';
const IMAGE_LINK = '/api/admin/images/upload-url';

/** Parses a whole-number field: a non-number counts as 0, never below 0. */
const whole = (value: string) => Math.max(0, Number.parseInt(value, 10) || 0);

interface Upload {
  id: number;
  file: File;
  fraction: number;
  error?: string;
  controller: AbortController;
}

/** Files the browser should not even send: too big or not a picture we take (the worker checks again). */
function refusal(file: File): string | undefined {
  if (!['image/jpeg', 'image/png', 'image/webp'].includes(contentTypeOf(file)))
    return 'Only JPEG, PNG and WebP pictures can be uploaded (export HEIC photos as JPEG first)';
  if (file.size > MAX_IMAGE_BYTES) return 'Pictures up to 50 MB can be uploaded';
  if (file.size === 0) return 'The file is empty';
  return undefined;
}

export default function AdminPortfolioPage() {
  const client = useQueryClient();
  const photos = useQuery({
    queryKey: listKey,
    queryFn: () => api.get<AdminPortfolioPhoto[]>('/api/admin/portfolio'),
    // While pictures are being processed, their rows follow the worker.
    refetchInterval: (query) =>
      query.state.data?.some(
        (photo) => photo.image?.status === 'pending' || photo.nextImage?.status === 'pending',
      )
        ? 1_500
        : false,
  });
  const [uploads, setUploads] = useState<Upload[]>([]);
  const [category, setCategory] = useState<PortfolioCategory>('solo');
  const [dragging, setDragging] = useState(false);
  const picker = useRef<HTMLInputElement>(null);
  const nextUploadId = useRef(0);

  // The public lists change with every write here (their cache is dropped on the server too).
  const refresh = () =>
    Promise.all([
      client.invalidateQueries({ queryKey: listKey }),
      client.invalidateQueries({
        predicate: (query) => String(query.queryKey[0]).startsWith('/api/portfolio'),
      }),
    ]);

  const patchUpload = (id: number, change: Partial<Upload>) =>
    setUploads((list) => list.map((upload) => (upload.id === id ? { ...upload, ...change } : upload)));

  async function send(upload: Upload, forCategory: PortfolioCategory) {
    try {
      const awsKey = await uploadFile(
        upload.file,
        (fraction) => patchUpload(upload.id, { fraction }),
        upload.controller.signal,
        IMAGE_LINK,
      );
      await api.post('/api/admin/portfolio', {
        awsKey,
        originalName: upload.file.name,
        category: forCategory,
      });
      setUploads((list) => list.filter((item) => item.id !== upload.id));
      await refresh();
    } catch (error) {
      if (error instanceof DOMException && error.name === 'AbortError') {
        setUploads((list) => list.filter((item) => item.id !== upload.id));
        return;
      }
      patchUpload(upload.id, { error: errorMessage(error, `Upload failed for ${upload.file.name}`) });
    }
  }

  function add(files: FileList | File[]) {
    const added = [...files].map((file) => ({
      id: nextUploadId.current++,
      file,
      fraction: 0,
      error: refusal(file),
      controller: new AbortController(),
    }));
    setUploads((list) => [...list, ...added]);
    // One after another: the owner's line is shared, and each bar then moves steadily.
    void (async () => {
      for (const upload of added) if (!upload.error) await send(upload, category);
    })();
  }

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    if (event.dataTransfer.files.length > 0) add(event.dataTransfer.files);
  };

  const deletion = useConfirmDelete({
    remove: ({ id }: AdminPortfolioPhoto) => api.delete(`/api/admin/portfolio/${id}`),
    onDeleted: refresh,
    success: 'Photo deleted',
    failure: 'Failed to delete photo',
    fallback: 'Try again',
  });

  return (
    <AdminLayout
      title="Portfolio Management"
      actions={
        <Button size="sm" onClick={() => picker.current?.click()}>
          <ImagePlus className="size-4" aria-hidden /> Upload Photos
        </Button>
      }
    >
      <input
        ref={picker}
        type="file"
        multiple
        accept={ACCEPT}
        className="hidden"
        data-testid="photo-files"
        onChange={(event) => {
          if (event.target.files) add(event.target.files);
          event.target.value = '';
        }}
      />
      <section
        aria-label="Upload photos"
        onDragOver={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
        className={cn(
          'rounded-2xl border-2 border-dashed p-6 text-center',
          dragging ? 'border-spotlight-400 bg-spotlight-400/10' : 'border-white/15 bg-stage-800/40',
        )}
      >
        <p className="text-zinc-200">Drop photos here, or</p>
        <Button variant="secondary" size="sm" className="mt-2" onClick={() => picker.current?.click()}>
          Choose photos
        </Button>
        <div className="mx-auto mt-4 flex max-w-xs items-center gap-2">
          <Label htmlFor="upload-category" className="shrink-0">
            New photos go to
          </Label>
          <Select
            id="upload-category"
            value={category}
            onChange={(event) => setCategory(event.target.value as PortfolioCategory)}
          >
            <CategoryOptions />
          </Select>
        </div>
        <p className="mt-3 text-xs text-zinc-400">
          JPEG, PNG or WebP up to 50 MB and 100 megapixels. Location and camera details are removed from every
          copy the site publishes.
        </p>
        {uploads.length > 0 && (
          <ul className="mt-5 space-y-3 text-left">
            {uploads.map((upload) => (
              <li key={upload.id} className="flex items-start gap-3">
                <div className="min-w-0 flex-1">
                  {upload.error ? (
                    <p className="text-sm text-red-300">
                      {upload.file.name}: {upload.error}
                    </p>
                  ) : (
                    <Progress fraction={upload.fraction} label={upload.file.name} />
                  )}
                </div>
                <Button
                  size="icon"
                  variant="ghost"
                  aria-label={upload.error ? `Dismiss ${upload.file.name}` : `Cancel ${upload.file.name}`}
                  onClick={() =>
                    upload.error
                      ? setUploads((list) => list.filter((item) => item.id !== upload.id))
                      : upload.controller.abort()
                  }
                >
                  <X className="size-4" aria-hidden />
                </Button>
              </li>
            ))}
          </ul>
        )}
      </section>

      <QueryState
        className="mt-8"
        query={photos}
        error="Failed to fetch portfolio"
        loading="Loading photos..."
        empty={<Card className="p-10 text-center text-zinc-400">No photos yet. Upload the first ones.</Card>}
      >
        {(rows) =>
          portfolioCategories.map((value) => {
            const inCategory = rows.filter((photo) => photo.category === value);
            if (inCategory.length === 0) return null;
            return (
              <section key={value} aria-labelledby={`category-${value}`} className="mb-10">
                <h2 id={`category-${value}`} className="font-sans text-lg font-semibold text-white">
                  {portfolioCategoryLabels[value]}{' '}
                  <span className="text-sm text-zinc-400">({inCategory.length})</span>
                </h2>
                <p className="text-sm text-zinc-400">Lower order numbers appear first in the gallery.</p>
                <ul className="mt-3 divide-y divide-white/10">
                  {inCategory.map((photo) => (
                    <PhotoRow
                      key={photo.id}
                      photo={photo}
                      onSaved={refresh}
                      onDelete={() => deletion.ask(photo)}
                    />
                  ))}
                </ul>
              </section>
            );
          })
        }
      </QueryState>

      <ConfirmDialog
        message="Are you sure you want to delete this photo? It leaves the website at once."
        {...deletion.dialog}
      />
    </AdminLayout>
  );
}

function imageState(photo: AdminPortfolioPhoto) {
  if (photo.image?.status === 'failed') return <Badge variant="danger">Refused: {photo.image.error}</Badge>;
  if (photo.image?.status === 'pending') return <Badge variant="neutral">Processing…</Badge>;
  if (photo.nextImage?.status === 'pending') return <Badge variant="neutral">Replacement processing…</Badge>;
  if (photo.nextImage?.status === 'failed')
    return <Badge variant="danger">Replacement refused: {photo.nextImage.error}</Badge>;
  return photo.published ? (
    <Badge variant="success">Published</Badge>
  ) : (
    <Badge variant="neutral">Draft</Badge>
  );
}

function PhotoRow({
  photo,
  onSaved,
  onDelete,
}: {
  photo: AdminPortfolioPhoto;
  onSaved: () => Promise<unknown>;
  onDelete: () => void;
}) {
  const [alt, altInput, setAlt] = useTextInput(photo.alt);
  const [order, orderInput, setOrder] = useTextInput(String(photo.position));
  const [replacing, setReplacing] = useState<number | null>(null);
  const replacePicker = useRef<HTMLInputElement>(null);
  const name = photo.alt || photo.image?.originalName || `photo ${photo.id}`;
  const altId = `alt-${photo.id}`;

  const save = useAdminMutation({
    mutationFn: (change: UpdatePortfolioPhoto) =>
      api.patch<AdminPortfolioPhoto>(`/api/admin/portfolio/${photo.id}`, change),
    success: 'Photo updated',
    onSuccess: async (saved) => {
      setAlt(saved.alt);
      setOrder(String(saved.position));
      await onSaved();
    },
    failure: 'Failed to update photo',
    fallback: 'Try again',
  });

  async function replace(file: File) {
    setReplacing(0);
    try {
      const awsKey = await uploadFile(file, setReplacing, undefined, IMAGE_LINK);
      await api.post(`/api/admin/portfolio/${photo.id}/replace`, { awsKey, originalName: file.name });
      await onSaved();
    } catch (error) {
      failureToast('Failed to replace photo', error, 'Try again');
    } finally {
      setReplacing(null);
    }
  }

  const altChanged = alt.trim() !== photo.alt;
  const ready = photo.image === null || photo.image.status === 'ready';
  return (
    <li className="flex flex-col gap-4 py-4 md:flex-row" data-testid="portfolio-row">
      <Thumbnail
        key={photo.imageUrl}
        src={ready ? imageUrl(photo.imageUrl, 320) : ''}
        className="aspect-[3/2] w-40 shrink-0 self-start rounded-lg"
      />
      <div className="min-w-0 flex-1 space-y-3">
        <div className="flex flex-wrap items-center gap-2 text-sm">
          {imageState(photo)}
          {photo.width && photo.height && (
            <span className="text-zinc-400">
              {photo.width} × {photo.height}
            </span>
          )}
          {photo.image?.originalName && (
            <span className="truncate text-zinc-500">{photo.image.originalName}</span>
          )}
        </div>
        <div>
          <Label htmlFor={altId}>Alt text</Label>
          <div className="flex gap-2">
            <Input
              id={altId}
              {...altInput}
              maxLength={500}
              placeholder="Describe the photo, e.g. Soloist in a red dress mid-leap"
            />
            {altChanged && (
              <Button size="sm" disabled={save.isPending} onClick={() => save.mutate({ alt: alt.trim() })}>
                Save
              </Button>
            )}
          </div>
          {!photo.alt && <p className="mt-1 text-xs text-spotlight-300">{ALT_REQUIRED_MESSAGE}.</p>}
        </div>
        <div className="flex flex-wrap items-center gap-4 text-sm">
          <label className="flex items-center gap-2">
            <span className="text-zinc-300">Category</span>
            <Select
              aria-label={`Category of ${name}`}
              value={photo.category}
              disabled={save.isPending}
              onChange={(event) => save.mutate({ category: event.target.value as PortfolioCategory })}
              className="w-auto"
            >
              <CategoryOptions />
            </Select>
          </label>
          <label className="flex items-center gap-2">
            <span className="text-zinc-300">Order</span>
            <Input type="number" min={0} aria-label={`Order of ${name}`} className="w-20" {...orderInput} />
          </label>
          {whole(order) !== photo.position && (
            <Button
              size="sm"
              disabled={save.isPending}
              onClick={() => save.mutate({ position: whole(order) })}
            >
              Save order
            </Button>
          )}
          <CheckboxField
            className="text-zinc-200"
            checked={photo.featured}
            disabled={save.isPending}
            onCheckedChange={(featured) => save.mutate({ featured })}
          >
            Featured (hero slideshow)
          </CheckboxField>
          <CheckboxField
            className="text-zinc-200"
            checked={photo.published}
            disabled={save.isPending}
            onCheckedChange={(published) =>
              save.mutate(published && altChanged ? { alt: alt.trim(), published: true } : { published })
            }
          >
            Published
          </CheckboxField>
        </div>
        {photo.published && !ready && photo.image?.status === 'pending' && (
          <p className="text-xs text-zinc-400">
            It appears on the website as soon as processing has finished.
          </p>
        )}
        {replacing !== null && <Progress fraction={replacing} label={`Replacing ${name}`} />}
      </div>
      <div className="flex shrink-0 gap-1 md:flex-col">
        <input
          ref={replacePicker}
          type="file"
          accept={ACCEPT}
          className="hidden"
          onChange={(event) => {
            const file = event.target.files?.[0];
            event.target.value = '';
            if (!file) return;
            const problem = refusal(file);
            if (problem)
              toast({ title: 'Cannot use this file', description: problem, variant: 'destructive' });
            else void replace(file);
          }}
        />
        <Button
          size="sm"
          variant="secondary"
          disabled={replacing !== null}
          onClick={() => replacePicker.current?.click()}
          aria-label={`Replace ${name}`}
        >
          <RefreshCw className="size-4" aria-hidden /> Replace
        </Button>
        <Button size="sm" variant="ghost" onClick={onDelete} aria-label={`Delete ${name}`}>
          <Trash2 className="size-4 text-red-300" aria-hidden /> Delete
        </Button>
      </div>
    </li>
  );
}

/** The portfolio's categories as a select's options: the upload's and a photo's own. */
function CategoryOptions() {
  return portfolioCategories.map((value) => (
    <option key={value} value={value}>
      {portfolioCategoryLabels[value]}
    </option>
  ));
}
