ALTER TABLE "rate_limit_windows" RENAME COLUMN "tenant_id" TO "subject";--> statement-breakpoint
ALTER TABLE "rate_limit_windows" DROP CONSTRAINT "rate_limit_windows_tenant_id_bucket_window_start_pk";--> statement-breakpoint
ALTER TABLE "rate_limit_windows" ADD CONSTRAINT "rate_limit_windows_subject_bucket_window_start_pk" PRIMARY KEY("subject","bucket","window_start");