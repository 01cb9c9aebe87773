ALTER TABLE "sessions" ADD COLUMN "check_claim_id" text;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "check_claim_expires_at" timestamp with time zone;