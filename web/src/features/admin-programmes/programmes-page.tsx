import { useSearch } from 'wouter';
import { AdminLayout } from '../admin-shell/admin-layout.tsx';
import { CompetitionPicker } from '../admin-shell/competition-picker.tsx';
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
  return (
    <AdminLayout title="Programmes">
      <div className="space-y-6">
        <CompetitionPicker path="/admin/programmes" />
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
