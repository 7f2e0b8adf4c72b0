-- Library search (decision 020): full-text with prefixes over unaccented text, and pg_trgm for typos.
CREATE EXTENSION IF NOT EXISTS unaccent;--> statement-breakpoint
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
-- unaccent() is only STABLE (its dictionary could change); naming the dictionary makes this wrapper
-- safe to declare IMMUTABLE, which generated columns need.
CREATE OR REPLACE FUNCTION library_search_text(title text, description text, tags text[])
  RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT lower(public.unaccent('public.unaccent'::regdictionary,
    coalesce(title, '') || ' ' || coalesce(description, '') || ' ' || coalesce(array_to_string(tags, ' '), ''))) $$;--> statement-breakpoint
ALTER TABLE "videos" ADD COLUMN "search_vector" tsvector
  GENERATED ALWAYS AS (to_tsvector('simple'::regconfig, library_search_text(title, description, tags))) STORED;--> statement-breakpoint
ALTER TABLE "showcases" ADD COLUMN "search_vector" tsvector
  GENERATED ALWAYS AS (to_tsvector('simple'::regconfig, library_search_text(name, description, '{}'))) STORED;--> statement-breakpoint
CREATE INDEX "videos_search_idx" ON "videos" USING gin ("search_vector");--> statement-breakpoint
-- Every word the library uses, for suggesting the nearest ones to a misspelt search word. Words are
-- only added (a stale word finds nothing, which is harmless).
CREATE TABLE "library_search_words" ("word" text COLLATE "C" PRIMARY KEY);--> statement-breakpoint
CREATE INDEX "library_search_words_trgm_idx" ON "library_search_words" USING gin ("word" gin_trgm_ops);--> statement-breakpoint
CREATE OR REPLACE FUNCTION library_search_words_add() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO library_search_words (word)
    SELECT DISTINCT w FROM changed, unnest(tsvector_to_array(changed.search_vector)) AS w
    WHERE length(w) BETWEEN 3 AND 40
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER videos_search_words_insert AFTER INSERT ON videos
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION library_search_words_add();--> statement-breakpoint
CREATE TRIGGER videos_search_words_update AFTER UPDATE ON videos
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION library_search_words_add();--> statement-breakpoint
CREATE TRIGGER showcases_search_words_insert AFTER INSERT ON showcases
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION library_search_words_add();--> statement-breakpoint
CREATE TRIGGER showcases_search_words_update AFTER UPDATE ON showcases
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION library_search_words_add();--> statement-breakpoint
INSERT INTO library_search_words (word)
  SELECT DISTINCT w FROM (SELECT search_vector FROM videos UNION ALL SELECT search_vector FROM showcases) AS s,
    unnest(tsvector_to_array(s.search_vector)) AS w
  WHERE length(w) BETWEEN 3 AND 40
ON CONFLICT DO NOTHING;--> statement-breakpoint
-- Readable slugs for the showcases that exist (the column's default is a placeholder): the name in
-- lower case ASCII words joined by '-', numbered from the second on where two names give the same.
WITH named AS (
  SELECT id, coalesce(nullif(trim(both '-' from regexp_replace(lower(public.unaccent(name)), '[^a-z0-9]+', '-', 'g')), ''), 'showcase') AS base,
    created_at
  FROM showcases
), numbered AS (
  SELECT id, base, row_number() OVER (PARTITION BY base ORDER BY created_at, id) AS n FROM named
)
UPDATE showcases SET slug = CASE
    WHEN numbered.n = 1 AND numbered.base <> 'more' THEN left(numbered.base, 80)
    ELSE left(numbered.base, 80) || '-' || (numbered.n + 1)::text END
  FROM numbered WHERE showcases.id = numbered.id;
