CREATE TABLE "allowed_domains" (
	"tenant_id" text NOT NULL,
	"domain" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "allowed_domains_tenant_id_domain_pk" PRIMARY KEY("tenant_id","domain")
);
--> statement-breakpoint
CREATE TABLE "events" (
	"id" text PRIMARY KEY NOT NULL,
	"tenant_id" text NOT NULL,
	"session_id" text NOT NULL,
	"pair_id" text NOT NULL,
	"kind" text NOT NULL,
	"test" boolean NOT NULL,
	"data" jsonb NOT NULL,
	"occurred_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "key_pairs" (
	"id" text PRIMARY KEY NOT NULL,
	"tenant_id" text NOT NULL,
	"sandbox" boolean NOT NULL,
	"publishable_key" text NOT NULL,
	"secret_key_hash" text NOT NULL,
	"secret_key_hint" text NOT NULL,
	"publishable_revoked_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "server_settings" (
	"key" text PRIMARY KEY NOT NULL,
	"value" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"tenant_id" text NOT NULL,
	"pair_id" text NOT NULL,
	"sandbox" boolean NOT NULL,
	"state" text NOT NULL,
	"outcome" text,
	"failure_reason" text,
	"return_url" text NOT NULL,
	"cancel_url" text,
	"merchant_name" text,
	"external_user_id" text,
	"verification_mode" text NOT NULL,
	"challenge_age" integer NOT NULL,
	"face_match_enabled" boolean NOT NULL,
	"session_token_hash" text NOT NULL,
	"handoff_token_hash" text NOT NULL,
	"billing_block" jsonb,
	"created_with" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"completed_at" timestamp with time zone,
	"validated_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "tenants" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"policy_verification_mode" text DEFAULT 'L1' NOT NULL,
	"policy_challenge_age" integer DEFAULT 25 NOT NULL,
	"policy_face_match_enabled" boolean DEFAULT true NOT NULL,
	"legal_minimum_age" integer DEFAULT 18 NOT NULL,
	"plan_code" text DEFAULT 'free' NOT NULL,
	"plan_active" boolean DEFAULT true NOT NULL,
	"plan_monthly_allowance" integer,
	"plan_sandbox_allowance" integer,
	"plan_portal_url" text,
	"rate_limit_create" integer,
	"rate_limit_validate" integer,
	"legacy_webhook_url" text,
	"legacy_webhook_secret" text,
	"legacy_webhook_events" jsonb,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" text PRIMARY KEY NOT NULL,
	"tenant_id" text NOT NULL,
	"email" text NOT NULL,
	"password_hash" text NOT NULL,
	"role" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_endpoints" (
	"id" text PRIMARY KEY NOT NULL,
	"tenant_id" text NOT NULL,
	"url" text NOT NULL,
	"secret" text NOT NULL,
	"events" jsonb NOT NULL,
	"pair_id" text,
	"enabled" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "allowed_domains" ADD CONSTRAINT "allowed_domains_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "key_pairs" ADD CONSTRAINT "key_pairs_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_pair_id_key_pairs_id_fk" FOREIGN KEY ("pair_id") REFERENCES "public"."key_pairs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "webhook_endpoints_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "webhook_endpoints_pair_id_key_pairs_id_fk" FOREIGN KEY ("pair_id") REFERENCES "public"."key_pairs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "events_tenant_created_idx" ON "events" USING btree ("tenant_id","created_at");--> statement-breakpoint
CREATE INDEX "events_session_idx" ON "events" USING btree ("session_id");--> statement-breakpoint
CREATE UNIQUE INDEX "key_pairs_publishable_idx" ON "key_pairs" USING btree ("publishable_key");--> statement-breakpoint
CREATE UNIQUE INDEX "key_pairs_secret_hash_idx" ON "key_pairs" USING btree ("secret_key_hash");--> statement-breakpoint
CREATE INDEX "key_pairs_tenant_idx" ON "key_pairs" USING btree ("tenant_id");--> statement-breakpoint
CREATE INDEX "sessions_tenant_created_idx" ON "sessions" USING btree ("tenant_id","created_at");--> statement-breakpoint
CREATE INDEX "sessions_pending_expiry_idx" ON "sessions" USING btree ("expires_at") WHERE "sessions"."state" = 'PENDING';--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_idx" ON "users" USING btree (lower("email"));--> statement-breakpoint
CREATE INDEX "webhook_endpoints_tenant_idx" ON "webhook_endpoints" USING btree ("tenant_id");