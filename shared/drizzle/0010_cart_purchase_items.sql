CREATE TABLE "purchase_items" (
	"id" text PRIMARY KEY NOT NULL,
	"purchase_id" text NOT NULL,
	"video_id" text,
	"bundle_showcase_id" text,
	"title" text NOT NULL,
	"list_price_cents" integer NOT NULL,
	"amount_cents" integer NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "purchase_items_amount_check" CHECK ("purchase_items"."amount_cents" >= 0 and "purchase_items"."list_price_cents" >= 0)
);
--> statement-breakpoint
ALTER TABLE "purchases" DROP CONSTRAINT "purchases_video_id_videos_id_fk";
--> statement-breakpoint
DROP INDEX "purchases_video_idx";--> statement-breakpoint
ALTER TABLE "sales" ALTER COLUMN "video_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "showcases" ADD COLUMN "bundle_price_cents" integer;--> statement-breakpoint
ALTER TABLE "purchase_items" ADD CONSTRAINT "purchase_items_purchase_id_purchases_id_fk" FOREIGN KEY ("purchase_id") REFERENCES "public"."purchases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "purchase_items" ADD CONSTRAINT "purchase_items_video_id_videos_id_fk" FOREIGN KEY ("video_id") REFERENCES "public"."videos"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "purchase_items" ADD CONSTRAINT "purchase_items_bundle_showcase_id_showcases_id_fk" FOREIGN KEY ("bundle_showcase_id") REFERENCES "public"."showcases"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "purchase_items_purchase_idx" ON "purchase_items" USING btree ("purchase_id","position");--> statement-breakpoint
CREATE UNIQUE INDEX "purchase_items_purchase_video_key" ON "purchase_items" USING btree ("purchase_id","video_id");--> statement-breakpoint
CREATE INDEX "purchase_items_video_idx" ON "purchase_items" USING btree ("video_id");--> statement-breakpoint
-- Every purchase made before carts bought one video: it becomes that purchase's one item.
INSERT INTO "purchase_items" ("id", "purchase_id", "video_id", "title", "list_price_cents", "amount_cents")
SELECT gen_random_uuid()::text, p."id", p."video_id", v."title", p."amount_cents", p."amount_cents"
FROM "purchases" p JOIN "videos" v ON v."id" = p."video_id";--> statement-breakpoint
ALTER TABLE "purchases" DROP COLUMN "video_id";--> statement-breakpoint
ALTER TABLE "showcases" ADD CONSTRAINT "showcases_bundle_price_check" CHECK ("showcases"."bundle_price_cents" is null or "showcases"."bundle_price_cents" > 0);