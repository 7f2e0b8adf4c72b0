import type { ComponentProps, ReactNode } from 'react';
import { cn } from '../../lib/cn.ts';

/** A column heading; `hidden` keeps it for screen readers only (an actions column). */
export type TableColumn = { label: string; align?: 'right'; hidden?: boolean };

/**
 * The admin screens' data table: scrolls sideways inside its rounded frame on a narrow screen rather
 * than squeezing its columns. `tableClassName` sets the width below which it scrolls.
 */
export function Table({
  columns,
  className,
  tableClassName,
  children,
}: {
  columns: TableColumn[];
  className?: string;
  tableClassName?: string;
  children: ReactNode;
}) {
  return (
    <div className={cn('relative overflow-x-auto rounded-2xl border border-white/10', className)}>
      <table className={cn('w-full text-left text-sm', tableClassName)}>
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
