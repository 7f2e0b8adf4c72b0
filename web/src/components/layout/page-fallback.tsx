/** Shown while a lazily loaded screen arrives. */
export function PageFallback() {
  return (
    <div className="flex min-h-screen items-center justify-center" role="status" aria-live="polite">
      <span className="size-10 animate-spin rounded-full border-4 border-spotlight-400/30 border-t-spotlight-400" />
      <span className="sr-only">Loading…</span>
    </div>
  );
}
