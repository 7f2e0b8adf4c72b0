import { useSearch } from 'wouter';
import type { AdminShowcase } from '@app/shared/schemas';
import { AdminLayout } from '../admin-shell/admin-layout.tsx';
import { CompetitionPicker, useAdminShowcases } from '../admin-shell/competition-picker.tsx';
import { EntriesList } from './entries-list.tsx';
import { ProgrammeImport } from './programme-import.tsx';

const qr = (showcaseId: string, format: 'png' | 'svg') =>
  `/api/admin/showcases/${encodeURIComponent(showcaseId)}/qr.${format}`;

/**
 * What parents who scan the code will not get, when the showcase is not public and published: "find
 * your dancer" answers names in public showcases only (decisions 030 and 032).
 */
function scanNote({ published, privacy }: AdminShowcase): string | undefined {
  if (!published)
    return 'This showcase is hidden: the page the code opens shows none of its videos until you publish it.';
  if (privacy === 'unlisted')
    return 'This showcase is unlisted: parents who scan can watch and buy its videos, but “find your dancer” finds names only in public showcases.';
  if (privacy === 'code')
    return 'This showcase is behind an access code: parents who scan need the code for its videos, and “find your dancer” finds names only in public showcases.';
  return undefined;
}

/** /admin/programmes?showcase=<id>: a competition's programme (docs/decisions/032). */
export default function AdminProgrammesPage() {
  const params = new URLSearchParams(useSearch());
  const showcaseId = params.get('showcase') ?? '';
  // ?q= (the season view's link to fix an entry): the entries list opens searched for it.
  const q = params.get('q') ?? '';
  const showcase = useAdminShowcases().data?.find((candidate) => candidate.id === showcaseId);
  const note = showcase && scanNote(showcase);
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
            {note && (
              <p className="text-sm text-amber-200">
                {note} Who can see it is set in the showcase&apos;s settings, under Videos.
              </p>
            )}
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
