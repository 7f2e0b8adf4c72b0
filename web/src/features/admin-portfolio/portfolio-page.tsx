import { useRef } from 'react';
import { ImagePlus } from 'lucide-react';
import { Button } from '../../components/ui/button.tsx';
import { ConfirmDialog } from '../../components/ui/confirm-dialog.tsx';
import { AdminLayout } from '../admin-shell/admin-layout.tsx';
import { PhotoList } from './photo-list.tsx';
import { PhotoUploads } from './photo-uploads.tsx';
import { useDeletePhoto, usePortfolioPhotos, useRefreshPortfolio } from './queries.ts';

export default function AdminPortfolioPage() {
  const photos = usePortfolioPhotos();
  const refresh = useRefreshPortfolio();
  const deletion = useDeletePhoto(refresh);
  const picker = useRef<HTMLInputElement>(null);

  return (
    <AdminLayout
      title="Portfolio Management"
      actions={
        <Button size="sm" onClick={() => picker.current?.click()}>
          <ImagePlus className="size-4" aria-hidden /> Upload Photos
        </Button>
      }
    >
      <PhotoUploads picker={picker} onUploaded={refresh} />
      <PhotoList photos={photos} onSaved={refresh} onDelete={deletion.ask} />
      <ConfirmDialog
        message="Are you sure you want to delete this photo? It leaves the website at once."
        {...deletion.dialog}
      />
    </AdminLayout>
  );
}
