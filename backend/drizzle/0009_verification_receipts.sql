CREATE TABLE "receipt_chains" (
	"tenant_id" text PRIMARY KEY NOT NULL,
	"seq" integer NOT NULL,
	"head_digest" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "receipt_signing_keys" (
	"kid" text PRIMARY KEY NOT NULL,
	"alg" text NOT NULL,
	"public_jwk" jsonb NOT NULL,
	"sealed_private_jwk" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"retired_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "receipts" (
	"session_id" text PRIMARY KEY NOT NULL,
	"tenant_id" text NOT NULL,
	"seq" integer NOT NULL,
	"jws" text NOT NULL,
	"issued_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "check_evidence" jsonb;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "receipt_due" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "receipt_chains" ADD CONSTRAINT "receipt_chains_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "receipts" ADD CONSTRAINT "receipts_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "receipts" ADD CONSTRAINT "receipts_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "receipt_signing_keys_one_active_idx" ON "receipt_signing_keys" USING btree ("alg") WHERE "receipt_signing_keys"."retired_at" IS NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "receipts_tenant_seq_idx" ON "receipts" USING btree ("tenant_id","seq");--> statement-breakpoint
CREATE INDEX "sessions_receipt_due_idx" ON "sessions" USING btree ("completed_at") WHERE "sessions"."receipt_due";