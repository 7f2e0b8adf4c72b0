import { createHash } from 'node:crypto';
import type { SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { Db } from '@app/shared/db';

const dialect = new PgDialect();

/** drizzle keeps the node-postgres pool it was given as `$client` (Db's type does not name it). */
type Pooled = {
  $client: {
    query<R>(config: { name: string; text: string; values: unknown[] }): Promise<{ rows: R[] }>;
  };
};

/**
 * Runs `query` as a named prepared statement (its name a digest of its text): each pooled connection
 * parses and plans it once, and PostgreSQL keeps its plan (a generic one after five runs). For reads
 * whose text is fixed and whose values are all parameters, such as a whole programme search (decision
 * 037), where planning afresh cost as much as reading.
 */
export async function preparedRows<T extends Record<string, unknown>>(db: Db, query: SQL): Promise<T[]> {
  const { sql: text, params } = dialect.sqlToQuery(query);
  const name = `p${createHash('sha256').update(text).digest('hex').slice(0, 24)}`;
  const result = await (db as unknown as Pooled).$client.query<T>({ name, text, values: params });
  return result.rows;
}
