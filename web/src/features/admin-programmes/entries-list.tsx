import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Pencil, X } from 'lucide-react';
import type { AdminEntries, AdminEntry, AdminVideoList } from '@app/shared/schemas';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { ConfirmDialog } from '../../components/ui/confirm-dialog.tsx';
import { FilterSelect, Input, InputField, Label } from '../../components/ui/input.tsx';
import { api } from '../../lib/api.ts';
import { useAdminMutation } from '../admin-shell/admin-mutation.ts';
import { adminKeys } from '../admin-shell/query-keys.ts';
import { useConfirmDelete } from '../admin-shell/confirm-delete.ts';
import { EditDialog, useEditDialog } from '../admin-shell/edit-dialog.tsx';
import { FormSubmit } from '../admin-shell/form-submit.tsx';
import { ProgrammeSettingsForm } from './programme-settings.tsx';

type Filter = 'all' | 'with-video' | 'without-video' | 'sold';

/** The showcase's entries: search, filters, edit (and link a video), merge and remove dancers. */
export function EntriesList({
  showcaseId,
  initialQuery = '',
}: {
  showcaseId: string;
  initialQuery?: string;
}) {
  const client = useQueryClient();
  const [q, setQ] = useState(initialQuery);
  const [filter, setFilter] = useState<Filter>('all');
  const [page, setPage] = useState(1);
  const params = new URLSearchParams({ filter, page: String(page), ...(q.trim() && { q: q.trim() }) });
  const list = useQuery({
    queryKey: adminKeys.entries.page(showcaseId, params.toString()),
    queryFn: () =>
      api.get<AdminEntries>(
        `/api/admin/showcases/${encodeURIComponent(showcaseId)}/entries?${params.toString()}`,
      ),
  });
  const refresh = () => client.invalidateQueries({ queryKey: adminKeys.entries.of(showcaseId) });
  const dialog = useEditDialog<AdminEntry>(refresh);
  const removal = useConfirmDelete<{ id: string; name: string }>({
    remove: (dancer) => api.delete(`/api/admin/dancers/${encodeURIComponent(dancer.id)}`),
    onDeleted: refresh,
    success: 'Dancer removed',
    failure: 'Failed to remove the dancer',
  });
  const [removing, setRemoving] = useState<{ id: string; name: string } | null>(null);
  const data = list.data;
  const dancers = [
    ...new Map(
      (data?.items ?? []).flatMap((entry) => entry.dancers.map((dancer) => [dancer.id, dancer])),
    ).values(),
  ].sort((a, b) => a.name.localeCompare(b.name));
  const pages = data ? Math.max(1, Math.ceil(data.total / data.pageSize)) : 1;

  return (
    <div className="space-y-6">
      {data && <ProgrammeSettingsForm key={showcaseId} showcaseId={showcaseId} settings={data.settings} />}
      <Card className="p-5">
        <div className="flex flex-wrap items-end gap-3">
          <h2 className="mr-auto text-lg font-semibold text-white">
            Entries{data ? ` (${data.total})` : ''}
          </h2>
          <Input
            type="search"
            aria-label="Search entries"
            placeholder="Entry, dancer, studio, section"
            className="w-64"
            value={q}
            onChange={(event) => {
              setQ(event.target.value);
              setPage(1);
            }}
          />
          <FilterSelect
            label="Show"
            value={filter === 'all' ? '' : filter}
            onChange={(value) => {
              setFilter((value || 'all') as Filter);
              setPage(1);
            }}
            anyLabel="All entries"
            options={[
              { value: 'with-video', label: 'With a video' },
              { value: 'without-video', label: 'Without a video' },
              { value: 'sold', label: 'Sold' },
            ]}
          />
          <Button asChild variant="secondary" size="sm">
            <a href={`/api/admin/showcases/${encodeURIComponent(showcaseId)}/entries.csv`}>Export CSV</a>
          </Button>
        </div>
        {list.isError && <p className="mt-4 text-red-300">Failed to load the entries.</p>}
        {data && data.items.length === 0 && (
          <p className="mt-4 text-zinc-400">
            No entries{q || filter !== 'all' ? ' match' : ' yet: import the programme above'}.
          </p>
        )}
        {data && data.items.length > 0 && (
          <div className="mt-4 overflow-x-auto">
            <table className="w-full text-left text-sm text-zinc-200">
              <thead className="text-zinc-400">
                <tr>
                  <th className="py-1 pr-3">Entry</th>
                  <th className="py-1 pr-3">Routine</th>
                  <th className="py-1 pr-3">Dancers</th>
                  <th className="py-1 pr-3">Studio</th>
                  <th className="py-1 pr-3">Videos</th>
                  <th className="py-1 pr-3">
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {data.items.map((entry) => (
                  <tr key={entry.id} className="border-t border-white/10 align-top">
                    <td className="py-2 pr-3 font-semibold">{entry.entryNumber}</td>
                    <td className="py-2 pr-3">
                      {entry.title}
                      <div className="text-xs text-zinc-400">{entry.section}</div>
                    </td>
                    <td className="py-2 pr-3">
                      {entry.dancers.map((dancer) => (
                        <span
                          key={dancer.id}
                          className="mr-1 mb-1 inline-flex items-center gap-1 rounded-full bg-white/10 px-2 py-0.5"
                        >
                          {dancer.name}
                          <button
                            type="button"
                            aria-label={`Remove ${dancer.name} from the programme`}
                            className="text-zinc-400 hover:text-red-300"
                            onClick={() => {
                              setRemoving(dancer);
                              removal.ask(dancer);
                            }}
                          >
                            <X className="size-3" aria-hidden />
                          </button>
                        </span>
                      ))}
                    </td>
                    <td className="py-2 pr-3">{entry.studio}</td>
                    <td className="py-2 pr-3">
                      {entry.videos.length}
                      {entry.sold && <span className="ml-1 text-emerald-300">sold</span>}
                    </td>
                    <td className="py-2 pr-3">
                      <Button
                        variant="ghost"
                        size="sm"
                        onClick={() => dialog.open(entry)}
                        aria-label={`Edit entry ${entry.entryNumber}`}
                      >
                        <Pencil className="size-4" aria-hidden /> Edit
                      </Button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
            {pages > 1 && (
              <div className="mt-4 flex items-center gap-3">
                <Button variant="secondary" size="sm" disabled={page <= 1} onClick={() => setPage(page - 1)}>
                  Previous
                </Button>
                <span className="text-sm text-zinc-400">
                  Page {page} of {pages}
                </span>
                <Button
                  variant="secondary"
                  size="sm"
                  disabled={page >= pages}
                  onClick={() => setPage(page + 1)}
                >
                  Next
                </Button>
              </div>
            )}
          </div>
        )}
      </Card>
      {dancers.length > 1 && <MergeDancers showcaseId={showcaseId} dancers={dancers} onMerged={refresh} />}
      <EditDialog dialog={dialog} title={{ new: 'Entry', edit: 'Edit entry' }}>
        {(entry) => entry && <EntryForm showcaseId={showcaseId} entry={entry} onSaved={dialog.saved} />}
      </EditDialog>
      <ConfirmDialog
        {...removal.dialog}
        confirmLabel="Remove"
        message={`Remove ${removing?.name ?? 'this dancer'} from every entry of this programme? The routines stay; the name goes from the site at once.`}
      />
    </div>
  );
}

function MergeDancers({
  showcaseId,
  dancers,
  onMerged,
}: {
  showcaseId: string;
  dancers: Array<{ id: string; name: string }>;
  onMerged: () => Promise<unknown>;
}) {
  const [keepId, setKeepId] = useState('');
  const [mergeId, setMergeId] = useState('');
  const merge = useAdminMutation({
    mutationFn: () =>
      api.post(`/api/admin/showcases/${encodeURIComponent(showcaseId)}/dancers/merge`, { keepId, mergeId }),
    failure: 'Failed to merge the dancers',
    success: 'Dancers merged',
    onSuccess: async () => {
      setMergeId('');
      await onMerged();
    },
  });
  const options = dancers.map((dancer) => ({ value: dancer.id, label: dancer.name }));
  return (
    <Card className="p-5">
      <h2 className="text-lg font-semibold text-white">Merge two dancers</h2>
      <p className="mt-1 text-sm text-zinc-400">
        One child spelled two ways (dancers of the entries shown above).
      </p>
      <form
        className="mt-3 flex flex-wrap items-end gap-3"
        onSubmit={(event) => {
          event.preventDefault();
          merge.mutate();
        }}
      >
        <FilterSelect
          label="Keep this spelling"
          value={keepId}
          onChange={setKeepId}
          anyLabel="Keep..."
          options={options}
        />
        <FilterSelect
          label="Merge into it"
          value={mergeId}
          onChange={setMergeId}
          anyLabel="Merge..."
          options={options.filter((option) => option.value !== keepId)}
        />
        <FormSubmit pending={merge.isPending} disabled={!keepId || !mergeId}>
          Merge
        </FormSubmit>
      </form>
    </Card>
  );
}

function EntryForm({
  showcaseId,
  entry,
  onSaved,
}: {
  showcaseId: string;
  entry: AdminEntry;
  onSaved: () => Promise<unknown>;
}) {
  const [fields, setFields] = useState({
    section: entry.section,
    title: entry.title,
    studio: entry.studio ?? '',
    dancers: entry.dancers.map((dancer) => dancer.name).join(', '),
  });
  const [videoId, setVideoId] = useState('');
  const videos = useQuery({
    queryKey: adminKeys.videos.forEntry(showcaseId),
    queryFn: () =>
      api.get<AdminVideoList>(`/api/admin/videos?showcase=${encodeURIComponent(showcaseId)}&pageSize=200`),
  });
  const save = useAdminMutation({
    mutationFn: async () => {
      await api.put(`/api/admin/entries/${encodeURIComponent(entry.id)}`, {
        section: fields.section,
        title: fields.title,
        studio: fields.studio,
        dancers: fields.dancers
          .split(',')
          .map((name) => name.trim())
          .filter(Boolean),
      });
      if (videoId) await api.post('/api/admin/entries/link-video', { videoId, entryId: entry.id });
    },
    failure: 'Failed to save the entry',
    success: 'Entry saved',
    onSuccess: onSaved,
  });
  const set = (name: keyof typeof fields) => ({
    value: fields[name],
    onChange: (event: { target: { value: string } }) => setFields({ ...fields, [name]: event.target.value }),
  });
  const linked = new Set(entry.videos.map((video) => video.id));
  return (
    <form
      className="space-y-4"
      onSubmit={(event) => {
        event.preventDefault();
        save.mutate();
      }}
    >
      <p className="text-sm text-zinc-400">Entry {entry.entryNumber}</p>
      <InputField id="entry-title" label="Routine title" maxLength={200} {...set('title')} />
      <InputField id="entry-section" label="Section" maxLength={200} {...set('section')} />
      <InputField id="entry-studio" label="Studio" maxLength={120} {...set('studio')} />
      <InputField id="entry-dancers" label="Dancers (separated by commas)" {...set('dancers')} />
      <div>
        <Label htmlFor="entry-video">Link a video of this showcase</Label>
        <select
          id="entry-video"
          className="mt-1 block w-full rounded-md border border-white/15 bg-stage-900 px-3 py-2 text-white"
          value={videoId}
          onChange={(event) => setVideoId(event.target.value)}
        >
          <option value="">No change</option>
          {(videos.data?.videos ?? [])
            .filter((video) => !linked.has(video.id))
            .map((video) => (
              <option key={video.id} value={video.id}>
                {video.title}
              </option>
            ))}
        </select>
        {entry.videos.length > 0 && (
          <p className="mt-1 text-xs text-zinc-400">
            Linked: {entry.videos.map((video) => video.title).join(', ')}
          </p>
        )}
      </div>
      <FormSubmit pending={save.isPending}>Save entry</FormSubmit>
    </form>
  );
}
