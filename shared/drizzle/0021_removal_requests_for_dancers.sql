ALTER TABLE "removal_requests" ADD COLUMN "subject_kind" text DEFAULT 'video' NOT NULL;--> statement-breakpoint
ALTER TABLE "removal_requests" ADD COLUMN "dancer_id" text;--> statement-breakpoint
ALTER TABLE "removal_requests" ADD CONSTRAINT "removal_requests_dancer_id_programme_dancers_id_fk" FOREIGN KEY ("dancer_id") REFERENCES "public"."programme_dancers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "removal_requests" ADD CONSTRAINT "removal_requests_subject_kind_check" CHECK ("removal_requests"."subject_kind" in ('video', 'dancer'));