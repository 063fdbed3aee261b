// Text that no column can store: PostgreSQL refuses a NUL character in text and jsonb, and a lone UTF-16
// surrogate is not Unicode (JSON columns refuse it, text columns would silently turn it into U+FFFD).
// Every request's path, query and body is walked once before its schema runs (functions/openapi/route.ts),
// so each such string, or object key, is a 422 naming where it is, whatever field it arrives in.
import type { ValidationIssue } from "../errors.ts";

/** Why a string cannot be stored, or undefined when it can. */
export function unsafeTextReason(s: string): string | undefined {
  if (s.includes("\u0000")) return "Must not contain a NUL character (\\u0000).";
  if (!s.isWellFormed()) return "Must be valid Unicode: it contains an unpaired UTF-16 surrogate.";
  return undefined;
}

/** Past this depth a value is not walked further (JSON.parse has already bounded it; this bounds us). */
const MAX_DEPTH = 64;

/** The issues of every unsafe string (values and object keys) in a parsed request part. */
export function unsafeTextIssues(where: string, value: unknown): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const visit = (v: unknown, loc: (string | number)[], depth: number): void => {
    if (typeof v === "string") {
      const msg = unsafeTextReason(v);
      if (msg) issues.push({ loc, msg, type: "unsafe_text" });
      return;
    }
    if (typeof v !== "object" || v === null || depth > MAX_DEPTH) return;
    if (Array.isArray(v)) {
      for (const [i, item] of v.entries()) visit(item, [...loc, i], depth + 1);
      return;
    }
    for (const [key, item] of Object.entries(v)) {
      const keyProblem = unsafeTextReason(key);
      // The key itself cannot be named as it is; its position in the object stands in for it.
      if (keyProblem) issues.push({ loc: [...loc, "(key)"], msg: `A field name: ${keyProblem}`, type: "unsafe_text" });
      else visit(item, [...loc, key], depth + 1);
    }
  };
  visit(value, [where], 0);
  return issues;
}
