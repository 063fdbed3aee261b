// When a new token expires: an absolute future instant or a number of days from now, not both; neither
// means it never expires.
import { ApiError } from "../../errors.ts";

export const MAX_TOKEN_DAYS = 3650;
const DAY_MS = 86_400_000;

export interface ExpiryInput {
  expires_at?: string | undefined;
  expires_in_days?: number | undefined;
}

function invalid(field: string, msg: string): ApiError {
  return ApiError.validation([{ loc: ["body", field], msg, type: "expiry" }]);
}

export function resolveExpiry(input: ExpiryInput, now: Date): Date | null {
  if (input.expires_at !== undefined && input.expires_in_days !== undefined)
    throw invalid("expires_in_days", "Send expires_at or expires_in_days, not both.");
  if (input.expires_in_days !== undefined) return new Date(now.getTime() + input.expires_in_days * DAY_MS);
  if (input.expires_at === undefined) return null;
  const at = new Date(input.expires_at);
  if (Number.isNaN(at.getTime())) throw invalid("expires_at", "expires_at must be an ISO 8601 date-time.");
  if (at <= now) throw invalid("expires_at", "expires_at must be in the future.");
  if (at.getTime() - now.getTime() > MAX_TOKEN_DAYS * DAY_MS)
    throw invalid("expires_at", `expires_at must be at most ${MAX_TOKEN_DAYS} days from now.`);
  return at;
}
