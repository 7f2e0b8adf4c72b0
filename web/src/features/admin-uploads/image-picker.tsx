import { useRef, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Check, ImageOff, ImagePlus } from 'lucide-react';
import { imageUrl } from '@app/shared/images';
import type { AdminImage } from '../../lib/schemas.ts';
import { Button } from '../../components/ui/button.tsx';
import { Dialog, DialogContent } from '../../components/ui/dialog.tsx';
import { Input, Label, useTextInput } from '../../components/ui/input.tsx';
import { Progress } from '../../components/ui/progress.tsx';
import { api, errorMessage } from '../../lib/api.ts';
import { cn } from '../../lib/cn.ts';
import { uploadFile } from './upload.ts';

/** The nine pictures that ship with the site. */
export const builtInEventImages = Array.from(
  { length: 9 },
  (_, index) => `/api/images/attached_assets/event-${String(index + 1).padStart(2, '0')}.jpg`,
);

/** An image, or a placeholder when it cannot be shown. */
export function Thumbnail({ src, className }: { src: string; className?: string }) {
  const [failed, setFailed] = useState(false);
  return failed || !src ? (
    <div className={cn('flex items-center justify-center bg-stage-700 text-zinc-500', className)}>
      <ImageOff className="size-6" aria-label="Image not available" />
    </div>
  ) : (
    <img src={src} alt="" onError={() => setFailed(true)} className={cn('object-cover', className)} />
  );
}

const imagesKey = ['/api/admin/images'];
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Uploads a picture through the process-image job (upright, metadata stripped, every width made) and
 * resolves with its URL once it is ready, or fails with the reason the worker refused it. `signal`
 * cancels the upload, or stops waiting for the worker (the picture is then simply not used).
 */
export async function uploadImage(
  file: File,
  purpose: 'event' | 'poster',
  onProgress: (fraction: number) => void,
  signal?: AbortSignal,
): Promise<string> {
  const awsKey = await uploadFile(file, onProgress, signal, '/api/admin/images/upload-url');
  signal?.throwIfAborted();
  let image = await api.post<AdminImage>('/api/admin/images', { awsKey, originalName: file.name, purpose });
  while (image.status === 'pending') {
    await wait(1_000);
    signal?.throwIfAborted();
    image = await api.get<AdminImage>(`/api/admin/images/${image.id}`);
  }
  if (image.status === 'failed') throw new Error(image.error ?? 'The picture could not be processed');
  return image.url;
}

/** One choice in the Browse dialog's grids. */
function Choice({
  src,
  label,
  selected,
  onChoose,
}: {
  src: string;
  label: string;
  selected: boolean;
  onChoose: () => void;
}) {
  return (
    <li>
      <button
        type="button"
        aria-label={label}
        aria-pressed={selected}
        onClick={onChoose}
        className={cn(
          'relative block w-full overflow-hidden rounded-lg ring-2',
          selected ? 'ring-spotlight-400' : 'ring-transparent hover:ring-white/30',
        )}
      >
        <Thumbnail src={imageUrl(src, 320)} className="aspect-video w-full" />
        {selected && (
          <span className="absolute top-1 right-1 rounded bg-spotlight-400 px-1.5 text-xs font-bold text-stage-950">
            Selected
          </span>
        )}
      </button>
    </li>
  );
}

/**
 * A typed image URL, or one chosen in the Browse dialog: a custom URL, an uploaded picture (processed
 * like portfolio photos), a portfolio photo, or a built-in picture.
 */
export function ImagePicker({
  id,
  value,
  onChange,
  invalid,
}: {
  id: string;
  value: string;
  onChange: (url: string) => void;
  invalid?: boolean;
}) {
  const [open, setOpen] = useState(false);
  const [custom, customInput] = useTextInput();
  const [uploading, setUploading] = useState<{ name: string; fraction: number } | null>(null);
  const [uploadError, setUploadError] = useState<string | null>(null);
  const filePicker = useRef<HTMLInputElement>(null);
  const client = useQueryClient();
  const uploaded = useQuery({
    queryKey: imagesKey,
    queryFn: () => api.get<AdminImage[]>('/api/admin/images'),
    enabled: open,
  });
  const choose = (url: string) => {
    onChange(url);
    setOpen(false);
  };

  async function upload(file: File) {
    setUploadError(null);
    setUploading({ name: file.name, fraction: 0 });
    try {
      const url = await uploadImage(file, 'event', (fraction) => setUploading({ name: file.name, fraction }));
      await client.invalidateQueries({ queryKey: imagesKey });
      choose(url);
    } catch (error) {
      setUploadError(`${file.name}: ${errorMessage(error, 'Upload failed')}`);
    } finally {
      setUploading(null);
    }
  }

  return (
    <div>
      <div className="flex gap-2">
        <Input
          id={id}
          value={value}
          aria-invalid={invalid || undefined}
          placeholder="/api/images/... or https://..."
          onChange={(event) => onChange(event.target.value)}
        />
        <Button variant="secondary" onClick={() => setOpen(true)}>
          Browse
        </Button>
      </div>
      {value && (
        <div className="mt-2 flex items-center gap-3 text-sm text-zinc-400">
          <Thumbnail key={value} src={value} className="h-12 w-20 rounded-md" />
          <span className="flex items-center gap-1 text-emerald-300">
            <Check className="size-4" aria-hidden /> Selected
          </span>
        </div>
      )}
      <Dialog open={open} onOpenChange={setOpen}>
        <DialogContent title="Choose an Event Image" className="max-w-2xl">
          <Label htmlFor={`${id}-custom`}>Custom image URL</Label>
          <div className="flex gap-2">
            <Input id={`${id}-custom`} {...customInput} placeholder="https://..." />
            <Button disabled={!custom.trim()} onClick={() => choose(custom.trim())}>
              Use URL
            </Button>
          </div>
          <div className="mt-5 flex flex-wrap items-center gap-3">
            <input
              ref={filePicker}
              type="file"
              accept="image/jpeg,image/png,image/webp,.jpg,.jpeg,.png,.webp"
              className="hidden"
              onChange={(event) => {
                const file = event.target.files?.[0];
                event.target.value = '';
                if (file) void upload(file);
              }}
            />
            <Button
              variant="secondary"
              disabled={uploading !== null}
              onClick={() => filePicker.current?.click()}
            >
              <ImagePlus className="size-4" aria-hidden /> Upload a picture
            </Button>
            <span className="text-xs text-zinc-400">
              JPEG, PNG or WebP up to 50 MB; location data is removed.
            </span>
          </div>
          {uploading && (
            <div className="mt-3">
              <Progress
                fraction={uploading.fraction}
                label={
                  uploading.fraction < 1 ? `Uploading ${uploading.name}` : `Processing ${uploading.name}`
                }
              />
            </div>
          )}
          {uploadError && <p className="mt-2 text-sm text-red-300">{uploadError}</p>}
          {(uploaded.data?.length ?? 0) > 0 && (
            <>
              <h3 className="mt-5 text-sm font-semibold text-zinc-200">
                Uploaded pictures and portfolio photos
              </h3>
              <ul className="mt-2 grid max-h-72 grid-cols-2 gap-3 overflow-y-auto md:grid-cols-3">
                {uploaded.data!.map((image) => (
                  <Choice
                    key={image.id}
                    src={image.url}
                    label={image.alt || image.originalName || 'Uploaded picture'}
                    selected={value === image.url}
                    onChoose={() => choose(image.url)}
                  />
                ))}
              </ul>
            </>
          )}
          <h3 className="mt-5 text-sm font-semibold text-zinc-200">Built-in pictures</h3>
          <ul className="mt-2 grid grid-cols-2 gap-3 md:grid-cols-3">
            {builtInEventImages.map((src, index) => (
              <Choice
                key={src}
                src={src}
                label={`Built-in image ${index + 1}`}
                selected={value === src}
                onChoose={() => choose(src)}
              />
            ))}
          </ul>
        </DialogContent>
      </Dialog>
    </div>
  );
}
