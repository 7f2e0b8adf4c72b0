-- Decision 041. The typo pass (likenessSearch) reads dancers' names by trigram likeness through GIN: about
-- 0.1 ms where GiST's signatures took 1 ms over a season's 5,600 names. It compares them with a value the
-- planner cannot see, so no word makes it read every name instead. Studios keep GiST (500 rows).
DROP INDEX "programme_dancers_search_idx";--> statement-breakpoint
CREATE INDEX "programme_dancers_search_idx" ON "programme_dancers" USING gin ("search_key" gin_trgm_ops) WITH (fastupdate=false);