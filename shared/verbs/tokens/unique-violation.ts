// A unique-index violation (SQLSTATE 23505) of one named index, whichever driver raised it: postgres.js
// puts the name in `constraint_name`, PGlite in `constraint`, and drizzle wraps both in `cause`.
export function isUniqueViolation(error: unknown, index: string): boolean {
  for (
    let e = error as Record<string, unknown> | undefined;
    e && typeof e === "object";
    e = e.cause as Record<string, unknown> | undefined
  ) {
    if (e.code === "23505") return (e.constraint_name ?? e.constraint) === index;
  }
  return false;
}
