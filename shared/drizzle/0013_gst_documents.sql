CREATE TABLE "document_counters" (
	"name" text PRIMARY KEY NOT NULL,
	"last_number" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "gst_settings" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"registered" boolean NOT NULL,
	"gst_number" text,
	"legal_name" text NOT NULL,
	"address" text NOT NULL,
	"rate_basis_points" integer NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "gst_settings_one_row_check" CHECK ("gst_settings"."id" = 1),
	CONSTRAINT "gst_settings_number_check" CHECK (not "gst_settings"."registered" or "gst_settings"."gst_number" is not null),
	CONSTRAINT "gst_settings_rate_check" CHECK ("gst_settings"."rate_basis_points" between 0 and 10000)
);
--> statement-breakpoint
CREATE TABLE "payment_fees" (
	"purchase_id" text PRIMARY KEY NOT NULL,
	"charge_id" text NOT NULL,
	"balance_transaction_id" text NOT NULL,
	"method_type" text,
	"fee_cents" integer NOT NULL,
	"net_cents" integer NOT NULL,
	"available_on" timestamp with time zone,
	"read_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "reminder_unsubscribes" (
	"email" text PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tax_documents" (
	"id" text PRIMARY KEY NOT NULL,
	"number" integer NOT NULL,
	"kind" text NOT NULL,
	"purchase_id" text NOT NULL,
	"credited_document_id" text,
	"issued_at" timestamp with time zone DEFAULT now() NOT NULL,
	"total_cents" integer NOT NULL,
	"gst_cents" integer NOT NULL,
	"registered" boolean NOT NULL,
	"payment_method" text NOT NULL,
	"refunded_cents_after" integer,
	"content" jsonb NOT NULL,
	"emailed_at" timestamp with time zone,
	CONSTRAINT "tax_documents_number_unique" UNIQUE("number"),
	CONSTRAINT "tax_documents_kind_check" CHECK ("tax_documents"."kind" in ('invoice', 'credit-note')),
	CONSTRAINT "tax_documents_amount_check" CHECK ("tax_documents"."total_cents" > 0 and "tax_documents"."gst_cents" >= 0)
);
--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "reminder_consent" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "reminder_sent_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "recovered_from_session_id" text;--> statement-breakpoint
ALTER TABLE "payment_fees" ADD CONSTRAINT "payment_fees_purchase_id_purchases_id_fk" FOREIGN KEY ("purchase_id") REFERENCES "public"."purchases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tax_documents" ADD CONSTRAINT "tax_documents_purchase_id_purchases_id_fk" FOREIGN KEY ("purchase_id") REFERENCES "public"."purchases"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "tax_documents_one_invoice_idx" ON "tax_documents" USING btree ("purchase_id") WHERE "tax_documents"."kind" = 'invoice';--> statement-breakpoint
CREATE UNIQUE INDEX "tax_documents_credit_step_idx" ON "tax_documents" USING btree ("purchase_id","refunded_cents_after") WHERE "tax_documents"."kind" = 'credit-note';--> statement-breakpoint
CREATE INDEX "tax_documents_issued_at_idx" ON "tax_documents" USING btree ("issued_at");--> statement-breakpoint
-- The one document sequence starts at 1 (its row must exist: documents advance it with UPDATE ... RETURNING).
INSERT INTO "document_counters" ("name", "last_number") VALUES ('tax-documents', 0) ON CONFLICT DO NOTHING;
