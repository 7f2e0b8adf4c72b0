-- Competition programmes (decision 032). Both extensions exist since catalogue_search; named here because
-- the search keys below (library_search_text: unaccent) and their trigram indexes need them.
CREATE EXTENSION IF NOT EXISTS unaccent;--> statement-breakpoint
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE TABLE "programme_dancers" (
	"id" text PRIMARY KEY NOT NULL,
	"showcase_id" text NOT NULL,
	"name" text NOT NULL,
	"search_key" text GENERATED ALWAYS AS (btrim(library_search_text(name, NULL, NULL))) STORED NOT NULL
);
--> statement-breakpoint
CREATE TABLE "programme_entries" (
	"id" text PRIMARY KEY NOT NULL,
	"showcase_id" text NOT NULL,
	"entry_number" text NOT NULL,
	"entry_sort" integer NOT NULL,
	"section" text DEFAULT '' NOT NULL,
	"title" text DEFAULT '' NOT NULL,
	"studio_id" text,
	"section_key" text GENERATED ALWAYS AS (btrim(library_search_text(section || ' ' || title, NULL, NULL))) STORED NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "programme_entry_dancers" (
	"entry_id" text NOT NULL,
	"dancer_id" text NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "programme_entry_dancers_entry_id_dancer_id_pk" PRIMARY KEY("entry_id","dancer_id")
);
--> statement-breakpoint
CREATE TABLE "programme_mappings" (
	"header_hash" text PRIMARY KEY NOT NULL,
	"mapping" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "programme_studios" (
	"id" text PRIMARY KEY NOT NULL,
	"showcase_id" text NOT NULL,
	"name" text NOT NULL,
	"search_key" text GENERATED ALWAYS AS (btrim(library_search_text(name, NULL, NULL))) STORED NOT NULL
);
--> statement-breakpoint
ALTER TABLE "showcases" ADD COLUMN "dancer_names" text DEFAULT 'initial' NOT NULL;--> statement-breakpoint
ALTER TABLE "showcases" ADD COLUMN "routine_bundle_rule" jsonb;--> statement-breakpoint
ALTER TABLE "videos" ADD COLUMN "entry_id" text;--> statement-breakpoint
ALTER TABLE "videos" ADD COLUMN "own_text" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "programme_dancers" ADD CONSTRAINT "programme_dancers_showcase_id_showcases_id_fk" FOREIGN KEY ("showcase_id") REFERENCES "public"."showcases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "programme_entries" ADD CONSTRAINT "programme_entries_showcase_id_showcases_id_fk" FOREIGN KEY ("showcase_id") REFERENCES "public"."showcases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "programme_entries" ADD CONSTRAINT "programme_entries_studio_id_programme_studios_id_fk" FOREIGN KEY ("studio_id") REFERENCES "public"."programme_studios"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "programme_entry_dancers" ADD CONSTRAINT "programme_entry_dancers_entry_id_programme_entries_id_fk" FOREIGN KEY ("entry_id") REFERENCES "public"."programme_entries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "programme_entry_dancers" ADD CONSTRAINT "programme_entry_dancers_dancer_id_programme_dancers_id_fk" FOREIGN KEY ("dancer_id") REFERENCES "public"."programme_dancers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "programme_studios" ADD CONSTRAINT "programme_studios_showcase_id_showcases_id_fk" FOREIGN KEY ("showcase_id") REFERENCES "public"."showcases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "programme_dancers_showcase_key" ON "programme_dancers" USING btree ("showcase_id","search_key");--> statement-breakpoint
CREATE INDEX "programme_dancers_search_idx" ON "programme_dancers" USING gin ("search_key" gin_trgm_ops);--> statement-breakpoint
CREATE UNIQUE INDEX "programme_entries_number_key" ON "programme_entries" USING btree ("showcase_id",lower("entry_number"));--> statement-breakpoint
CREATE INDEX "programme_entries_sort_idx" ON "programme_entries" USING btree ("entry_sort","showcase_id");--> statement-breakpoint
CREATE INDEX "programme_entries_studio_idx" ON "programme_entries" USING btree ("studio_id");--> statement-breakpoint
CREATE INDEX "programme_entries_section_idx" ON "programme_entries" USING gin ("section_key" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "programme_entry_dancers_dancer_idx" ON "programme_entry_dancers" USING btree ("dancer_id");--> statement-breakpoint
CREATE UNIQUE INDEX "programme_studios_showcase_key" ON "programme_studios" USING btree ("showcase_id","search_key");--> statement-breakpoint
CREATE INDEX "programme_studios_search_idx" ON "programme_studios" USING gin ("search_key" gin_trgm_ops);--> statement-breakpoint
ALTER TABLE "videos" ADD CONSTRAINT "videos_entry_id_programme_entries_id_fk" FOREIGN KEY ("entry_id") REFERENCES "public"."programme_entries"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "videos_entry_idx" ON "videos" USING btree ("entry_id");--> statement-breakpoint
ALTER TABLE "showcases" ADD CONSTRAINT "showcases_dancer_names_check" CHECK ("showcases"."dancer_names" in ('full', 'initial', 'hidden'));