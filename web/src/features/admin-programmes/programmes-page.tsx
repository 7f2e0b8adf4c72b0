import { useLocation, useSearch } from 'wouter';
import { useQuery } from '@tanstack/react-query';
import type { AdminShowcase } from '@app/shared/schemas';
import { FilterSelect } from '../../components/ui/input.tsx';
import { api } from '../../lib/api.ts';
import { AdminLayout } from '../admin-shell/admin-layout.tsx';
import { adminKeys } from '../admin-shell/query-keys.ts';
import { EntriesList } from './entries-list.tsx';
import { ProgrammeImport } from './programme-import.tsx';

const qr = (showcaseId: string, format: 'png' | 'svg') =>
  `/api/admin/showcases/${encodeURIComponent(showcaseId)}/qr.${format}`;

/** /admin/programmes?showcase=<id>: a competition's programme (docs/decisions/032). */
export default function AdminProgrammesPage() {
  const params = new URLSearchParams(useSearch());
  const showcaseId = params.get('showcase') ?? '';
  // ?q= (the season view's link to fix an entry): the entries list opens searched for it.
  const q = params.get('q') ?? '';
  const [, navigate] = useLocation();
  const showcases = useQuery({
    queryKey: adminKeys.showcases,
    queryFn: () => api.get<AdminShowcase[]>('/api/admin/showcases'),
  });
  return (
    <AdminLayout title="Programmes">
      <div className="space-y-6">
        <div className="flex flex-wrap items-center gap-3">
          <label htmlFor="programme-showcase" className="text-sm text-zinc-300">
            Competition
          </label>
          <FilterSelect
            label="Competition"
            className="w-80"
            value={showcaseId}
            onChange={(id) =>
              navigate(id ? `/admin/programmes?showcase=${encodeURIComponent(id)}` : '/admin/programmes')
            }
            anyLabel="Choose a showcase"
            options={(showcases.data ?? []).map((showcase) => ({ value: showcase.id, label: showcase.name }))}
          />
        </div>
        {showcaseId ? (
          <>
            <p className="text-sm text-zinc-300">
              QR code of this competition&apos;s search page, for the printed programme and the venue&apos;s
              screens:{' '}
              <a className="font-semibold text-spotlight-300 underline" href={qr(showcaseId, 'png')}>
                PNG
              </a>{' '}
              ·{' '}
              <a className="font-semibold text-spotlight-300 underline" href={qr(showcaseId, 'svg')}>
                SVG
              </a>
            </p>
            <ProgrammeImport key={`import-${showcaseId}`} showcaseId={showcaseId} />
            <EntriesList key={`${showcaseId}-${q}`} showcaseId={showcaseId} initialQuery={q} />
          </>
        ) : (
          <p className="text-zinc-400">
            Choose the showcase (one competition or show) whose programme you want to import or edit.
          </p>
        )}
      </div>
    </AdminLayout>
  );
}
