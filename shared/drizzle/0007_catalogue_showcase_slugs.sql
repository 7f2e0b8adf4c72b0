CREATE TABLE "showcase_slug_redirects" (
	"slug" text PRIMARY KEY NOT NULL,
	"showcase_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
DROP INDEX "videos_showcase_idx";--> statement-breakpoint
ALTER TABLE "showcases" ADD COLUMN "slug" text DEFAULT gen_random_uuid()::text NOT NULL;--> statement-breakpoint
ALTER TABLE "showcases" ADD COLUMN "show_videos_in_search_engines" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "showcase_slug_redirects" ADD CONSTRAINT "showcase_slug_redirects_showcase_id_showcases_id_fk" FOREIGN KEY ("showcase_id") REFERENCES "public"."showcases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "showcases_slug_key" ON "showcases" USING btree ("slug");--> statement-breakpoint
CREATE INDEX "videos_created_at_idx" ON "videos" USING btree ("created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "videos_showcase_idx" ON "videos" USING btree ("showcase_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);