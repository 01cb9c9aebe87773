ALTER TABLE "sessions" ADD COLUMN "check_stage" text;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "check_retries" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "check_decisions" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "tenants" ADD COLUMN "policy_step_up_allowed" boolean DEFAULT true NOT NULL;