import { useEffect, useRef, useState } from 'react';
import { Button } from '../../components/ui/button.tsx';
import { FileInput, Label, Select, useTextInput } from '../../components/ui/input.tsx';
import { toast } from '../../components/ui/toast-store.ts';
import { api, errorMessage } from '../../lib/api.ts';
import { uploadFile } from '../admin-uploads/upload.ts';
import { Progress } from '../../components/ui/progress.tsx';
import { ShowcaseOptions } from './showcase-options.tsx';
import { titleFromFileName, type Showcase } from './shared.ts';

interface BulkItem {
  file: File;
  fraction: number;
  state: 'queued' | 'uploading' | 'done' | 'failed';
  error?: string;
}

/** One video per file, uploaded one after another; a failed file does not stop the others. */
export function BulkUpload({
  showcases,
  onSaved,
  onClose,
}: {
  showcases: Showcase[];
  onSaved: () => Promise<unknown>;
  onClose: () => void;
}) {
  const [items, setItems] = useState<BulkItem[]>([]);
  const [showcaseId, showcaseInput] = useTextInput('none');
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
        update(index, { state: 'failed', error: errorMessage(error, 'The upload did not finish.') });
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
      <p className="text-sm text-zinc-300">
        A competition with a programme?{' '}
        <a className="font-semibold text-spotlight-300 underline" href="/admin/uploads">
          Competition upload
        </a>{' '}
        resumes dropped files and matches them to the entries.
      </p>
      <div>
        <Label htmlFor="bulk-files">Video files</Label>
        <FileInput
          id="bulk-files"
          accept="video/*"
          multiple
          disabled={running}
          className="w-full"
          onChange={(event) =>
            setItems([...(event.target.files ?? [])].map((file) => ({ file, fraction: 0, state: 'queued' })))
          }
        />
      </div>
      <div>
        <Label htmlFor="bulk-showcase">Showcase</Label>
        <Select id="bulk-showcase" {...showcaseInput} disabled={running}>
          <ShowcaseOptions showcases={showcases} />
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
