CREATE TABLE "programme_entry_positions" (
	"showcase_id" text NOT NULL,
	"position" integer NOT NULL,
	"entry_id" text NOT NULL,
	CONSTRAINT "programme_entry_positions_showcase_id_position_pk" PRIMARY KEY("showcase_id","position")
);
--> statement-breakpoint
CREATE TABLE "programme_section_words" (
	"word" text NOT NULL,
	"showcase_id" text NOT NULL,
	"entries" bit varying NOT NULL,
	CONSTRAINT "programme_section_words_word_showcase_id_pk" PRIMARY KEY("word","showcase_id")
);
--> statement-breakpoint
DROP TABLE "programme_showcase_words" CASCADE;--> statement-breakpoint
ALTER TABLE "programme_entry_positions" ADD CONSTRAINT "programme_entry_positions_showcase_id_showcases_id_fk" FOREIGN KEY ("showcase_id") REFERENCES "public"."showcases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "programme_section_words" ADD CONSTRAINT "programme_section_words_showcase_id_showcases_id_fk" FOREIGN KEY ("showcase_id") REFERENCES "public"."showcases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "programme_section_words_showcase_idx" ON "programme_section_words" USING btree ("showcase_id");--> statement-breakpoint
-- Hand-written (decision 042). Words compare byte by byte, so the words starting with a typed word are
-- one range of the key; a place's entry is read from the key's index alone.
ALTER TABLE "programme_section_words" ALTER COLUMN "word" TYPE text COLLATE "C";--> statement-breakpoint
ALTER TABLE "programme_entry_positions" DROP CONSTRAINT "programme_entry_positions_showcase_id_position_pk";--> statement-breakpoint
ALTER TABLE "programme_entry_positions" ADD CONSTRAINT "programme_entry_positions_showcase_id_position_pk"
  PRIMARY KEY ("showcase_id", "position") INCLUDE ("entry_id");--> statement-breakpoint
-- `total` zero bits with a one at each of `positions` (0-based).
CREATE FUNCTION programme_bits(positions int[], total int) RETURNS bit varying LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  bits bit varying := repeat('0', total)::bit varying;
  p int;
BEGIN
  FOREACH p IN ARRAY positions LOOP
    bits := set_bit(bits, p, 1);
  END LOOP;
  RETURN bits;
END $$;--> statement-breakpoint
-- The statement triggers of migration online_alerts call this once per statement with the showcases it
-- touched. A word is a run of letters and digits, as the api reads a search ("(re-run)" is "re" and
-- "run"). It rewrites their places and words whole: a showcase's bits all have one length, its number
-- of entries. Refreshes of one showcase wait for each other (an advisory lock each), and each statement
-- after the lock reads what the one before committed, so two imports at once cannot leave bits of two
-- lengths. Without JIT: its plans, made for any showcases, estimate millions of words, and compiling
-- them took 0.4 s of a 400-entry import where running them takes 10 ms.
CREATE OR REPLACE FUNCTION programme_words_refresh(showcase_ids text[]) RETURNS void LANGUAGE sql
SET jit = off AS $$
  SELECT pg_advisory_xact_lock(hashtextextended('programme_words_refresh:' || id, 0))
  FROM unnest(showcase_ids) AS id ORDER BY id;
  DELETE FROM programme_entry_positions WHERE showcase_id = ANY(showcase_ids);
  DELETE FROM programme_section_words WHERE showcase_id = ANY(showcase_ids);
  INSERT INTO programme_entry_positions (showcase_id, position, entry_id)
  SELECT e.showcase_id,
    (row_number() OVER (PARTITION BY e.showcase_id ORDER BY e.entry_sort, e.entry_number) - 1)::int, e.id
  FROM programme_entries e WHERE e.showcase_id = ANY(showcase_ids);
  INSERT INTO programme_section_words (word, showcase_id, entries)
  SELECT w.word, p.showcase_id, programme_bits(array_agg(DISTINCT p.position), min(p.total))
  FROM (SELECT e.showcase_id, e.section_key,
      (row_number() OVER (PARTITION BY e.showcase_id ORDER BY e.entry_sort, e.entry_number) - 1)::int AS position,
      (count(*) OVER (PARTITION BY e.showcase_id))::int AS total
    FROM programme_entries e WHERE e.showcase_id = ANY(showcase_ids)) p,
    regexp_split_to_table(p.section_key, '[^[:alnum:]]+') AS w(word)
  WHERE w.word <> ''
  GROUP BY p.showcase_id, w.word;
$$;--> statement-breakpoint
SELECT programme_words_refresh(ARRAY(SELECT DISTINCT showcase_id FROM programme_entries));--> statement-breakpoint
ANALYZE programme_entry_positions;--> statement-breakpoint
ANALYZE programme_section_words;
