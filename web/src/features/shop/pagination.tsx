import { Link } from 'wouter';
import { cn } from '../../lib/cn.ts';

/**
 * Numbered page links: real addresses (`?page=N`), so they work before the app runs and without
 * JavaScript, and each page can be shared. Shows the first, the last and the pages around this one.
 */
export function Pagination({
  page,
  pageCount,
  href,
}: {
  page: number;
  pageCount: number;
  href: (page: number) => string;
}) {
  if (pageCount <= 1) return null;
  const shown = [...new Set([1, page - 1, page, page + 1, pageCount])]
    .filter((number) => number >= 1 && number <= pageCount)
    .sort((a, b) => a - b);
  const linkClass = 'rounded-lg border border-white/10 px-3 py-2 text-sm text-zinc-200 hover:bg-white/10';
  return (
    <nav aria-label="Pages" className="mt-10 flex flex-wrap items-center justify-center gap-2">
      {page > 1 && (
        <Link href={href(Math.min(page - 1, pageCount))} rel="prev" className={linkClass}>
          Previous
        </Link>
      )}
      {shown.map((number, index) => (
        <span key={number} className="flex items-center gap-2">
          {index > 0 && number - shown[index - 1]! > 1 && <span className="text-zinc-400">…</span>}
          <Link
            href={href(number)}
            aria-current={number === page ? 'page' : undefined}
            aria-label={`Page ${number}`}
            className={cn(linkClass, number === page && 'bg-spotlight-400 font-semibold text-stage-950')}
          >
            {number}
          </Link>
        </span>
      ))}
      {page < pageCount && (
        <Link href={href(page + 1)} rel="next" className={linkClass}>
          Next
        </Link>
      )}
    </nav>
  );
}
