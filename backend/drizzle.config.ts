import { defineConfig } from 'drizzle-kit';

// `bun run db:generate` writes a new migration into backend/drizzle from src/db/schema.ts.
export default defineConfig({
  dialect: 'postgresql',
  schema: './backend/src/db/schema.ts',
  out: './backend/drizzle',
});
