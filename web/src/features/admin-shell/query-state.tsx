import type { ReactNode } from 'react';
import type { UseQueryResult } from '@tanstack/react-query';
import { Table, type TableColumn } from '../../components/ui/table.tsx';
import { errorMessage } from '../../lib/api.ts';

/**
 * The ladder every admin list climbs: the error (with the server's message), then loading, then the
 * empty state, then the data. `error` is the line's start ("Error loading contacts"); `fallback` is
 * said when the server gave no message.
 */
export function QueryState<T>({
  className,
  query,
  error,
  fallback = 'An unknown error occurred',
  loading,
  isEmpty = (data) => Array.isArray(data) && data.length === 0,
  empty,
  children,
}: {
  /** The wrapper's classes (its place on the page). */
  className?: string;
  query: UseQueryResult<T>;
  error: string;
  fallback?: string;
  loading: ReactNode;
  isEmpty?: (data: T) => boolean;
  empty?: ReactNode;
  children: (data: T) => ReactNode;
}) {
  return <div className={className}>{state()}</div>;

  function state() {
    if (query.isError)
      return (
        <p className="text-red-300">
          {error}: {errorMessage(query.error, fallback)}
        </p>
      );
    if (query.isPending)
      return typeof loading === 'string' ? <p className="text-zinc-400">{loading}</p> : loading;
    if (empty !== undefined && isEmpty(query.data)) return empty;
    return children(query.data);
  }
}

/**
 * A list query shown as a table: the ladder above, "empty" when `rows` gives none, then a row a
 * record (`children` renders one `TableRow`).
 */
export function QueryTable<T, R>({
  label,
  rows,
  columns,
  tableClassName,
  children,
  ...ladder
}: Omit<Parameters<typeof QueryState<T>>[0], 'isEmpty' | 'children'> & {
  /** What the table lists (Table's `label`). */
  label: string;
  rows: (data: T) => R[];
  columns: TableColumn[];
  tableClassName?: string;
  children: (row: R) => ReactNode;
}) {
  return (
    <QueryState {...ladder} isEmpty={(data) => rows(data).length === 0}>
      {(data) => (
        <Table label={label} tableClassName={tableClassName} columns={columns}>
          {rows(data).map(children)}
        </Table>
      )}
    </QueryState>
  );
}
