CREATE TABLE "images" (
	"id" text PRIMARY KEY NOT NULL,
	"purpose" text NOT NULL,
	"source_key" text NOT NULL,
	"original_name" text DEFAULT '' NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"error" text,
	"width" integer,
	"height" integer,
	"widths" jsonb,
	"placeholder" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"processed_at" timestamp with time zone,
	CONSTRAINT "images_purpose_check" CHECK ("images"."purpose" in ('portfolio', 'event', 'poster')),
	CONSTRAINT "images_status_check" CHECK ("images"."status" in ('pending', 'ready', 'failed'))
);
--> statement-breakpoint
DROP INDEX "portfolio_items_category_idx";--> statement-breakpoint
ALTER TABLE "portfolio_items" ADD COLUMN "published" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "portfolio_items" ADD COLUMN "position" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "portfolio_items" ADD COLUMN "image_id" text;--> statement-breakpoint
ALTER TABLE "portfolio_items" ADD COLUMN "next_image_id" text;--> statement-breakpoint
ALTER TABLE "portfolio_items" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "images_source_key_idx" ON "images" USING btree ("source_key");--> statement-breakpoint
CREATE INDEX "images_purpose_idx" ON "images" USING btree ("purpose","created_at");--> statement-breakpoint
ALTER TABLE "portfolio_items" ADD CONSTRAINT "portfolio_items_image_id_images_id_fk" FOREIGN KEY ("image_id") REFERENCES "public"."images"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "portfolio_items" ADD CONSTRAINT "portfolio_items_next_image_id_images_id_fk" FOREIGN KEY ("next_image_id") REFERENCES "public"."images"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "portfolio_items_image_idx" ON "portfolio_items" USING btree ("image_id");--> statement-breakpoint
CREATE INDEX "portfolio_items_next_image_idx" ON "portfolio_items" USING btree ("next_image_id");--> statement-breakpoint
CREATE INDEX "portfolio_items_category_idx" ON "portfolio_items" USING btree ("category","position","id");--> statement-breakpoint
ALTER TABLE "portfolio_items" ADD CONSTRAINT "portfolio_items_position_check" CHECK ("portfolio_items"."position" >= 0);