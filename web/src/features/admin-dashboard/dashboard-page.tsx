import { AdminLayout } from '../../features/admin-shell/admin-layout.tsx';
import { QuickTips } from '../../features/admin-dashboard/quick-tips.tsx';
import { ScreenCards } from '../../features/admin-dashboard/screen-cards.tsx';

export default function AdminDashboardPage() {
  return (
    <AdminLayout title="Admin Dashboard">
      <ScreenCards />
      <QuickTips />
    </AdminLayout>
  );
}
