// The recorded fixtures of the notification providers, tests/fixtures/notifications/<type>.json: the
// cases a provider's fixture test runs (tests/unit/notifications/notifiers/support.ts), the first of which
// the delivery worker's end-to-end test also sends (tests/sidecar/notifications/delivery.test.ts).
import { readFileSync } from "node:fs";
import type { AlertMessage } from "../../shared/domain/notifications/notifiers/notifier.ts";

export interface FixtureCase {
  name: string;
  config: Record<string, unknown>;
  secrets?: Record<string, string>;
  /** Changes to the default alert (below). */
  message?: Partial<AlertMessage>;
  /** Unix seconds of the attempt (default 1793613600, 2026-11-02T10:00:00Z). */
  now_secs?: number;
  /**
   * http: what the receiver must get; headers listed are compared exactly (null: absent), others not. A
   * string body is compared as the exact text (a form, a plain-text body), anything else as JSON.
   */
  request?: { method: string; path: string; headers: Record<string, string | null>; body: unknown };
  /** http: the provider's recorded answer, and what the delivery makes of it (default "delivered"). */
  response?: { status: number; contentType: string | null; body: string };
  outcome?: "delivered" | "failed";
  /** smtp: the mail rendered. */
  mail?: { to: string; from: string; subject: string; text: string };
}

export interface Fixture {
  /** Where the format comes from (the provider's documentation). */
  _source: string;
  cases: FixtureCase[];
}

export const DEFAULT_ALERT: AlertMessage = {
  id: "msg_2kFq8W3e7T1xY0aB",
  kind: "monitor.down",
  status: "firing",
  dedup_key: "ctl-monitor:7",
  links: {},
  severity: "critical",
  title: "Server down",
  body: "The server did not answer",
  occurred_at: "2026-11-02T10:00:00.000Z",
  data: {},
};

export const readFixture = (type: string): Fixture =>
  JSON.parse(readFileSync(new URL(`../fixtures/notifications/${type}.json`, import.meta.url), "utf8")) as Fixture;
