CREATE TABLE "billing_usage" (
	"tenant_id" text NOT NULL,
	"sandbox" boolean NOT NULL,
	"month" timestamp with time zone NOT NULL,
	"used" integer NOT NULL,
	CONSTRAINT "billing_usage_tenant_id_sandbox_month_pk" PRIMARY KEY("tenant_id","sandbox","month")
);
--> statement-breakpoint
ALTER TABLE "billing_usage" ADD CONSTRAINT "billing_usage_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
-- Carry over what the count over sessions said, so an upgrade mid-month keeps each tenant's usage.
INSERT INTO "billing_usage" ("tenant_id", "sandbox", "month", "used")
SELECT "tenant_id", "sandbox", date_trunc('month', "created_at" AT TIME ZONE 'UTC') AT TIME ZONE 'UTC', count(*)::int
FROM "sessions" WHERE "billing_block" IS NULL GROUP BY 1, 2, 3;
