-- Decision 042. An entry-number search reads the number's entries across the season from one range of
-- this index, id and number included (no heap), and joins them with the visible showcases by hash:
-- 15-33 % less PostgreSQL CPU a search than one probe of programme_entries_showcase_order_idx per
-- showcase (65 on the bench's season).
DROP INDEX IF EXISTS "programme_entries_sort_idx";--> statement-breakpoint
CREATE INDEX "programme_entries_sort_idx" ON "programme_entries" USING btree ("entry_sort","showcase_id") INCLUDE ("entry_number","id");
