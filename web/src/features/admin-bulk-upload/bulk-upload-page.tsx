import { AdminLayout } from '../admin-shell/admin-layout.tsx';
import { CompetitionPicker, useChosenCompetition } from '../admin-shell/competition-picker.tsx';
import { BulkUploadScreen } from './bulk-upload-screen.tsx';

/** /admin/uploads?showcase=<id>: a competition's videos in one batch (docs/decisions/033). */
export default function AdminBulkUploadPage() {
  const showcaseId = useChosenCompetition();
  return (
    <AdminLayout title="Competition upload">
      <div className="space-y-6">
        <CompetitionPicker path="/admin/uploads" />
        {showcaseId ? (
          <BulkUploadScreen key={showcaseId} showcaseId={showcaseId} />
        ) : (
          <p className="text-zinc-400">
            Choose the showcase (one competition) whose videos you are uploading; import its programme first
            to match the files to its entries.
          </p>
        )}
      </div>
    </AdminLayout>
  );
}
