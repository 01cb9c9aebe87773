import { sql } from 'drizzle-orm';

/**
 * A Date as a parameter of raw SQL. Column builders serialise dates for the driver, a raw `sql`
 * template does not (the driver gets `Date.toString()`, without milliseconds), so the ISO string
 * is passed and cast explicitly.
 */
export const timestamptz = (date: Date) => sql`${date.toISOString()}::timestamptz`;
