CREATE TABLE "upload_batches" (
	"id" text PRIMARY KEY NOT NULL,
	"showcase_id" text NOT NULL,
	"publish" boolean DEFAULT false NOT NULL,
	"price_cents" integer DEFAULT 0 NOT NULL,
	"confirmed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "upload_batches_price_check" CHECK ("upload_batches"."price_cents" >= 0)
);
--> statement-breakpoint
CREATE TABLE "upload_files" (
	"id" text PRIMARY KEY NOT NULL,
	"batch_id" text NOT NULL,
	"file_name" text NOT NULL,
	"size" bigint NOT NULL,
	"content_type" text NOT NULL,
	"captured_at" timestamp with time zone,
	"aws_key" text NOT NULL,
	"upload_id" text,
	"part_size" integer NOT NULL,
	"state" text DEFAULT 'uploading' NOT NULL,
	"error" text,
	"entry_id" text,
	"matched_by" text,
	"content_hash" text,
	"video_id" text,
	"released_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "upload_files_state_check" CHECK ("upload_files"."state" in ('uploading', 'uploaded', 'duplicate', 'failed')),
	CONSTRAINT "upload_files_size_check" CHECK ("upload_files"."size" > 0)
);
--> statement-breakpoint
ALTER TABLE "videos" ADD COLUMN "content_hash" text;--> statement-breakpoint
ALTER TABLE "upload_batches" ADD CONSTRAINT "upload_batches_showcase_id_showcases_id_fk" FOREIGN KEY ("showcase_id") REFERENCES "public"."showcases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "upload_files" ADD CONSTRAINT "upload_files_batch_id_upload_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."upload_batches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "upload_files" ADD CONSTRAINT "upload_files_entry_id_programme_entries_id_fk" FOREIGN KEY ("entry_id") REFERENCES "public"."programme_entries"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "upload_files" ADD CONSTRAINT "upload_files_video_id_videos_id_fk" FOREIGN KEY ("video_id") REFERENCES "public"."videos"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "upload_batches_showcase_idx" ON "upload_batches" USING btree ("showcase_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "upload_files_batch_file_key" ON "upload_files" USING btree ("batch_id","file_name","size");--> statement-breakpoint
CREATE INDEX "upload_files_uploading_idx" ON "upload_files" USING btree ("updated_at") WHERE "upload_files"."state" = 'uploading';--> statement-breakpoint
CREATE INDEX "upload_files_video_idx" ON "upload_files" USING btree ("video_id");--> statement-breakpoint
CREATE UNIQUE INDEX "videos_content_hash_key" ON "videos" USING btree ("content_hash") WHERE "videos"."content_hash" is not null;