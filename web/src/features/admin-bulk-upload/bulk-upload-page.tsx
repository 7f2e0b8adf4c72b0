import { useLocation, useSearch } from 'wouter';
import { useQuery } from '@tanstack/react-query';
import type { AdminShowcase } from '@app/shared/schemas';
import { FilterSelect } from '../../components/ui/input.tsx';
import { api } from '../../lib/api.ts';
import { AdminLayout } from '../admin-shell/admin-layout.tsx';
import { adminKeys } from '../admin-shell/query-keys.ts';
import { BulkUploadScreen } from './bulk-upload-screen.tsx';

/** /admin/uploads?showcase=<id>: a competition's videos in one batch (docs/decisions/033). */
export default function AdminBulkUploadPage() {
  const showcaseId = new URLSearchParams(useSearch()).get('showcase') ?? '';
  const [, navigate] = useLocation();
  const showcases = useQuery({
    queryKey: adminKeys.showcases,
    queryFn: () => api.get<AdminShowcase[]>('/api/admin/showcases'),
  });
  return (
    <AdminLayout title="Competition upload">
      <div className="space-y-6">
        <div className="flex flex-wrap items-center gap-3">
          <label htmlFor="bulk-upload-showcase" className="text-sm text-zinc-300">
            Competition
          </label>
          <FilterSelect
            label="Competition"
            className="w-full sm:w-80"
            value={showcaseId}
            onChange={(id) =>
              navigate(id ? `/admin/uploads?showcase=${encodeURIComponent(id)}` : '/admin/uploads')
            }
            anyLabel="Choose a showcase"
            options={(showcases.data ?? []).map((showcase) => ({ value: showcase.id, label: showcase.name }))}
          />
        </div>
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
