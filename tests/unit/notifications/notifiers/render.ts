// Renders a provider's request for an alert without sending it: for the `it`s beside a fixture test that
// check what a recorded case cannot (limits, keys that must stay the same across an incident).
import type { AlertMessage, HttpNotifier, HttpRequestSpec } from "../../../../shared/domain/notifications/notifiers/notifier.ts";
import { DEFAULT_ALERT } from "../../../helpers/notification-fixtures.ts";

export async function renderOf(
  provider: HttpNotifier,
  config: Record<string, unknown>,
  secrets: Record<string, string>,
  message: Partial<AlertMessage> = {},
): Promise<HttpRequestSpec> {
  return provider.render({ config, secrets, message: { ...DEFAULT_ALERT, ...message }, nowSecs: 1793613600 });
}

/** A request's JSON body. */
export const jsonOf = (spec: HttpRequestSpec): Record<string, unknown> => JSON.parse(spec.body) as Record<string, unknown>;

/** A body far past any service's limit, in characters of 1 to 4 UTF-8 bytes. */
export const LONG_BODY = "é🚨x€".repeat(20000);
