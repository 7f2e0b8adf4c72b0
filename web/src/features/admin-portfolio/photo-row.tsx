import { useRef, useState } from 'react';
import { RefreshCw, Trash2 } from 'lucide-react';
import { imageUrl } from '@app/shared/images';
import { ALT_REQUIRED_MESSAGE, type AdminPortfolioPhoto, type PortfolioCategory } from '../../lib/schemas.ts';
import { Badge } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { CheckboxField, Input, Label, Select, useTextInput } from '../../components/ui/input.tsx';
import { Progress } from '../../components/ui/progress.tsx';
import { toast } from '../../components/ui/toast-store.ts';
import { failureToast } from '../admin-shell/admin-mutation.ts';
import { Thumbnail } from '../admin-uploads/image-picker.tsx';
import { uploadFile } from '../admin-uploads/upload.ts';
import { CategoryOptions } from './category-options.tsx';
import { ACCEPT, IMAGE_LINK, refusal } from './picture-files.ts';
import { replacePhoto, useUpdatePhoto } from './queries.ts';

/** Parses a whole-number field: a non-number counts as 0, never below 0. */
const whole = (value: string) => Math.max(0, Number.parseInt(value, 10) || 0);

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

/** One photo: its state, alt text, category, order, featured and published, and replace or delete. */
export function PhotoRow({
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

  const save = useUpdatePhoto(photo.id, async (saved) => {
    setAlt(saved.alt);
    setOrder(String(saved.position));
    await onSaved();
  });

  async function replace(file: File) {
    setReplacing(0);
    try {
      const awsKey = await uploadFile(file, setReplacing, undefined, IMAGE_LINK);
      await replacePhoto(photo.id, awsKey, file.name);
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
