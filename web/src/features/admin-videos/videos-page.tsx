import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Upload } from 'lucide-react';
import { Button } from '../../components/ui/button.tsx';
import { Dialog, DialogContent } from '../../components/ui/dialog.tsx';
import { api } from '../../lib/api.ts';
import { AdminLayout } from '../admin-shell/admin-layout.tsx';
import { adminKeys } from '../admin-shell/query-keys.ts';
import { EditDialog, useEditDialog } from '../admin-shell/edit-dialog.tsx';
import { AddButton } from '../admin-shell/row-actions.tsx';
import { BulkUpload } from './bulk-upload.tsx';
import { ShowcaseForm, ShowcaseOrder } from './showcase-order.tsx';
import type { AdminVideo, Showcase } from './shared.ts';
import { VideoForm } from './video-dialog.tsx';
import { VideoList } from './video-list.tsx';
import { DeleteVideoDialog } from './video-publishing.tsx';

// The admin video screen: its parts live in features/admin-videos/ (list and filters, bulk actions,
// showcase order, the video dialog, bulk upload); this page holds the dialogs they open.
export default function AdminVideosPage() {
  const client = useQueryClient();
  const showcases = useQuery({
    queryKey: adminKeys.showcases,
    queryFn: () => api.get<Showcase[]>('/api/admin/showcases'),
  });
  const [bulkOpen, setBulkOpen] = useState(false);
  const [deleting, setDeleting] = useState<AdminVideo | null>(null);
  const refresh = () =>
    Promise.all(
      [adminKeys.videos.all, adminKeys.showcases, ['/api/library'], ['/api/showcases']].map((queryKey) =>
        client.invalidateQueries({ queryKey }),
      ),
    );
  const videoDialog = useEditDialog<AdminVideo>(refresh);
  const showcaseDialog = useEditDialog<Showcase>(refresh);

  return (
    <AdminLayout
      title="Video Management"
      actions={
        <>
          <AddButton variant="secondary" onClick={() => showcaseDialog.open('new')}>
            New Showcase
          </AddButton>
          <Button size="sm" variant="secondary" onClick={() => setBulkOpen(true)}>
            <Upload className="size-4" aria-hidden /> Bulk Upload
          </Button>
          <AddButton onClick={() => videoDialog.open('new')}>Add Video</AddButton>
        </>
      }
    >
      <ShowcaseOrder showcases={showcases.data ?? []} onEdit={showcaseDialog.open} onSaved={refresh} />
      <VideoList
        showcases={showcases.data ?? []}
        onEdit={videoDialog.open}
        onDelete={setDeleting}
        onAdd={() => videoDialog.open('new')}
        onChanged={refresh}
      />

      <EditDialog dialog={videoDialog} title={{ new: 'Add Video', edit: 'Edit Video' }} className="max-w-xl">
        {(video) => <VideoForm video={video} showcases={showcases.data ?? []} onDone={videoDialog.saved} />}
      </EditDialog>
      <EditDialog dialog={showcaseDialog} title={{ new: 'New Showcase', edit: 'Edit Showcase' }}>
        {(showcase) => <ShowcaseForm showcase={showcase} onDone={showcaseDialog.saved} />}
      </EditDialog>
      <Dialog open={bulkOpen} onOpenChange={setBulkOpen}>
        {bulkOpen && (
          <DialogContent
            title="Bulk Upload"
            description="One video per file; edit titles and prices afterwards."
            className="max-w-xl"
          >
            <BulkUpload
              showcases={showcases.data ?? []}
              onSaved={refresh}
              onClose={() => setBulkOpen(false)}
            />
          </DialogContent>
        )}
      </Dialog>
      <DeleteVideoDialog video={deleting} onClose={() => setDeleting(null)} onChanged={refresh} />
    </AdminLayout>
  );
}
