ALTER TABLE "videos" ADD COLUMN "processing_state" text;--> statement-breakpoint
ALTER TABLE "videos" ADD COLUMN "processing_error" text;--> statement-breakpoint
ALTER TABLE "videos" ADD COLUMN "media" jsonb;--> statement-breakpoint
ALTER TABLE "videos" ADD CONSTRAINT "videos_processing_state_check" CHECK ("videos"."processing_state" in ('queued', 'processing', 'ready', 'failed'));