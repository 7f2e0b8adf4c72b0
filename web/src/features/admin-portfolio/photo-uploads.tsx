import { useRef, useState, type DragEvent, type RefObject } from 'react';
import { X } from 'lucide-react';
import type { PortfolioCategory } from '../../lib/schemas.ts';
import { Button } from '../../components/ui/button.tsx';
import { Label, Select } from '../../components/ui/input.tsx';
import { Progress } from '../../components/ui/progress.tsx';
import { errorMessage } from '../../lib/api.ts';
import { cn } from '../../lib/cn.ts';
import { uploadFile } from '../admin-uploads/upload.ts';
import { CategoryOptions } from './category-options.tsx';
import { ACCEPT, IMAGE_LINK, refusal } from './picture-files.ts';
import { addPhoto } from './queries.ts';

interface Upload {
  id: number;
  file: File;
  fraction: number;
  error?: string;
  controller: AbortController;
}

/**
 * New photos: dropped here or chosen with `picker` (the hidden file input, which the page's own button
 * opens too), each uploaded with its progress bar into the category chosen; `onUploaded` after each.
 */
export function PhotoUploads({
  picker,
  onUploaded,
}: {
  picker: RefObject<HTMLInputElement | null>;
  onUploaded: () => Promise<unknown>;
}) {
  const [uploads, setUploads] = useState<Upload[]>([]);
  const [category, setCategory] = useState<PortfolioCategory>('solo');
  const [dragging, setDragging] = useState(false);
  const nextUploadId = useRef(0);

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
      await addPhoto(awsKey, upload.file.name, forCategory);
      setUploads((list) => list.filter((item) => item.id !== upload.id));
      await onUploaded();
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

  return (
    <>
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
    </>
  );
}
