import { sql } from 'drizzle-orm';
import type { Db } from '@app/shared/db';

/** One round trip to PostgreSQL: what /readyz needs to know. */
export async function pingDatabase(db: Db): Promise<void> {
  await db.execute(sql`select 1`);
}
