ALTER TABLE "auth_invitation" ADD COLUMN "secret_hash" text;--> statement-breakpoint
CREATE UNIQUE INDEX "auth_invitation_secret_idx" ON "auth_invitation" USING btree ("secret_hash");