-- The hero slideshow takes featured photos now, so the 'hero' category goes (decision 021).
-- The seeded hero row is the slideshow's fixed first slide: keeping it would show that picture twice.
DELETE FROM "portfolio_items" WHERE "category" = 'hero' AND "image_url" = '/api/images/hero/stage-hero.jpg';--> statement-breakpoint
-- Any other hero picture stays in the slideshow as a featured stage shot.
UPDATE "portfolio_items" SET "category" = 'stage', "featured" = true WHERE "category" = 'hero';--> statement-breakpoint
-- Order numbers keep today's public order (featured first, then oldest first) within each category.
UPDATE "portfolio_items" AS p SET "position" = o.rn - 1
FROM (
  SELECT "id", row_number() OVER (PARTITION BY "category" ORDER BY "featured" DESC, "id") AS rn
  FROM "portfolio_items"
) AS o
WHERE p."id" = o."id";
