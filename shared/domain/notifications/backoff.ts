// Exponential backoff with jitter between delivery attempts (docs/adr/0111-notifications-delivery.md: base × 2^attempt ×
// jitter 0.5–1.0), capped so a long outage is retried at a steady pace rather than once a day.
export interface BackoffPolicy {
  baseMs: number;
  capMs: number;
}

/** The wait after failed attempt number `attempt` (1 = the first), for a jitter draw in [0, 1). */
export function backoffMs(policy: BackoffPolicy, attempt: number, draw: number): number {
  const exp = policy.baseMs * 2 ** Math.max(0, attempt - 1);
  return Math.round(Math.min(policy.capMs, exp) * (0.5 + draw / 2));
}
