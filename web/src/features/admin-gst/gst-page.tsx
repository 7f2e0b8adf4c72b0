import { errorMessage } from '../../lib/api.ts';
import { AdminLayout } from '../admin-shell/admin-layout.tsx';
import { GstReportSection } from './gst-report.tsx';
import { useGstSettings } from './queries.ts';
import { GstSettingsForm } from './settings-form.tsx';

export default function AdminGstPage() {
  const settings = useGstSettings();
  return (
    <AdminLayout title="GST and accounts">
      <div className="grid grid-cols-1 gap-8 lg:grid-cols-[minmax(0,22rem)_minmax(0,1fr)]">
        <section aria-labelledby="gst-settings-heading">
          <h2 id="gst-settings-heading" className="mb-3 font-display text-lg font-semibold text-white">
            Settings
          </h2>
          {settings.isError ? (
            <p className="text-red-300">{errorMessage(settings.error, 'Could not load the settings')}</p>
          ) : settings.data ? (
            <GstSettingsForm settings={settings.data} />
          ) : (
            <p className="text-zinc-400">Loading settings...</p>
          )}
        </section>
        <GstReportSection />
      </div>
    </AdminLayout>
  );
}
