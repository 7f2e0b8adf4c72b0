-- Decision 042. A section-word search reads each typed word's rows from the key alone, their bits
-- included: 10-17 % less PostgreSQL CPU a section-word search than visiting a heap page for each of a
-- word's rows (one a showcase). Both tables are rewritten a showcase at a time: vacuum once a
-- programme's worth of rows has changed, so index-only reads stay index-only after an import.
ALTER TABLE "programme_section_words" DROP CONSTRAINT "programme_section_words_word_showcase_id_pk";--> statement-breakpoint
ALTER TABLE "programme_section_words" ADD CONSTRAINT "programme_section_words_word_showcase_id_pk"
  PRIMARY KEY ("word", "showcase_id") INCLUDE ("entries");--> statement-breakpoint
ALTER TABLE "programme_section_words" SET (autovacuum_vacuum_insert_threshold = 100, autovacuum_vacuum_insert_scale_factor = 0, autovacuum_vacuum_threshold = 100, autovacuum_vacuum_scale_factor = 0);--> statement-breakpoint
ALTER TABLE "programme_entry_positions" SET (autovacuum_vacuum_insert_threshold = 400, autovacuum_vacuum_insert_scale_factor = 0, autovacuum_vacuum_threshold = 400, autovacuum_vacuum_scale_factor = 0);
