/** Structured JSON logs, one object per line, so log tools can filter by field. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}

export function createLogger(level: LogLevel = 'info', write: (line: string) => void = (line) => process.stdout.write(`${line}\n`)): Logger {
  const emit = (at: LogLevel, msg: string, fields?: Record<string, unknown>) => {
    if (ORDER[at] < ORDER[level]) return;
    write(JSON.stringify({ time: new Date().toISOString(), level: at, msg, ...fields }));
  };
  return {
    debug: (msg, fields) => emit('debug', msg, fields),
    info: (msg, fields) => emit('info', msg, fields),
    warn: (msg, fields) => emit('warn', msg, fields),
    error: (msg, fields) => emit('error', msg, fields),
  };
}

export const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {} };

/**
 * What of an error may be logged (issue 8, finding 7: personal data in error logs). A failed
 * query's message carries its parameters — externalUserId, returnUrl, token hashes — and a database
 * error's message and detail quote the offending values, so database errors are logged by their
 * codes and names only: the SQL text (parameterised, no values), the SQLSTATE, and the table,
 * column or constraint. Other errors are programming errors; their message and stack are kept.
 */
export function describeError(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { error: typeof error };
  const query = (error as { query?: unknown }).query;
  const cause = (error as { cause?: unknown }).cause;
  if (typeof query === 'string' && 'params' in error) {
    return { error: error.name, query, ...databaseFields(cause) };
  }
  if (isDatabaseError(error)) return { error: error.name, ...databaseFields(error) };
  return { error: error.name, message: error.message, stack: error.stack };
}

/** postgres.js (PostgresError) and PGlite (DatabaseError) errors carry a five-character SQLSTATE. */
function isDatabaseError(error: unknown): boolean {
  const code = (error as { code?: unknown })?.code;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) && ('severity' in (error as object) || 'routine' in (error as object));
}

function databaseFields(error: unknown): Record<string, unknown> {
  if (!error || typeof error !== 'object') return {};
  const fields: Record<string, unknown> = {};
  for (const name of ['code', 'severity', 'routine', 'table_name', 'column_name', 'constraint_name', 'table', 'column', 'constraint'] as const) {
    const value = (error as Record<string, unknown>)[name];
    if (typeof value === 'string' && value !== '') fields[name === 'code' ? 'sqlstate' : name] = value;
  }
  if (!fields.sqlstate && error instanceof Error) fields.cause = error.name === 'Error' ? 'error without SQLSTATE' : error.name;
  return fields;
}
