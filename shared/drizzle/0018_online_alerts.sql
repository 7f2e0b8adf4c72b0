CREATE TABLE "online_alerts" (
	"id" text PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"entry_id" text,
	"dancer_id" text,
	"online_routines" integer DEFAULT 0 NOT NULL,
	"confirm_sent_at" timestamp with time zone,
	"confirmed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "online_alerts_target_key" UNIQUE NULLS NOT DISTINCT("email","entry_id","dancer_id"),
	CONSTRAINT "online_alerts_one_target" CHECK (num_nonnulls("online_alerts"."entry_id", "online_alerts"."dancer_id") = 1)
);
--> statement-breakpoint
CREATE TABLE "programme_showcase_words" (
	"showcase_id" text PRIMARY KEY NOT NULL,
	"words" text NOT NULL
);
--> statement-breakpoint
DROP INDEX "programme_entries_section_idx";--> statement-breakpoint
DROP INDEX "programme_dancers_search_idx";--> statement-breakpoint
DROP INDEX "programme_studios_search_idx";--> statement-breakpoint
ALTER TABLE "online_alerts" ADD CONSTRAINT "online_alerts_entry_id_programme_entries_id_fk" FOREIGN KEY ("entry_id") REFERENCES "public"."programme_entries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "online_alerts" ADD CONSTRAINT "online_alerts_dancer_id_programme_dancers_id_fk" FOREIGN KEY ("dancer_id") REFERENCES "public"."programme_dancers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "programme_showcase_words" ADD CONSTRAINT "programme_showcase_words_showcase_id_showcases_id_fk" FOREIGN KEY ("showcase_id") REFERENCES "public"."showcases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "online_alerts_entry_idx" ON "online_alerts" USING btree ("entry_id");--> statement-breakpoint
CREATE INDEX "online_alerts_dancer_idx" ON "online_alerts" USING btree ("dancer_id");--> statement-breakpoint
CREATE INDEX "online_alerts_created_at_idx" ON "online_alerts" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "programme_entries_showcase_order_idx" ON "programme_entries" USING btree ("showcase_id","entry_sort","entry_number");--> statement-breakpoint
CREATE INDEX "programme_dancers_search_idx" ON "programme_dancers" USING gist ("search_key" gist_trgm_ops);--> statement-breakpoint
CREATE INDEX "programme_studios_search_idx" ON "programme_studios" USING gist ("search_key" gist_trgm_ops);--> statement-breakpoint
-- Hand-written (decision 035): programme_showcase_words follows programme_entries. Statement triggers
-- with transition tables (one per event, as PostgreSQL requires) recompute each touched showcase once
-- per statement, so a 400-row import rewrites one row.
CREATE FUNCTION programme_words_refresh(showcase_ids text[]) RETURNS void LANGUAGE sql AS $$
  DELETE FROM programme_showcase_words w WHERE w.showcase_id = ANY(showcase_ids)
    AND NOT EXISTS (SELECT 1 FROM programme_entries e WHERE e.showcase_id = w.showcase_id);
  INSERT INTO programme_showcase_words (showcase_id, words)
  SELECT s.id, (SELECT string_agg(DISTINCT word, ' ')
      FROM programme_entries e, regexp_split_to_table(e.section_key, '\s+') AS word
      WHERE e.showcase_id = s.id AND word <> '')
  FROM showcases s
  WHERE s.id = ANY(showcase_ids) AND EXISTS (SELECT 1 FROM programme_entries e WHERE e.showcase_id = s.id)
  ON CONFLICT (showcase_id) DO UPDATE SET words = excluded.words;
$$;--> statement-breakpoint
CREATE FUNCTION programme_words_trigger() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM programme_words_refresh(ARRAY(SELECT DISTINCT showcase_id FROM new_entries));
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM programme_words_refresh(ARRAY(SELECT DISTINCT showcase_id FROM old_entries));
  ELSE
    PERFORM programme_words_refresh(ARRAY(
      SELECT showcase_id FROM new_entries UNION SELECT showcase_id FROM old_entries));
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER programme_words_insert AFTER INSERT ON programme_entries
  REFERENCING NEW TABLE AS new_entries FOR EACH STATEMENT EXECUTE FUNCTION programme_words_trigger();--> statement-breakpoint
CREATE TRIGGER programme_words_update AFTER UPDATE ON programme_entries
  REFERENCING NEW TABLE AS new_entries OLD TABLE AS old_entries
  FOR EACH STATEMENT EXECUTE FUNCTION programme_words_trigger();--> statement-breakpoint
CREATE TRIGGER programme_words_delete AFTER DELETE ON programme_entries
  REFERENCING OLD TABLE AS old_entries FOR EACH STATEMENT EXECUTE FUNCTION programme_words_trigger();--> statement-breakpoint
SELECT programme_words_refresh(ARRAY(SELECT DISTINCT showcase_id FROM programme_entries));
--> statement-breakpoint
ANALYZE programme_showcase_words;
