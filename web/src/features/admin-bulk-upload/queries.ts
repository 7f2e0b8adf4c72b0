import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { UploadBatch, UploadFile } from '@app/shared/schemas';
import { api, ApiError } from '../../lib/api.ts';

/** The query keys of the bulk upload screen. */
export const bulkUploadKeys = {
  batch: (batchId: string) => ['/api/admin/upload-batches', batchId] as const,
};

const finalStages = new Set<UploadFile['stage']>(['ready', 'failed', 'duplicate']);

/** The batch, asked again every few seconds while a file of it is still on its way. */
export function useUploadBatch(batchId: string | null) {
  return useQuery({
    queryKey: bulkUploadKeys.batch(batchId ?? ''),
    queryFn: () => api.get<UploadBatch>(`/api/admin/upload-batches/${encodeURIComponent(batchId!)}`),
    enabled: Boolean(batchId),
    // A batch that is gone (404) is final; a dropped connection or a busy server is tried again.
    retry: (failures, error) => !(error instanceof ApiError && error.status === 404) && failures < 3,
    refetchInterval: (query) =>
      query.state.data?.files.some(
        (file) =>
          !finalStages.has(file.stage) && (file.stage !== 'uploaded' || query.state.data?.confirmedAt),
      )
        ? 3_000
        : false,
  });
}

export function useRefreshBatch(batchId: string | null) {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: bulkUploadKeys.batch(batchId ?? '') });
}

const batchPath = (batchId: string) => `/api/admin/upload-batches/${encodeURIComponent(batchId)}`;

/**
 * A change to the batch that shows at once, then is sent: a poll already on its way would answer with
 * the batch as it was and undo it on screen, so it is cancelled first; the next poll shows what the api kept.
 */
function useBatchChange(batchId: string | null) {
  const client = useQueryClient();
  return async (change: (batch: UploadBatch) => UploadBatch, send: (path: string) => Promise<unknown>) => {
    const key = bulkUploadKeys.batch(batchId ?? '');
    await client.cancelQueries({ queryKey: key });
    client.setQueryData<UploadBatch>(key, (batch) => batch && change(batch));
    await send(batchPath(batchId ?? ''));
  };
}

/** Marks an entry as not filmed (or takes the mark back) for every browser matching this batch. */
export function useMarkNotFilmed(batchId: string | null) {
  const change = useBatchChange(batchId);
  return (entryId: string, notFilmed: boolean) =>
    change(
      (batch) => ({
        ...batch,
        notFilmed: [...batch.notFilmed.filter((id) => id !== entryId), ...(notFilmed ? [entryId] : [])],
      }),
      (path) => {
        const mark = `${path}/not-filmed/${encodeURIComponent(entryId)}`;
        return notFilmed ? api.put<void>(mark, {}) : api.delete<void>(mark);
      },
    );
}

/** The entry of her first camera-named file, kept with the batch (a reload keeps following it). */
export function useSetFirstEntry(batchId: string | null) {
  const change = useBatchChange(batchId);
  return (entryId: string | null) =>
    change(
      (batch) => ({ ...batch, firstEntryId: entryId }),
      (path) => api.put<void>(`${path}/first-entry`, { entryId }),
    );
}

export const bulkUploadApi = {
  create: (showcaseId: string) =>
    api.post<UploadBatch>(`/api/admin/showcases/${encodeURIComponent(showcaseId)}/upload-batches`),
  register: (batchId: string, body: object) => api.post<UploadFile>(`${batchPath(batchId)}/files`, body),
  uploaded: (batchId: string, fileId: string) =>
    api.post<UploadFile>(`${batchPath(batchId)}/files/${encodeURIComponent(fileId)}/uploaded`),
  match: (batchId: string, fileId: string, entryId: string | null, matchedBy: 'order' | 'hand' = 'hand') =>
    api.put<void>(`${batchPath(batchId)}/files/${encodeURIComponent(fileId)}/entry`, { entryId, matchedBy }),
  retry: (batchId: string, fileId: string) =>
    api.post<UploadFile>(`${batchPath(batchId)}/files/${encodeURIComponent(fileId)}/retry`),
  remove: (batchId: string, fileId: string) =>
    api.delete<void>(`${batchPath(batchId)}/files/${encodeURIComponent(fileId)}`),
  confirm: (batchId: string, body: { publish: boolean; priceCents: number }) =>
    api.post<UploadBatch>(`${batchPath(batchId)}/confirm`, body),
};
