import { Worker } from 'node:worker_threads';
import type { DocumentContent } from '@app/shared/gst';
import type { RenderReply, RenderRequest } from './pdf-thread.ts';

// A document's PDF takes 3-4 ms of CPU (DejaVu Sans subset and embedded, decision 029), in one piece
// that would hold up the payments the same event loop is settling (record-sale). The worker renders
// them in one thread of its own, started on the first document and kept; a thread that fails or
// stops fails the renders it holds (their jobs retry) and the next render starts another.

/** Far beyond any document's few milliseconds: a render that takes this long is stuck. */
const RENDER_TIMEOUT_MS = 30_000;

// From the source (tests, tsx) the thread runs pdf-thread.ts; the worker's bundle has it beside itself.
const threadFile = import.meta.url.endsWith('.ts')
  ? new URL('./pdf-thread.ts', import.meta.url)
  : new URL('./pdf-thread.mjs', import.meta.url);

interface PdfThread {
  worker: Worker;
  /** Renders sent to this thread, by id, until it answers. */
  pending: Map<
    number,
    { resolve: (pdf: Buffer) => void; reject: (error: Error) => void; timer: NodeJS.Timeout }
  >;
}

let current: PdfThread | null = null;
let nextId = 0;

function startThread(): PdfThread {
  const thread: PdfThread = { worker: new Worker(threadFile), pending: new Map() };
  // Never what keeps the worker process alive: it exits (and the thread with it) as it always has.
  thread.worker.unref();
  thread.worker.on('message', (reply: RenderReply) => {
    const render = thread.pending.get(reply.id);
    if (!render) return;
    thread.pending.delete(reply.id);
    clearTimeout(render.timer);
    if ('error' in reply) render.reject(new Error(`PDF rendering failed: ${reply.error}`));
    else render.resolve(Buffer.from(reply.pdf.buffer, reply.pdf.byteOffset, reply.pdf.byteLength));
  });
  const stopped = (error: Error) => {
    if (current === thread) current = null;
    for (const render of thread.pending.values()) {
      clearTimeout(render.timer);
      render.reject(error);
    }
    thread.pending.clear();
  };
  thread.worker.on('error', stopped);
  thread.worker.on('exit', (code) => stopped(new Error(`The PDF thread stopped (exit code ${code})`)));
  return thread;
}

/** The document as a PDF (renderDocumentPdf), rendered in the worker's PDF thread. */
export function renderPdf(content: DocumentContent): Promise<Buffer> {
  const thread = (current ??= startThread());
  const id = nextId++;
  return new Promise<Buffer>((resolve, reject) => {
    const timer = setTimeout(() => {
      // Stuck: the thread is replaced, and what else it holds fails with it (those jobs retry).
      if (current === thread) current = null;
      thread.pending.delete(id);
      reject(new Error(`PDF rendering took over ${RENDER_TIMEOUT_MS / 1000} s; its thread is restarted`));
      void thread.worker.terminate();
    }, RENDER_TIMEOUT_MS);
    timer.unref();
    thread.pending.set(id, { resolve, reject, timer });
    thread.worker.postMessage({ id, content } satisfies RenderRequest);
  });
}
