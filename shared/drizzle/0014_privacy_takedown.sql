CREATE TABLE "audit_log" (
	"id" serial PRIMARY KEY NOT NULL,
	"actor" text NOT NULL,
	"action" text NOT NULL,
	"subject_kind" text NOT NULL,
	"subject_id" text NOT NULL,
	"subject_name" text NOT NULL,
	"reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "audit_log_action_check" CHECK ("audit_log"."action" in ('hide', 'unhide', 'delete', 'takedown', 'restore'))
);
--> statement-breakpoint
CREATE TABLE "removal_requests" (
	"id" text PRIMARY KEY NOT NULL,
	"video_id" text,
	"video_title" text NOT NULL,
	"requester" text NOT NULL,
	"reason" text NOT NULL,
	"email" text NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"notified_at" timestamp with time zone,
	"resolved_at" timestamp with time zone,
	CONSTRAINT "removal_requests_requester_check" CHECK ("removal_requests"."requester" in ('parent', 'dancer', 'studio')),
	CONSTRAINT "removal_requests_status_check" CHECK ("removal_requests"."status" in ('open', 'done', 'declined'))
);
--> statement-breakpoint
ALTER TABLE "showcases" ADD COLUMN "privacy" text DEFAULT 'public' NOT NULL;--> statement-breakpoint
ALTER TABLE "showcases" ADD COLUMN "access_code_encrypted" text;--> statement-breakpoint
ALTER TABLE "videos" ADD COLUMN "withdrawn_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "removal_requests" ADD CONSTRAINT "removal_requests_video_id_videos_id_fk" FOREIGN KEY ("video_id") REFERENCES "public"."videos"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_log_created_at_idx" ON "audit_log" USING btree ("created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "removal_requests_created_at_idx" ON "removal_requests" USING btree ("created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "removal_requests_unnotified_idx" ON "removal_requests" USING btree ("created_at") WHERE "removal_requests"."notified_at" is null;--> statement-breakpoint
ALTER TABLE "showcases" ADD CONSTRAINT "showcases_privacy_check" CHECK ("showcases"."privacy" in ('public', 'unlisted', 'code'));--> statement-breakpoint
ALTER TABLE "showcases" ADD CONSTRAINT "showcases_access_code_check" CHECK ("showcases"."privacy" <> 'code' or "showcases"."access_code_encrypted" is not null);--> statement-breakpoint
ALTER TABLE "videos" ADD CONSTRAINT "videos_withdrawn_hidden_check" CHECK ("videos"."withdrawn_at" is null or not "videos"."published");--> statement-breakpoint
-- The public clip and poster routes find their video by the stored key (to refuse hidden, withdrawn and locked ones).
CREATE INDEX "videos_clip_key_idx" ON "videos" USING btree (("media"->>'clipKey'));--> statement-breakpoint
CREATE INDEX "videos_poster_key_idx" ON "videos" USING btree (("media"->>'posterKey'));--> statement-breakpoint
CREATE INDEX "videos_preview_url_idx" ON "videos" USING btree ("preview_url");
