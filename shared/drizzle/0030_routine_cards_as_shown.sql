ALTER TABLE "programme_routine_cards" ALTER COLUMN "card" SET DATA TYPE json;--> statement-breakpoint
-- Hand-written (decision 042). A card holds the dancers' names as the showcase shows them, and is json
-- (its text as written): a search sends the cards it found on as PostgreSQL reads them, where turning
-- jsonb into text and the api parsing it and writing it again were a third of an entry-number search.
-- A dancer's name as displayDancerName (shared/src/contracts/schemas/programme-rules.ts) shows it: the
-- whole name, first names and the last name's initial ("Māia N."), or none (hidden). A test holds the
-- two to the same answers.
CREATE FUNCTION programme_dancer_name(name text, display text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE
    WHEN display = 'hidden' THEN NULL
    WHEN display = 'full' OR cardinality(words) < 2 THEN array_to_string(words, ' ')
    ELSE array_to_string(words[1:cardinality(words) - 1], ' ') || ' ' || upper(left(words[cardinality(words)], 1)) || '.'
  END
  FROM (SELECT regexp_split_to_array(regexp_replace(name, '^\s+|\s+$', '', 'g'), '\s+') AS words) split
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION programme_cards_refresh(entry_ids text[]) RETURNS void LANGUAGE plpgsql AS $$
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
    SELECT e.id, json_build_object(
      'entryId', e.id, 'entryNumber', e.entry_number, 'section', e.section, 'title', e.title,
      'studio', (SELECT st.name FROM programme_studios st WHERE st.id = e.studio_id),
      'dancers', coalesce((SELECT json_agg(json_build_object('id', d.id,
          'name', programme_dancer_name(d.name, s.dancer_names)) ORDER BY ed.position, d.id)
        FROM programme_entry_dancers ed JOIN programme_dancers d ON d.id = ed.dancer_id
        WHERE ed.entry_id = e.id AND s.dancer_names <> 'hidden'), '[]'::json),
      'videos', coalesce((SELECT json_agg(json_build_object('id', v.id, 'title', v.title, 'priceCents', v.price_cents,
          'previewUrl', coalesce(v.preview_url, CASE WHEN NOT v.password_protected
            THEN '/api/video-preview/' || replace(v.media->>'posterKey', '/', '%2F') END),
          'passwordProtected', v.password_protected) ORDER BY v.created_at, v.id)
        FROM videos v WHERE v.entry_id = e.id AND v.published AND v.processing_state IS DISTINCT FROM 'failed'),
        '[]'::json))
    FROM programme_entries e JOIN showcases s ON s.id = e.showcase_id WHERE e.id = ANY($1)
    ON CONFLICT (entry_id) DO UPDATE SET card = excluded.card
      WHERE programme_routine_cards.card::text IS DISTINCT FROM excluded.card::text
  $sql$ USING entry_ids;
END $$;--> statement-breakpoint
-- A showcase that shows its dancers' names otherwise has every card written again.
CREATE FUNCTION programme_cards_of_showcases() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM programme_cards_refresh(ARRAY(SELECT e.id
    FROM (SELECT id, dancer_names FROM new_rows EXCEPT SELECT id, dancer_names FROM old_rows) changed
    JOIN programme_entries e ON e.showcase_id = changed.id));
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER programme_cards_update AFTER UPDATE ON showcases
  REFERENCING NEW TABLE AS new_rows OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION programme_cards_of_showcases();--> statement-breakpoint
SELECT programme_cards_refresh(ARRAY(SELECT id FROM programme_entries));--> statement-breakpoint
ANALYZE programme_routine_cards;
