CREATE TABLE "search_misses" (
	"day" date NOT NULL,
	"source" text NOT NULL,
	"showcase_id" text,
	"query" text NOT NULL,
	"count" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "search_misses_key" UNIQUE NULLS NOT DISTINCT("day","source","showcase_id","query"),
	CONSTRAINT "search_misses_source_check" CHECK ("search_misses"."source" in ('library', 'programme')),
	CONSTRAINT "search_misses_count_check" CHECK ("search_misses"."count" > 0)
);
--> statement-breakpoint
ALTER TABLE "video_stat_events" DROP CONSTRAINT "video_stat_events_kind_check";--> statement-breakpoint
ALTER TABLE "videos" ADD COLUMN "visits" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "search_misses" ADD CONSTRAINT "search_misses_showcase_id_showcases_id_fk" FOREIGN KEY ("showcase_id") REFERENCES "public"."showcases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "search_misses_showcase_idx" ON "search_misses" USING btree ("showcase_id","day");--> statement-breakpoint
CREATE INDEX "purchase_items_bundle_showcase_idx" ON "purchase_items" USING btree ("bundle_showcase_id") WHERE "purchase_items"."bundle_showcase_id" is not null;--> statement-breakpoint
ALTER TABLE "video_stat_events" ADD CONSTRAINT "video_stat_events_kind_check" CHECK ("video_stat_events"."kind" in ('view', 'download', 'visit'));--> statement-breakpoint
ALTER TABLE "videos" ADD CONSTRAINT "videos_visits_check" CHECK ("videos"."visits" >= 0);