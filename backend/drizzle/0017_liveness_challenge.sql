ALTER TABLE "sessions" ADD COLUMN "challenge_id" text;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "challenge_moves" jsonb;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "challenge_expires_at" timestamp with time zone;