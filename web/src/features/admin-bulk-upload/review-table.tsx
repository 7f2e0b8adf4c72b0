import type { UploadBatch, UploadBatchEntry, UploadFile } from '@app/shared/schemas';
import { Button } from '../../components/ui/button.tsx';
import { Select } from '../../components/ui/input.tsx';
import { Progress } from '../../components/ui/progress.tsx';
import { Table, TableCell, TableRow } from '../../components/ui/table.tsx';

const stageLabel: Record<UploadFile['stage'], string> = {
  uploading: 'Uploading',
  uploaded: 'Uploaded',
  probing: 'Checking the file',
  poster: 'Making the poster',
  preview: 'Making the preview',
  ready: 'Ready',
  failed: 'Failed',
  duplicate: 'Already uploaded',
};

const stageTone: Record<UploadFile['stage'], string> = {
  uploading: 'text-zinc-300',
  uploaded: 'text-zinc-300',
  probing: 'text-spotlight-300',
  poster: 'text-spotlight-300',
  preview: 'text-spotlight-300',
  ready: 'text-emerald-300',
  failed: 'text-red-300',
  duplicate: 'text-amber-300',
};

export const entryLabel = (entry: UploadBatchEntry) =>
  `${entry.entryNumber}${entry.title ? ` · ${entry.title}` : entry.section ? ` · ${entry.section}` : ''}`;

/** "Item 2" before "Item 10". */
const byName = (a: UploadFile, b: UploadFile) =>
  a.fileName.localeCompare(b.fileName, undefined, { numeric: true });

const fileSize = (bytes: number) =>
  bytes >= 1024 ** 3
    ? `${(bytes / 1024 ** 3).toFixed(2)} GB`
    : bytes >= 1024 ** 2
      ? `${(bytes / 1024 ** 2).toFixed(1)} MB`
      : `${Math.ceil(bytes / 1024)} KB`;

const matchNote: Record<NonNullable<UploadFile['matchedBy']>, string> = {
  number: 'by its number',
  order: 'by the order shot',
  hand: 'by you',
};

/**
 * One row per file: its name, the entry it is matched to (hers to change), and where it is. Three
 * columns, whose cells wrap, so the table fits a phone's width without scrolling sideways.
 */
export function ReviewTable({
  batch,
  local,
  shared,
  onMatch,
  onRetry,
  onRemove,
}: {
  batch: UploadBatch;
  /** This tab's own progress of the files it is sending, and the files it still needs chosen again. */
  local: Map<string, { fraction: number; error?: string; present: boolean }>;
  /** Files sharing an entry with another file. */
  shared: Set<string>;
  onMatch: (file: UploadFile, entryId: string | null) => void;
  onRetry: (file: UploadFile) => void;
  onRemove: (file: UploadFile) => void;
}) {
  return (
    <Table
      label="Files of this upload and their entries"
      columns={[{ label: 'File' }, { label: 'Entry' }, { label: 'Stage' }]}
      // The entry's column gets the most room: at phone width its picker still shows the routine's name.
      tableClassName="table-fixed [&_th:nth-child(2)]:w-[42%] [&_th:nth-child(3)]:w-[28%]"
    >
      {[...batch.files].sort(byName).map((file) => {
        const mine = local.get(file.id);
        const waiting = file.stage === 'uploading' && !mine?.present;
        return (
          <TableRow key={file.id}>
            <TableCell className="align-top [overflow-wrap:anywhere]">
              <span className="font-medium text-zinc-100">{file.fileName}</span>
              <span className="mt-1 block text-xs text-zinc-400">{fileSize(file.size)}</span>
            </TableCell>
            <TableCell className="align-top">
              <Select
                aria-label={`Entry of ${file.fileName}`}
                className="w-full"
                value={file.entryId ?? ''}
                disabled={file.stage === 'duplicate'}
                onChange={(event) => onMatch(file, event.target.value || null)}
              >
                <option value="">No entry</option>
                {batch.entries.map((entry) => (
                  <option key={entry.id} value={entry.id}>
                    {entryLabel(entry)}
                  </option>
                ))}
              </Select>
              <span className="mt-1 block text-xs text-zinc-400">
                {file.entryId && file.matchedBy ? `Matched ${matchNote[file.matchedBy]}` : 'Unmatched'}
                {shared.has(file.id) && (
                  <span className="text-amber-300"> · another file has this entry</span>
                )}
              </span>
            </TableCell>
            <TableCell className="align-top">
              <span className={`font-medium ${stageTone[file.stage]}`}>{stageLabel[file.stage]}</span>
              {file.stage === 'uploading' && mine?.present && (
                <div className="mt-1">
                  <Progress fraction={mine.fraction} label={`${file.fileName} uploaded`} />
                </div>
              )}
              {waiting && (
                <span className="mt-1 block text-xs text-amber-300">Choose this file again to continue</span>
              )}
              {file.progress !== null && file.stage !== 'ready' && (
                <span className="mt-1 block text-xs text-zinc-400">{file.progress} %</span>
              )}
              {(file.reason || mine?.error) && (
                <span className="mt-1 block text-xs break-words text-red-300">
                  {file.reason ?? mine?.error}
                </span>
              )}
              <div className="mt-2 flex flex-wrap gap-2">
                {(file.stage === 'failed' || (mine?.error && file.stage === 'uploading')) && (
                  <Button size="sm" variant="secondary" onClick={() => onRetry(file)}>
                    Retry<span className="sr-only"> {file.fileName}</span>
                  </Button>
                )}
                {!file.videoId && (
                  <Button size="sm" variant="ghost" onClick={() => onRemove(file)}>
                    Remove<span className="sr-only"> {file.fileName}</span>
                  </Button>
                )}
              </div>
            </TableCell>
          </TableRow>
        );
      })}
    </Table>
  );
}
