import { useEffect, useMemo, useRef, useState } from 'react';
import { matchFiles, reviewMatches } from '@app/shared/upload-matching';
import type { UploadBatch, UploadFile } from '@app/shared/schemas';
import { Button } from '../../components/ui/button.tsx';
import { CheckboxField, FileInput, Input, Label, Select } from '../../components/ui/input.tsx';
import { toast } from '../../components/ui/toast-store.ts';
import { ApiError, errorMessage } from '../../lib/api.ts';
import { MAX_UPLOAD_BYTES, uploadFileNameSchema } from '../../lib/schemas.ts';
import { contentTypeOf } from '../admin-uploads/upload.ts';
import { inspectVideo } from './inspect-video.ts';
import {
  bulkUploadApi,
  useMarkNotFilmed,
  useRefreshBatch,
  useSetFirstEntry,
  useUploadBatch,
} from './queries.ts';
import { entryLabel, ReviewTable } from './review-table.tsx';
import { createUploader, FILES_AT_ONCE, type Uploader } from './uploader.ts';

type LocalState = { fraction: number; error?: string; present: boolean };

const batchStorageKey = (showcaseId: string) => `stagelight:bulk-upload:${showcaseId}`;

/** What is wrong with a file before anything is sent, or null. */
async function refusal(file: File): Promise<string | null> {
  const name = uploadFileNameSchema.safeParse(file.name);
  if (!name.success) return name.error.issues[0]?.message ?? 'Not a file name';
  if (file.size === 0) return 'The file is empty (0 bytes)';
  if (file.size > MAX_UPLOAD_BYTES) return 'Files up to 5 GB can be uploaded: this one is larger';
  if (!(await inspectVideo(file)).isVideo) return 'Not a video file (its contents are not MP4, MOV or WebM)';
  return null;
}

/**
 * A competition's files in one go (decision 033): chosen or dropped, matched to the programme's
 * entries, uploaded resumably, reviewed, then confirmed into videos. The batch's id is kept in this
 * browser, so a reload comes back to it: the files are chosen again and continue from their last part.
 */
export function BulkUploadScreen({ showcaseId }: { showcaseId: string }) {
  const [batchId, setBatchId] = useState<string | null>(() =>
    localStorage.getItem(batchStorageKey(showcaseId)),
  );
  const batch = useUploadBatch(batchId);
  const refresh = useRefreshBatch(batchId);
  const markNotFilmed = useMarkNotFilmed(batchId);
  const setFirstEntry = useSetFirstEntry(batchId);
  const [local, setLocal] = useState(new Map<string, LocalState>());
  const [problems, setProblems] = useState<string[]>([]);
  const [publish, setPublish] = useState(true);
  const [price, setPrice] = useState('15.00');
  const [busy, setBusy] = useState(false);
  const uploader = useRef<Uploader | null>(null);

  const setOne = (fileId: string, change: Partial<LocalState>) =>
    setLocal((current) => {
      const next = new Map(current);
      next.set(fileId, { fraction: 0, present: true, ...current.get(fileId), ...change });
      return next;
    });

  useEffect(() => {
    if (!batchId) return;
    uploader.current = createUploader(batchId, {
      progress: (fileId, fraction) => setOne(fileId, { fraction }),
      arrived: (fileId) => {
        setOne(fileId, { fraction: 1, error: undefined });
        void bulkUploadApi
          .uploaded(batchId, fileId)
          .then(refresh, (error: unknown) => setOne(fileId, { error: errorMessage(error, 'Not saved') }));
      },
      failed: (fileId, message) =>
        setOne(fileId, { error: `Paused: ${message}. It continues from its last part.` }),
    });
    return () => {
      uploader.current?.close();
      uploader.current = null;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- one uploader per batch
  }, [batchId]);

  // A batch this browser remembers but the api no longer has (404): start afresh. Any other failure (a
  // dropped connection at the venue, a busy server) keeps it: forgetting it would lose her queue.
  const gone = batch.error instanceof ApiError && batch.error.status === 404;
  useEffect(() => {
    if (gone) {
      localStorage.removeItem(batchStorageKey(showcaseId));
      setBatchId(null);
    }
  }, [gone, showcaseId]);

  const data = batch.data;
  const firstEntryId = data?.firstEntryId ?? '';
  // Entries she did not film: skipped when camera files follow the programme's order. Kept with the
  // batch, so a reload or the other laptop skips them too.
  const notFilmed = useMemo(() => new Set(data?.notFilmed), [data]);
  const review = useMemo(
    () =>
      data
        ? reviewMatches(
            data.files.map((file) => ({ key: file.id, entryId: file.entryId })),
            data.entries,
            notFilmed,
          )
        : null,
    [data, notFilmed],
  );
  const shared = useMemo(() => new Set(review?.shared.flatMap((group) => group.fileKeys)), [review]);

  const startBatch = async () => {
    const created = await bulkUploadApi.create(showcaseId);
    localStorage.setItem(batchStorageKey(showcaseId), created.id);
    setLocal(new Map());
    setBatchId(created.id);
  };

  const addFiles = async (chosen: File[], current: UploadBatch) => {
    setBusy(true);
    const refused: string[] = [];
    const accepted: Array<{ data: File; capturedAt: number | null }> = [];
    for (const data of chosen) {
      const why = await refusal(data);
      if (why) refused.push(`${data.name}: ${why}`);
      else accepted.push({ data, capturedAt: (await inspectVideo(data)).capturedAt ?? data.lastModified });
    }
    setProblems(refused);
    const matches = matchFiles(
      accepted.map(({ data, capturedAt }) => ({
        key: `${data.name}\n${data.size}`,
        name: data.name,
        capturedAt,
      })),
      current.entries,
      { firstEntryId: current.firstEntryId, notFilmed },
    );
    // A few registrations at a time; each file starts sending as soon as it is registered.
    const queue = [...accepted];
    const worker = async () => {
      for (let next = queue.shift(); next; next = queue.shift()) {
        const { data, capturedAt } = next;
        const match = matches.get(`${data.name}\n${data.size}`);
        try {
          const file = await bulkUploadApi.register(current.id, {
            fileName: data.name,
            size: data.size,
            contentType: contentTypeOf(data),
            capturedAt,
            entryId: match?.entryId ?? null,
            matchedBy: match?.matchedBy ?? null,
          });
          setOne(file.id, { present: true, error: undefined });
          if (file.stage === 'uploading') uploader.current?.add(data, file);
        } catch (error) {
          refused.push(`${data.name}: ${errorMessage(error, 'could not be added')}`);
          setProblems([...refused]);
        }
      }
    };
    await Promise.all(Array.from({ length: FILES_AT_ONCE }, worker));
    await refresh();
    setBusy(false);
  };

  const act = async (what: () => Promise<unknown>, failure: string) => {
    try {
      await what();
    } catch (error) {
      toast({
        title: failure,
        description: errorMessage(error, 'Please try again.'),
        variant: 'destructive',
      });
    }
    await refresh();
  };

  /** Camera-named files follow the programme's order from the entry she picks for the first one. */
  const rematchByOrder = (entryId: string, skipped = notFilmed) =>
    act(async () => {
      if (!data) return;
      if (entryId !== firstEntryId) await setFirstEntry(entryId || null);
      if (!entryId) return;
      const matches = matchFiles(
        data.files
          .filter((file) => file.matchedBy !== 'hand' && file.matchedBy !== 'number')
          .map((file) => ({ key: file.id, name: file.fileName, capturedAt: file.capturedAt })),
        data.entries,
        { firstEntryId: entryId, notFilmed: skipped },
      );
      for (const [fileId, match] of matches)
        if (match.matchedBy === 'order') await bulkUploadApi.match(data.id, fileId, match.entryId, 'order');
    }, 'Could not match the files');

  if (!batchId || !data)
    return (
      <div className="space-y-3">
        <p className="text-zinc-300">
          Upload a competition&apos;s videos in one go: they are matched to the programme&apos;s entries by
          the numbers in their names, or by the order you shot them in.
        </p>
        <Button onClick={() => void act(startBatch, 'Could not start the upload')} disabled={batch.isLoading}>
          Start an upload
        </Button>
      </div>
    );

  const cameraFiles = data.files.filter((file) => file.matchedBy !== 'number' && file.matchedBy !== 'hand');
  const withoutFile = review?.withoutFile ?? [];
  return (
    <div className="space-y-6">
      <div
        className="rounded-2xl border border-dashed border-white/25 p-4"
        onDragOver={(event) => event.preventDefault()}
        onDrop={(event) => {
          event.preventDefault();
          void addFiles([...event.dataTransfer.files], data);
        }}
      >
        <Label htmlFor="bulk-upload-files">Video files (drop them here, or choose)</Label>
        <FileInput
          id="bulk-upload-files"
          multiple
          accept="video/*,.mp4,.mov,.m4v,.mkv,.webm"
          className="w-full"
          disabled={busy}
          onChange={(event) => {
            const files = [...(event.target.files ?? [])];
            event.target.value = '';
            void addFiles(files, data);
          }}
        />
        <p className="mt-2 text-xs text-zinc-400">
          Up to 5 GB a file. {FILES_AT_ONCE} files go at once; a dropped connection or a reload continues each
          file from its last part (choose the same files again after a reload).
        </p>
      </div>

      {problems.length > 0 && (
        <div
          role="alert"
          className="rounded-xl border border-red-400/40 bg-red-950/40 p-3 text-sm text-red-200"
        >
          <p className="font-semibold">Not added:</p>
          <ul className="mt-1 list-disc pl-5">
            {problems.map((problem) => (
              <li key={problem} className="break-words">
                {problem}
              </li>
            ))}
          </ul>
        </div>
      )}

      {review && data.files.length > 0 && (
        <section aria-labelledby="bulk-review-heading" className="space-y-3">
          <h2 id="bulk-review-heading" className="text-lg font-semibold text-white">
            Review
          </h2>
          <p className="text-sm text-zinc-300" aria-live="polite">
            {review.matched} matched · {review.unmatched} unmatched · {review.shared.length} entries with two
            files or more · {withoutFile.length} entries without a file
          </p>
          {cameraFiles.length > 0 && data.entries.length > 0 && (
            <div className="max-w-md">
              <Label htmlFor="bulk-first-entry">Camera-named files: entry of the first one shot</Label>
              <Select
                id="bulk-first-entry"
                className="w-full"
                value={firstEntryId}
                onChange={(event) => void rematchByOrder(event.target.value)}
              >
                <option value="">Choose the entry</option>
                {data.entries.map((entry) => (
                  <option key={entry.id} value={entry.id}>
                    {entryLabel(entry)}
                  </option>
                ))}
              </Select>
            </div>
          )}
          <ReviewTable
            batch={data}
            local={local}
            shared={shared}
            onMatch={(file: UploadFile, entryId) =>
              void act(() => bulkUploadApi.match(data.id, file.id, entryId), 'Could not change the entry')
            }
            onRetry={(file) =>
              void act(async () => {
                if (file.stage === 'uploading') uploader.current?.retry(file.id);
                else await bulkUploadApi.retry(data.id, file.id);
              }, 'Could not retry')
            }
            onRemove={(file) =>
              void act(() => bulkUploadApi.remove(data.id, file.id), 'Could not remove the file')
            }
          />
          {(withoutFile.length > 0 || notFilmed.size > 0) && (
            <details className="text-sm text-zinc-300">
              <summary className="cursor-pointer">
                Entries without a file ({withoutFile.length})
                {notFilmed.size > 0 && `, ${notFilmed.size} not filmed`}
              </summary>
              <p className="mt-2 text-xs text-zinc-400">
                Tick the entries you did not film: camera-named files then skip them.
              </p>
              <ul className="mt-2 grid gap-1 sm:grid-cols-2">
                {data.entries
                  .filter((entry) => withoutFile.includes(entry.id) || notFilmed.has(entry.id))
                  .map((entry) => (
                    <li key={entry.id}>
                      <CheckboxField
                        className="text-sm text-zinc-200"
                        checked={notFilmed.has(entry.id)}
                        onCheckedChange={(checked) =>
                          void act(async () => {
                            await markNotFilmed(entry.id, checked);
                            const next = new Set(notFilmed);
                            if (checked) next.add(entry.id);
                            else next.delete(entry.id);
                            if (firstEntryId) await rematchByOrder(firstEntryId, next);
                          }, 'Could not mark the entry')
                        }
                      >
                        {entryLabel(entry)}: not filmed
                      </CheckboxField>
                    </li>
                  ))}
              </ul>
            </details>
          )}
        </section>
      )}

      {data.files.length > 0 && (
        <section aria-labelledby="bulk-confirm-heading" className="space-y-3">
          <h2 id="bulk-confirm-heading" className="text-lg font-semibold text-white">
            {data.confirmedAt ? 'Confirmed' : 'Make the videos'}
          </h2>
          <p className="text-sm text-zinc-300">
            {data.confirmedAt
              ? 'Files still arriving become videos as they land. Confirming again changes nothing already made.'
              : 'Each uploaded file becomes a video with its entry’s title; the rest follow as they arrive.'}
          </p>
          <div className="flex flex-wrap items-end gap-4">
            <div>
              <Label htmlFor="bulk-price">Price (NZ$)</Label>
              <Input
                id="bulk-price"
                inputMode="decimal"
                className="w-32"
                value={price}
                onChange={(event) => setPrice(event.target.value)}
              />
            </div>
            <CheckboxField className="text-sm text-zinc-200" checked={publish} onCheckedChange={setPublish}>
              On sale once ready (a file that fails is never sold)
            </CheckboxField>
            <Button
              disabled={busy}
              onClick={() =>
                void act(
                  () =>
                    bulkUploadApi.confirm(data.id, {
                      publish,
                      priceCents: Math.max(0, Math.round(Number(price.replace(',', '.')) * 100) || 0),
                    }),
                  'Could not confirm',
                )
              }
            >
              {data.confirmedAt ? 'Confirm again' : 'Confirm and make the videos'}
            </Button>
          </div>
        </section>
      )}

      <Button variant="secondary" onClick={() => void act(startBatch, 'Could not start the upload')}>
        Start another upload
      </Button>
    </div>
  );
}
