import { FileSpreadsheet, RefreshCw } from 'lucide-react';
import { Button } from '../../components/ui/button.tsx';
import { cardClass } from '../../components/ui/card.tsx';
import { AdminSection } from '../admin-shell/admin-section.tsx';
import { useSync } from './use-sync.ts';

/** What the sync does, and the button that starts it (busy, with its progress, while one runs). */
export function SyncPanel({ configured }: { configured: boolean | undefined }) {
  const { start, syncing, progress } = useSync();
  return (
    <AdminSection
      id="sync-title"
      className={`${cardClass} p-6`}
      titleClassName="flex items-center gap-2 text-white"
      title={
        <>
          <FileSpreadsheet className="size-5 text-spotlight-400" aria-hidden /> Sync from the spreadsheet
        </>
      }
    >
      <p className="mt-3 text-sm text-zinc-300">
        The latest order links come from <strong className="text-white">column C</strong> of the
        competition-list spreadsheet. Syncing matches each row’s competition name (column A) to an event and
        updates the order links of matching events.
      </p>
      <p className="mt-3 text-sm text-zinc-400">
        The sync also runs on a schedule. Rows that match no event, or whose link is not a web address, are
        listed below so the sheet can be fixed.
      </p>
      {configured === false && (
        <p className="mt-3 text-sm text-amber-300">
          No spreadsheet or CSV is configured yet, so syncing is not available.
        </p>
      )}
      <Button className="mt-5" onClick={start} disabled={syncing} aria-busy={syncing}>
        <RefreshCw className={syncing ? 'size-4 animate-spin' : 'size-4'} aria-hidden />
        {syncing ? 'Syncing...' : 'Sync Order Links Now'}
      </Button>
      {syncing && progress !== null && (
        <div
          className="mt-4 h-2 overflow-hidden rounded-full bg-white/10"
          role="progressbar"
          aria-label="Sync progress"
          aria-valuenow={Math.round(progress)}
          aria-valuemin={0}
          aria-valuemax={100}
        >
          <div className="h-full bg-spotlight-400 transition-[width]" style={{ width: `${progress}%` }} />
        </div>
      )}
    </AdminSection>
  );
}
