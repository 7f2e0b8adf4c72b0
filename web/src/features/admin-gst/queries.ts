import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { GstReport, GstSettings, GstSettingsInput } from '@app/shared/schemas';
import { api } from '../../lib/api.ts';
import { useAdminMutation } from '../admin-shell/admin-mutation.ts';
import { adminKeys } from '../admin-shell/query-keys.ts';

export function useGstSettings() {
  return useQuery({
    queryKey: adminKeys.gst.settings(),
    queryFn: () => api.get<GstSettings>('/api/admin/gst/settings'),
  });
}

/** The GST report over a period (its `from`/`to` query string), asked only when the period is `valid`. */
export function useGstReport(period: string, valid: boolean) {
  return useQuery({
    queryKey: adminKeys.gst.report(period),
    queryFn: () => api.get<GstReport>(`/api/admin/gst/report?${period}`),
    enabled: valid,
  });
}

/** Saves the registration; the settings and every report are asked again. */
export function useSaveGstSettings() {
  const client = useQueryClient();
  return useAdminMutation({
    failure: 'Could not save the GST settings',
    success: 'GST settings saved',
    mutationFn: (settings: GstSettingsInput) => api.put<GstSettings>('/api/admin/gst/settings', settings),
    onSuccess: () => client.invalidateQueries({ queryKey: adminKeys.gst.all }),
  });
}
