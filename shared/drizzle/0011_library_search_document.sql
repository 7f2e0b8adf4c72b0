-- Library search, one document per video (decision 020, 2026-11-25 addendum): the video's words and
-- its showcase's name in one weighted tsvector, so a search is a single GIN match (a word may match
-- the showcase's name without an OR that defeats the index) and a match through the title ranks
-- before one through the tags, the description, then the showcase's name alone.
CREATE OR REPLACE FUNCTION library_video_document(title text, description text, tags text[], showcase_name text)
  RETURNS tsvector LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT setweight(to_tsvector('simple'::regconfig, library_search_text(title, NULL, NULL)), 'A')
    || setweight(to_tsvector('simple'::regconfig, library_search_text(NULL, NULL, tags)), 'B')
    || setweight(to_tsvector('simple'::regconfig, library_search_text(NULL, description, NULL)), 'C')
    || setweight(to_tsvector('simple'::regconfig, library_search_text(showcase_name, NULL, NULL)), 'D') $$;--> statement-breakpoint
-- The column was generated from the video's own words; it now also holds its showcase's name, which a
-- generated column cannot read, so triggers keep it.
ALTER TABLE "videos" ALTER COLUMN "search_vector" DROP EXPRESSION;--> statement-breakpoint
CREATE OR REPLACE FUNCTION videos_search_document() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.search_vector := library_video_document(NEW.title, NEW.description, NEW.tags,
    (SELECT name FROM showcases WHERE id = NEW.showcase_id));
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER videos_search_document BEFORE INSERT OR UPDATE OF title, description, tags, showcase_id ON videos
  FOR EACH ROW EXECUTE FUNCTION videos_search_document();--> statement-breakpoint
CREATE OR REPLACE FUNCTION showcases_search_document() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE videos SET search_vector = library_video_document(title, description, tags, NEW.name)
    WHERE showcase_id = NEW.id;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER showcases_search_document AFTER UPDATE OF name ON showcases
  FOR EACH ROW WHEN (OLD.name IS DISTINCT FROM NEW.name) EXECUTE FUNCTION showcases_search_document();--> statement-breakpoint
UPDATE videos SET search_vector = library_video_document(title, description, tags,
  (SELECT name FROM showcases WHERE showcases.id = videos.showcase_id));--> statement-breakpoint
ANALYZE videos;
