CREATE TABLE "pending_signup" (
	"id" text PRIMARY KEY NOT NULL,
	"secret_hash" text NOT NULL,
	"email" text NOT NULL,
	"name" text,
	"tenant_name" text NOT NULL,
	"password_hash" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "email_outbox" ALTER COLUMN "tenant_id" DROP NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "pending_signup_secret_idx" ON "pending_signup" USING btree ("secret_hash");--> statement-breakpoint
CREATE INDEX "pending_signup_expires_idx" ON "pending_signup" USING btree ("expires_at");