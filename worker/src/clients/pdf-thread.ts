import { parentPort } from 'node:worker_threads';
import { renderDocumentPdf } from '@app/shared/gst/pdf';
import type { DocumentContent } from '@app/shared/gst';

// The worker's PDF thread (pdf-renderer.ts): renders documents off the event loop that settles
// payments. Bundled beside the worker as pdf-thread.mjs (scripts/build-server.mjs, decision 001); from
// the source, Node runs this file as it is.

export interface RenderRequest {
  id: number;
  content: DocumentContent;
}

export type RenderReply = { id: number; pdf: Uint8Array } | { id: number; error: string };

parentPort!.on('message', ({ id, content }: RenderRequest) => {
  // A document it cannot render fails alone (renderDocumentPdf may throw before its promise).
  (async () => renderDocumentPdf(content))().then(
    (pdf) => parentPort!.postMessage({ id, pdf } satisfies RenderReply),
    (error: unknown) =>
      parentPort!.postMessage({ id, error: (error as Error)?.stack ?? String(error) } satisfies RenderReply),
  );
});
