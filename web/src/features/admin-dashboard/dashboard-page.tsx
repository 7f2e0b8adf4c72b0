import { AdminLayout } from '../admin-shell/admin-layout.tsx';
import { QuickTips } from './quick-tips.tsx';
import { ScreenCards } from './screen-cards.tsx';

export default function AdminDashboardPage() {
  return (
    <AdminLayout title="Admin Dashboard">
      <ScreenCards />
      <QuickTips />
    </AdminLayout>
  );
}
