/** A labelled progress bar with its percentage (uploads). */
export function Progress({ fraction, label }: { fraction: number; label: string }) {
  return (
    <div>
      <div
        className="h-2 overflow-hidden rounded-full bg-white/10"
        role="progressbar"
        aria-label={label}
        aria-valuenow={Math.round(fraction * 100)}
        aria-valuemin={0}
        aria-valuemax={100}
      >
        <div
          className="h-full bg-spotlight-400 transition-[width]"
          style={{ width: `${Math.round(fraction * 100)}%` }}
        />
      </div>
      <p className="mt-1 text-xs text-zinc-400">
        {label}: {Math.round(fraction * 100)}%
      </p>
    </div>
  );
}
