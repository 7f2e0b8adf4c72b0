CREATE TABLE "programme_routine_cards" (
	"entry_id" text PRIMARY KEY NOT NULL,
	"card" jsonb NOT NULL
);
--> statement-breakpoint
ALTER TABLE "programme_routine_cards" ADD CONSTRAINT "programme_routine_cards_entry_id_programme_entries_id_fk" FOREIGN KEY ("entry_id") REFERENCES "public"."programme_entries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Decision 040. A routine card: what a search, a dancer's page and a studio's page show of an entry,
-- with the dancers' whole names (the api shows them as the showcase says) and the videos a visitor
-- may see (published, processing not failed), the picture of each: the owner's, else the poster frame,
-- never the frame of a video behind a password.
CREATE FUNCTION programme_cards_refresh(entry_ids text[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF cardinality(entry_ids) = 0 THEN RETURN; END IF;
  -- Both statements are planned afresh each time (EXECUTE): plans kept by the session from when the
  -- programme tables were empty read them by sequential scan, and a season's seed grew slower by the
  -- competition.
  -- One writer per card at a time: a transaction that changed the same entry's videos commits before
  -- this one reads, so the last card written holds both changes (each statement here reads afresh).
  EXECUTE 'SELECT 1 FROM programme_entries WHERE id = ANY($1) ORDER BY id FOR NO KEY UPDATE' USING entry_ids;
  EXECUTE $sql$
  INSERT INTO programme_routine_cards (entry_id, card)
    SELECT e.id, jsonb_build_object(
      'entryId', e.id, 'entryNumber', e.entry_number, 'section', e.section, 'title', e.title,
      'studio', (SELECT st.name FROM programme_studios st WHERE st.id = e.studio_id),
      'dancers', coalesce((SELECT jsonb_agg(jsonb_build_object('id', d.id, 'name', d.name) ORDER BY ed.position, d.id)
        FROM programme_entry_dancers ed JOIN programme_dancers d ON d.id = ed.dancer_id
        WHERE ed.entry_id = e.id), '[]'::jsonb),
      'videos', coalesce((SELECT jsonb_agg(jsonb_build_object('id', v.id, 'title', v.title, 'priceCents', v.price_cents,
          'previewUrl', coalesce(v.preview_url, CASE WHEN NOT v.password_protected
            THEN '/api/video-preview/' || replace(v.media->>'posterKey', '/', '%2F') END),
          'passwordProtected', v.password_protected) ORDER BY v.created_at, v.id)
        FROM videos v WHERE v.entry_id = e.id AND v.published AND v.processing_state IS DISTINCT FROM 'failed'),
        '[]'::jsonb))
    FROM programme_entries e WHERE e.id = ANY($1)
    ON CONFLICT (entry_id) DO UPDATE SET card = excluded.card
      WHERE programme_routine_cards.card IS DISTINCT FROM excluded.card
  $sql$ USING entry_ids;
END $$;--> statement-breakpoint
-- The triggers compare before and after with EXCEPT (hashed) rather than a join on id, whose plan
-- would rest on estimates of transition tables, which have no statistics.
CREATE FUNCTION programme_cards_of_entries() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM programme_cards_refresh(ARRAY(SELECT id FROM new_rows));
  ELSE
    PERFORM programme_cards_refresh(ARRAY(
      SELECT id FROM (SELECT id, entry_number, section, title, studio_id FROM new_rows
        EXCEPT SELECT id, entry_number, section, title, studio_id FROM old_rows) changed));
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER programme_cards_insert AFTER INSERT ON programme_entries
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION programme_cards_of_entries();--> statement-breakpoint
CREATE TRIGGER programme_cards_update AFTER UPDATE ON programme_entries
  REFERENCING NEW TABLE AS new_rows OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION programme_cards_of_entries();--> statement-breakpoint
CREATE FUNCTION programme_cards_of_entry_dancers() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM programme_cards_refresh(ARRAY(SELECT DISTINCT entry_id FROM new_rows));
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM programme_cards_refresh(ARRAY(SELECT DISTINCT entry_id FROM old_rows));
  ELSE
    PERFORM programme_cards_refresh(ARRAY(SELECT entry_id FROM new_rows UNION SELECT entry_id FROM old_rows));
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER programme_cards_insert AFTER INSERT ON programme_entry_dancers
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION programme_cards_of_entry_dancers();--> statement-breakpoint
CREATE TRIGGER programme_cards_update AFTER UPDATE ON programme_entry_dancers
  REFERENCING NEW TABLE AS new_rows OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION programme_cards_of_entry_dancers();--> statement-breakpoint
CREATE TRIGGER programme_cards_delete AFTER DELETE ON programme_entry_dancers
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION programme_cards_of_entry_dancers();--> statement-breakpoint
CREATE FUNCTION programme_cards_of_dancers() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM programme_cards_refresh(ARRAY(SELECT DISTINCT ed.entry_id
    FROM (SELECT id, name FROM new_rows EXCEPT SELECT id, name FROM old_rows) renamed
    JOIN programme_entry_dancers ed ON ed.dancer_id = renamed.id));
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER programme_cards_update AFTER UPDATE ON programme_dancers
  REFERENCING NEW TABLE AS new_rows OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION programme_cards_of_dancers();--> statement-breakpoint
CREATE FUNCTION programme_cards_of_studios() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM programme_cards_refresh(ARRAY(SELECT e.id
    FROM (SELECT id, name FROM new_rows EXCEPT SELECT id, name FROM old_rows) renamed
    JOIN programme_entries e ON e.studio_id = renamed.id));
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER programme_cards_update AFTER UPDATE ON programme_studios
  REFERENCING NEW TABLE AS new_rows OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION programme_cards_of_studios();--> statement-breakpoint
CREATE FUNCTION programme_cards_of_videos() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM programme_cards_refresh(ARRAY(SELECT DISTINCT entry_id FROM new_rows WHERE entry_id IS NOT NULL));
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM programme_cards_refresh(ARRAY(SELECT DISTINCT entry_id FROM old_rows WHERE entry_id IS NOT NULL));
  ELSE
    -- What a card shows of a video, before and after: a row in one and not the other changed.
    PERFORM programme_cards_refresh(ARRAY(SELECT DISTINCT entry_id FROM (
      (SELECT id, entry_id, title, price_cents, preview_url, media->>'posterKey', password_protected,
        published, processing_state, created_at FROM new_rows
      EXCEPT SELECT id, entry_id, title, price_cents, preview_url, media->>'posterKey', password_protected,
        published, processing_state, created_at FROM old_rows)
      UNION ALL
      (SELECT id, entry_id, title, price_cents, preview_url, media->>'posterKey', password_protected,
        published, processing_state, created_at FROM old_rows
      EXCEPT SELECT id, entry_id, title, price_cents, preview_url, media->>'posterKey', password_protected,
        published, processing_state, created_at FROM new_rows)) changed
      WHERE entry_id IS NOT NULL));
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER programme_cards_insert AFTER INSERT ON videos
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION programme_cards_of_videos();--> statement-breakpoint
CREATE TRIGGER programme_cards_update AFTER UPDATE ON videos
  REFERENCING NEW TABLE AS new_rows OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION programme_cards_of_videos();--> statement-breakpoint
CREATE TRIGGER programme_cards_delete AFTER DELETE ON videos
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION programme_cards_of_videos();--> statement-breakpoint
SELECT programme_cards_refresh(ARRAY(SELECT id FROM programme_entries));--> statement-breakpoint
ANALYZE programme_routine_cards;
