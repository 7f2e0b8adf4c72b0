CREATE TABLE "buyer_sessions" (
	"id_hash" text PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "buyer_sign_in_links" (
	"id" text PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"token_hash" text,
	"expires_at" timestamp with time zone,
	"sent_at" timestamp with time zone,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "buyer_sign_in_links_tokenHash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE INDEX "buyer_sessions_expires_at_idx" ON "buyer_sessions" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "buyer_sign_in_links_created_at_idx" ON "buyer_sign_in_links" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "purchases_buyer_email_idx" ON "purchases" USING btree (lower(btrim("buyer_email")));