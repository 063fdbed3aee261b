// The one sender of every "http" provider (shared/domain/notifications/notifiers/): sends the request the
// provider renders, with a per-request timeout; a provider needs no code here. The response body is read
// (bounded) to settle the connection and, when the provider says so (`expectJson`: telegram's `ok`, DingTalk's
// `errcode`), to read one field of it; the body is never logged or stored (a provider may echo secrets).
// The request goes through OutboundHttp, so the SSRF policy holds for the address actually connected
// to (a sink URL whose name later resolves to loopback or metadata is refused, not sent).
import type { OutboundPolicy } from "../../shared/domain/net/outbound-policy.ts";
import type { HttpNotifier, HttpRequestSpec } from "../../shared/domain/notifications/notifiers/notifier.ts";
import { OutboundError, type OutboundHttp, type OutboundResponse } from "../../shared/net/outbound.ts";
import type { DeliveryJob } from "../../shared/verbs/notifications/delivery-job.ts";

export interface SendOutcome {
  outcome: "delivered" | "failed" | "timeout";
  http_status: number | null;
  error: string | null;
}

const BODY_LIMIT = 1024 * 1024;

export async function sendHttp(
  provider: HttpNotifier,
  job: DeliveryJob,
  timeoutMs: number,
  nowSecs: number,
  net: { outbound: OutboundHttp; policy: OutboundPolicy },
): Promise<SendOutcome> {
  const spec = await provider.render({ config: job.sink.config, secrets: job.sink.secrets, message: job.message, nowSecs });
  const headers: Record<string, string> = { "user-agent": "infra-control-plane-notifications/1", ...spec.headers };
  let response: OutboundResponse;
  try {
    response = await net.outbound.request({
      method: spec.method ?? "POST",
      url: spec.url,
      headers,
      // A GET (or a bodiless DELETE) carries no body at all.
      body: spec.body === "" ? undefined : spec.body,
      timeoutMs,
      maxBytes: BODY_LIMIT,
      policy: net.policy,
      // A burst sends many messages to one receiver: one connection each cost more than the send (adr/0484).
      reuseConnection: true,
    });
  } catch (e) {
    if (!(e instanceof OutboundError)) return { outcome: "failed", http_status: null, error: `Request failed: ${(e as Error).name}` };
    if (e.code === "timeout") return { outcome: "timeout", http_status: null, error: `No answer within ${timeoutMs} ms` };
    return {
      outcome: "failed",
      http_status: null,
      error: e.code === "refused" ? `Refused by the outbound policy: ${e.message}` : `Request failed: ${e.message}`,
    };
  }
  return judgeAnswer(spec, response.status, response.text());
}

/** What the service's answer says (the spec's `deliveredStatuses` and `expectJson`; else any 2xx is delivered). */
export function judgeAnswer(spec: HttpRequestSpec, status: number, text: string): SendOutcome {
  const accepted = spec.deliveredStatuses ? spec.deliveredStatuses.includes(status) : status >= 200 && status < 300;
  if (!accepted) return { outcome: "failed", http_status: status, error: `Endpoint returned HTTP ${status}` };
  const expect = spec.expectJson;
  if (!expect) return { outcome: "delivered", http_status: status, error: null };
  let value: unknown;
  try {
    const parsed: unknown = JSON.parse(text);
    value = parsed !== null && typeof parsed === "object" ? (parsed as Record<string, unknown>)[expect.field] : undefined;
  } catch {
    value = undefined;
  }
  if (value === expect.equals) return { outcome: "delivered", http_status: status, error: null };
  // Only the field's own value is told (a primitive, clipped): the rest of the body may echo a secret.
  const told =
    typeof value === "number" || typeof value === "boolean" || typeof value === "string" ? JSON.stringify(value).slice(0, 64) : "absent";
  return {
    outcome: "failed",
    http_status: status,
    error: `Endpoint answered HTTP ${status} with ${expect.field} ${told} (not ${JSON.stringify(expect.equals)})`,
  };
}
