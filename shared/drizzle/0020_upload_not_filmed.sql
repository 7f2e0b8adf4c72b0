CREATE TABLE "upload_not_filmed" (
	"batch_id" text NOT NULL,
	"entry_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "upload_not_filmed_batch_id_entry_id_pk" PRIMARY KEY("batch_id","entry_id")
);
--> statement-breakpoint
ALTER TABLE "upload_not_filmed" ADD CONSTRAINT "upload_not_filmed_batch_id_upload_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."upload_batches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "upload_not_filmed" ADD CONSTRAINT "upload_not_filmed_entry_id_programme_entries_id_fk" FOREIGN KEY ("entry_id") REFERENCES "public"."programme_entries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "upload_not_filmed_entry_idx" ON "upload_not_filmed" USING btree ("entry_id");