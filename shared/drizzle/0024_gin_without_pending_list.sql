-- Search indexes without a pending list (decision 038). GIN's fastupdate puts new rows in an unsorted
-- list that every search reads through until VACUUM or autoanalyze merges it; a programme import or an
-- evening's uploads add far fewer rows than wake autovacuum on a season-sized table, so the list grew
-- with every import (5,823 dancers and 9,334 videos unmerged on a freshly seeded season). Written
-- straight into the index instead: an import of a few hundred rows barely notices.
ALTER INDEX "videos_search_idx" SET (fastupdate = off);--> statement-breakpoint
ALTER INDEX "library_search_words_trgm_idx" SET (fastupdate = off);--> statement-breakpoint
ALTER INDEX "programme_dancers_words_idx" SET (fastupdate = off);--> statement-breakpoint
ALTER INDEX "programme_studios_words_idx" SET (fastupdate = off);--> statement-breakpoint
-- What is already pending is merged now (fastupdate = off alone only stops new rows joining it).
SELECT gin_clean_pending_list('videos_search_idx'), gin_clean_pending_list('library_search_words_trgm_idx'),
  gin_clean_pending_list('programme_dancers_words_idx'), gin_clean_pending_list('programme_studios_words_idx');
