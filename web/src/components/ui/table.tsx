import { useEffect, useLayoutEffect, useRef, useState, type ComponentProps, type ReactNode } from 'react';
import { cn } from '../../lib/cn.ts';

/** A column heading; `hidden` keeps it for screen readers only (an actions column). */
export type TableColumn = { label: string; align?: 'right'; hidden?: boolean };

/** True while the element's content is wider than the element (it scrolls sideways). */
function useScrollsSideways<T extends HTMLElement>(content: ReactNode) {
  const ref = useRef<T>(null);
  const [scrolls, setScrolls] = useState(false);
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const observer = new ResizeObserver(() => setScrolls(element.scrollWidth > element.clientWidth));
    observer.observe(element);
    if (element.firstElementChild) observer.observe(element.firstElementChild);
    return () => observer.disconnect();
  }, []);
  // Rows arriving with a render are measured before paint as well: the observer answers a frame later,
  // and until then a table that has just started to scroll would be a region no key reaches.
  useLayoutEffect(() => {
    const element = ref.current;
    if (element) setScrolls(element.scrollWidth > element.clientWidth);
  }, [content]);
  return [ref, scrolls] as const;
}

/**
 * The admin screens' data table: scrolls sideways inside its rounded frame on a narrow screen rather
 * than squeezing its columns. `tableClassName` sets the width below which it scrolls; while it does,
 * the frame is a named region in the tab order, so a keyboard can scroll it too (WCAG 2.1.1).
 */
export function Table({
  label,
  columns,
  className,
  tableClassName,
  children,
}: {
  /** What the table lists: its caption for screen readers, and the scrolling region's name. */
  label: string;
  columns: TableColumn[];
  className?: string;
  tableClassName?: string;
  children: ReactNode;
}) {
  const [frame, scrolls] = useScrollsSideways<HTMLDivElement>(children);
  return (
    <div
      ref={frame}
      className={cn('relative overflow-x-auto rounded-2xl border border-white/10', className)}
      {...(scrolls && { role: 'region', 'aria-label': label, tabIndex: 0 })}
    >
      <table className={cn('w-full text-left text-sm', tableClassName)}>
        <caption className="sr-only">{label}</caption>
        <thead className="bg-stage-800 text-xs tracking-wider text-zinc-400 uppercase">
          <tr>
            {columns.map((column) => (
              <th key={column.label} className={cn('px-4 py-3', column.align === 'right' && 'text-right')}>
                {column.hidden ? <span className="sr-only">{column.label}</span> : column.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-white/10">{children}</tbody>
      </table>
    </div>
  );
}

export function TableRow({ className, ...props }: ComponentProps<'tr'>) {
  return <tr className={cn('bg-stage-900/60', className)} {...props} />;
}

export function TableCell({ className, ...props }: ComponentProps<'td'>) {
  return <td className={cn('px-4 py-3', className)} {...props} />;
}
