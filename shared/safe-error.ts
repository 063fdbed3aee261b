// What a log line may say about an error. A failed query's error carries its parameter values (drizzle
// puts them in the message: password hashes, token HMACs, community strings) and PostgreSQL's detail
// echoes the offending value, so neither is ever logged: an error is described by its class, SQLSTATE,
// constraint, table, column and statement text (placeholders, no values), and its stack frames.

interface ChainLink {
  message?: unknown;
  code?: unknown;
  severity?: unknown;
  constraint_name?: unknown;
  constraint?: unknown;
  table_name?: unknown;
  column_name?: unknown;
  routine?: unknown;
  /** drizzle's DrizzleQueryError: the statement text, beside `params`, which never leave it. */
  query?: unknown;
}

/** SQLSTATE classes whose messages can quote the request's values (data exceptions, constraint violations). */
const QUOTES_VALUES = /^2[23]/;
const STATEMENT_CHARS = 160;

const str = (v: unknown) => (typeof v === "string" && v !== "" ? v : undefined);

/** The stack's frames only: the first lines repeat the message, which may hold the values. */
function frames(stack: string | undefined): string | undefined {
  const at = stack?.indexOf("\n    at ") ?? -1;
  return at >= 0 ? stack!.slice(at + 1) : undefined;
}

/** Fields of the error chain (error, its cause, ...) that are safe to log. */
export function safeErrorFields(err: unknown): Record<string, unknown> {
  if (!(err instanceof Error)) return { error: redactSecrets(String(err)) };
  const out: Record<string, unknown> = { error_class: err.name };
  let message: string | undefined;
  for (let e: unknown = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const link = e as ChainLink;
    // drizzle's wrapper and postgres.js's error (non-enumerably) both carry the statement text.
    const statement = str(link.query);
    if (statement) out.statement ??= statement.replace(/\s+/g, " ").slice(0, STATEMENT_CHARS);
    // A PostgreSQL error (postgres.js and PGlite both carry a severity beside the SQLSTATE).
    if (typeof link.severity === "string" && typeof link.code === "string") {
      if (out.sqlstate !== undefined) continue;
      out.sqlstate = link.code;
      const named = {
        constraint: str(link.constraint_name) ?? str(link.constraint),
        table: str(link.table_name),
        column: str(link.column_name),
        routine: str(link.routine),
      };
      for (const [k, v] of Object.entries(named)) if (v) out[k] = v;
      if (!QUOTES_VALUES.test(link.code)) message ??= str(link.message);
      continue;
    }
    // The wrapper's own message is the statement plus its parameters: only the statement is told.
    if (statement) continue;
    if (typeof link.code === "string") out.code ??= link.code;
    message ??= str(link.message);
  }
  if (message) out.error = redactSecrets(message);
  const stack = frames(err.stack);
  if (stack) out.stack = stack;
  return out;
}

/**
 * Removes what must never reach a log from free text: a failed query's parameter list, and the shapes
 * of our stored secrets (password hashes, API-token salt:hmac pairs). A net under safeErrorFields for
 * errors that callers turn into strings themselves.
 */
export function redactSecrets(text: string): string {
  return text
    .replace(/\nparams: [\s\S]*$/, "\nparams: [redacted]")
    .replace(/pbkdf2_sha256\$[^\s"',]+/g, "[redacted]")
    .replace(/\b[0-9a-f]{16,}:[0-9a-f]{64}\b/gi, "[redacted]");
}
