import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { FileSpreadsheet } from 'lucide-react';
import type { ProgrammeField, ProgrammeMapping, ProgrammePreview } from '@app/shared/schemas';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { FileInput, FilterSelect, Label } from '../../components/ui/input.tsx';
import { toast } from '../../components/ui/toast-store.ts';
import { ApiError, errorMessage } from '../../lib/api.ts';
import { adminKeys } from '../admin-shell/query-keys.ts';

const fieldLabels: Record<ProgrammeField, string> = {
  entryNumber: 'Entry number',
  section: 'Section',
  title: 'Routine title',
  dancers: 'Dancers',
  studio: 'Studio',
};

/** Sends the file itself as the body (the api reads it and keeps nothing) with the sheet and mapping. */
async function sendProgramme(
  showcaseId: string,
  action: 'preview' | 'import',
  file: File,
  sheet: string | undefined,
  mapping: ProgrammeMapping | null,
): Promise<ProgrammePreview> {
  const params = new URLSearchParams();
  if (sheet) params.set('sheet', sheet);
  if (mapping) params.set('mapping', JSON.stringify(mapping));
  const response = await fetch(
    `/api/admin/showcases/${encodeURIComponent(showcaseId)}/programme/${action}?${params.toString()}`,
    {
      method: 'POST',
      credentials: 'include',
      headers: { Accept: 'application/json', 'Content-Type': 'application/octet-stream' },
      body: file,
    },
  );
  const text = await response.text();
  // ApiError reads the api's error body (its message and code) itself.
  if (!response.ok) throw new ApiError(response.status, text);
  return JSON.parse(text) as ProgrammePreview;
}

/**
 * Programme import (docs/decisions/032): choose the file, the sheet and which column holds what; the
 * preview shows the first entries as they will be saved and every row that cannot be; Import writes
 * them all in one go, or nothing.
 */
export function ProgrammeImport({ showcaseId }: { showcaseId: string }) {
  const client = useQueryClient();
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<ProgrammePreview | null>(null);
  const [busy, setBusy] = useState<'preview' | 'import' | null>(null);
  const [error, setError] = useState<string | null>(null);

  const run = async (
    action: 'preview' | 'import',
    chosen: File,
    sheet: string | undefined,
    mapping: ProgrammeMapping | null,
  ) => {
    setBusy(action);
    setError(null);
    try {
      const answer = await sendProgramme(showcaseId, action, chosen, sheet, mapping);
      setPreview(answer);
      if (action === 'import') {
        toast({
          title: 'Programme imported',
          description: `${answer.counts.added} added, ${answer.counts.changed} changed, ${answer.counts.unchanged} unchanged.`,
          variant: 'success',
        });
        await client.invalidateQueries({ queryKey: adminKeys.entries.of(showcaseId) });
      }
    } catch (failure) {
      setError(errorMessage(failure, 'The programme could not be read'));
    } finally {
      setBusy(null);
    }
  };

  const mapping = preview?.mapping ?? null;
  const setColumn = (field: ProgrammeField, value: string) => {
    if (!file || !preview) return;
    const next = { ...(mapping ?? { entryNumber: 0 }) } as Record<string, number | undefined>;
    if (value === '') delete next[field];
    else next[field] = Number(value);
    if (next.entryNumber === undefined) return;
    void run('preview', file, preview.sheet, next as ProgrammeMapping);
  };

  return (
    <Card className="p-5">
      <h2 className="flex items-center gap-2 text-lg font-semibold text-white">
        <FileSpreadsheet className="size-5" aria-hidden /> Import the programme
      </h2>
      <p className="mt-1 text-sm text-zinc-400">
        A CSV or Excel file (5 MB at most). Nothing is saved until you press Import; the file itself is not
        kept.
      </p>
      <div className="mt-4">
        <Label htmlFor="programme-file">Programme file</Label>
        <FileInput
          id="programme-file"
          accept=".csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
          onChange={(event) => {
            const chosen = event.target.files?.[0] ?? null;
            // Emptied, so choosing the corrected file of the same name is a change again.
            event.target.value = '';
            setFile(chosen);
            setPreview(null);
            if (chosen) void run('preview', chosen, undefined, null);
          }}
        />
      </div>
      {error && (
        <p role="alert" className="mt-4 text-sm text-red-300">
          {error}
        </p>
      )}
      {busy === 'preview' && <p className="mt-4 text-sm text-zinc-400">Reading the file...</p>}
      {preview && file && (
        <div className="mt-5 space-y-5">
          {preview.sheets.length > 1 && (
            <div>
              <Label htmlFor="programme-sheet">Sheet</Label>
              <select
                id="programme-sheet"
                className="mt-1 block rounded-md border border-white/15 bg-stage-900 px-3 py-2 text-white"
                value={preview.sheet}
                onChange={(event) => void run('preview', file, event.target.value, null)}
              >
                {preview.sheets.map((sheet) => (
                  <option key={sheet}>{sheet}</option>
                ))}
              </select>
            </div>
          )}
          <fieldset>
            <legend className="text-sm font-semibold text-white">
              Columns{preview.remembered && ' (as you mapped them last time)'}
            </legend>
            <div className="mt-2 grid gap-3 sm:grid-cols-3 lg:grid-cols-5">
              {(Object.keys(fieldLabels) as ProgrammeField[]).map((field) => (
                <label key={field} className="text-sm text-zinc-300">
                  {fieldLabels[field]}
                  <FilterSelect
                    label={`${fieldLabels[field]} column`}
                    className="mt-1 w-full"
                    value={mapping?.[field] === undefined ? '' : String(mapping[field])}
                    onChange={(value) => setColumn(field, value)}
                    anyLabel={field === 'entryNumber' ? 'Choose a column' : 'Not in this file'}
                    options={preview.headers.map((header, index) => ({
                      value: String(index),
                      label: header || `Column ${index + 1}`,
                    }))}
                  />
                </label>
              ))}
            </div>
          </fieldset>
          <p className="text-sm text-zinc-300" aria-live="polite">
            {preview.counts.entries} entries, {preview.counts.dancers} dancers, {preview.counts.studios}{' '}
            studios: {preview.counts.added} new, {preview.counts.changed} changed, {preview.counts.unchanged}{' '}
            unchanged{preview.removed > 0 && `, ${preview.removed} without a video removed`}.
          </p>
          {preview.problems.length > 0 && (
            <div role="alert" className="rounded-xl border border-red-400/40 bg-red-500/10 p-4">
              <p className="font-semibold text-red-200">
                {preview.problems.length} {preview.problems.length === 1 ? 'row needs' : 'rows need'} fixing
                in the file before it can be imported:
              </p>
              <ul className="mt-2 list-disc pl-5 text-sm text-red-100">
                {preview.problems.slice(0, 50).map((problem) => (
                  <li key={`${problem.row}-${problem.message}`}>
                    Row {problem.row}: {problem.message}
                  </li>
                ))}
              </ul>
            </div>
          )}
          {preview.vanished.length > 0 && (
            <div className="rounded-xl border border-amber-400/40 bg-amber-500/10 p-4 text-sm text-amber-100">
              <p className="font-semibold">Not in the new programme (kept: they have videos or sales):</p>
              <ul className="mt-2 list-disc pl-5">
                {preview.vanished.map((entry) => (
                  <li key={entry.entryNumber}>
                    Item {entry.entryNumber}
                    {entry.title && `: ${entry.title}`} ({entry.videoCount}{' '}
                    {entry.videoCount === 1 ? 'video' : 'videos'}
                    {entry.sold ? ', sold' : ''})
                  </li>
                ))}
              </ul>
            </div>
          )}
          {preview.entries.length > 0 && (
            <div className="overflow-x-auto">
              <table className="w-full text-left text-sm text-zinc-200">
                <caption className="mb-2 text-left text-zinc-400">
                  {preview.imported ? 'Imported' : 'The first entries as they will be saved'}
                </caption>
                <thead className="text-zinc-400">
                  <tr>
                    <th className="py-1 pr-3">Row</th>
                    <th className="py-1 pr-3">Entry</th>
                    <th className="py-1 pr-3">Section</th>
                    <th className="py-1 pr-3">Routine</th>
                    <th className="py-1 pr-3">Dancers</th>
                    <th className="py-1 pr-3">Studio</th>
                  </tr>
                </thead>
                <tbody>
                  {preview.entries.map((entry) => (
                    <tr key={entry.entryNumber} className="border-t border-white/10">
                      <td className="py-1 pr-3">{entry.row}</td>
                      <td className="py-1 pr-3">{entry.entryNumber}</td>
                      <td className="py-1 pr-3">{entry.section}</td>
                      <td className="py-1 pr-3">{entry.title}</td>
                      <td className="py-1 pr-3">{entry.dancers.join(', ')}</td>
                      <td className="py-1 pr-3">{entry.studio}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          {!preview.imported && (
            <Button
              disabled={busy !== null || preview.problems.length > 0 || !mapping}
              onClick={() => void run('import', file, preview.sheet, mapping)}
            >
              {busy === 'import' ? 'Importing...' : `Import ${preview.counts.entries} entries`}
            </Button>
          )}
        </div>
      )}
    </Card>
  );
}
