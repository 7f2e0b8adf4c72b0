CREATE TABLE "online_alerts" (
	"id" text PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"entry_id" text,
	"dancer_id" text,
	"online_routines" integer DEFAULT 0 NOT NULL,
	"confirm_sent_at" timestamp with time zone,
	"confirmed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "online_alerts_target_key" UNIQUE NULLS NOT DISTINCT("email","entry_id","dancer_id"),
	CONSTRAINT "online_alerts_one_target" CHECK (num_nonnulls("online_alerts"."entry_id", "online_alerts"."dancer_id") = 1)
);
--> statement-breakpoint
ALTER TABLE "online_alerts" ADD CONSTRAINT "online_alerts_entry_id_programme_entries_id_fk" FOREIGN KEY ("entry_id") REFERENCES "public"."programme_entries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "online_alerts" ADD CONSTRAINT "online_alerts_dancer_id_programme_dancers_id_fk" FOREIGN KEY ("dancer_id") REFERENCES "public"."programme_dancers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "online_alerts_entry_idx" ON "online_alerts" USING btree ("entry_id");--> statement-breakpoint
CREATE INDEX "online_alerts_dancer_idx" ON "online_alerts" USING btree ("dancer_id");--> statement-breakpoint
CREATE INDEX "online_alerts_created_at_idx" ON "online_alerts" USING btree ("created_at");