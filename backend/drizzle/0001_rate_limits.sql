CREATE TABLE "rate_limit_windows" (
	"tenant_id" text NOT NULL,
	"bucket" text NOT NULL,
	"window_start" timestamp with time zone NOT NULL,
	"count" integer NOT NULL,
	CONSTRAINT "rate_limit_windows_tenant_id_bucket_window_start_pk" PRIMARY KEY("tenant_id","bucket","window_start")
);
--> statement-breakpoint
CREATE INDEX "rate_limit_windows_start_idx" ON "rate_limit_windows" USING btree ("window_start");