import { createHash } from 'node:crypto';
import { is, Placeholder, sql, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { Db } from '@app/shared/db';

const dialect = new PgDialect();

/** drizzle keeps the node-postgres pool it was given as `$client` (Db's type does not name it). */
type Pooled = {
  $client: {
    query<R>(config: { name: string; text: string; values: unknown[] }): Promise<{ rows: R[] }>;
  };
};

/** Slots of a statement whose values are a V: `const slot = slotsOf<V>()`, then `sql`... ${slot('key')}``. */
export const slotsOf =
  <V extends Record<string, unknown>>() =>
  (name: Extract<keyof V, string>) =>
    sql.placeholder(name);

/**
 * A read compiled once, at start, into a named prepared statement (its name a digest of its text):
 * each pooled connection parses and plans it once, and PostgreSQL keeps its plan (a generic one after
 * five runs). Each run only fills in its slots, so a request builds no SQL (decision 037). For reads
 * whose text is fixed and whose values are all parameters, such as a whole programme search, where
 * planning afresh cost as much as reading.
 */
export function preparedStatement<V extends Record<string, unknown>>(query: SQL) {
  const { sql: text, params } = dialect.sqlToQuery(query);
  const name = `p${createHash('sha256').update(text).digest('hex').slice(0, 24)}`;
  // Each parameter is either a constant of the text or the name of a slot.
  const fill = params.map((param): { slot: keyof V } | { value: unknown } =>
    is(param, Placeholder) ? { slot: param.name as keyof V } : { value: param },
  );
  return async <T extends Record<string, unknown>>(db: Db, values: V): Promise<T[]> => {
    const filled = fill.map((param) => ('slot' in param ? values[param.slot] : param.value));
    const result = await (db as unknown as Pooled).$client.query<T>({ name, text, values: filled });
    return result.rows;
  };
}
