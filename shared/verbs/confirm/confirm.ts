// Destructive-action confirmation (spec 5.6, docs/architecture.md, API contracts): a high-impact verb runs only when
// the request names the action in x-svc-confirmation, carries an idempotency key, and, where the action
// needs one, asserts a verified backup. Anything else is 428 CONFIRMATION_REQUIRED, audited as denied.
import { ApiError } from "../../errors.ts";
import type { VerbContext } from "../verb-context.ts";
import { recordRefusal } from "../verb.ts";

export const CONFIRMATION_HEADER = "x-svc-confirmation";
export const IDEMPOTENCY_HEADER = "idempotency-key";
export const BACKUP_HEADER = "x-svc-backup-verified";
export const IDEMPOTENCY_KEY_MIN = 12; // spec 8.3
export const IDEMPOTENCY_KEY_MAX = 255;

export interface ConfirmationSpec {
  /** The action name the client must repeat in x-svc-confirmation (e.g. "delete-logs"). */
  action: string;
  /** Also require `x-svc-backup-verified: true`. */
  requiresBackup?: boolean;
}

/** Reads one request header by its lower-case name. */
export type HeaderReader = (name: string) => string | undefined;

const KEY_SHAPE = /^[\x21-\x7e]+$/; // visible ASCII: the key is echoed into logs and stored as text

export function requiredHeaders(spec: ConfirmationSpec): string[] {
  return [CONFIRMATION_HEADER, IDEMPOTENCY_HEADER, ...(spec.requiresBackup ? [BACKUP_HEADER] : [])];
}

/** What is wrong with the request's confirmation headers, by header name; empty when all is well. Pure. */
export function confirmationProblems(spec: ConfirmationSpec, header: HeaderReader): Record<string, string> {
  const problems: Record<string, string> = {};
  const confirmation = header(CONFIRMATION_HEADER)?.trim();
  if (confirmation !== spec.action)
    problems[CONFIRMATION_HEADER] = confirmation
      ? `must be "${spec.action}", not "${confirmation.slice(0, 64)}"`
      : `must be "${spec.action}"`;
  const key = header(IDEMPOTENCY_HEADER)?.trim() ?? "";
  if (key.length < IDEMPOTENCY_KEY_MIN || key.length > IDEMPOTENCY_KEY_MAX || !KEY_SHAPE.test(key))
    problems[IDEMPOTENCY_HEADER] =
      `must be ${IDEMPOTENCY_KEY_MIN} to ${IDEMPOTENCY_KEY_MAX} visible ASCII characters, unique to this request`;
  if (spec.requiresBackup && header(BACKUP_HEADER)?.trim().toLowerCase() !== "true")
    problems[BACKUP_HEADER] = `must be "true": verify a backup before this action`;
  return problems;
}

/**
 * Checks the headers and answers the idempotency key. A refusal is audited (committed although the
 * request fails) and thrown as 428 with the header names the action requires.
 */
export async function requireConfirmation(ctx: VerbContext, spec: ConfirmationSpec, header: HeaderReader): Promise<string> {
  const problems = confirmationProblems(spec, header);
  const invalid = Object.keys(problems);
  if (invalid.length === 0) return header(IDEMPOTENCY_HEADER)!.trim();
  await recordRefusal({
    ctx,
    input: [
      {
        action: "confirmation.denied",
        category: "security",
        level: "warning",
        entity_type: "confirmation",
        entity_id: spec.action,
        diff: { action: spec.action, invalid },
      },
    ],
  });
  const detail = `"${spec.action}" is a high-impact action: ${invalid.map((h) => `${h} ${problems[h]}`).join("; ")}.`;
  throw new ApiError("CONFIRMATION_REQUIRED", detail, { required: requiredHeaders(spec), invalid, action: spec.action });
}
