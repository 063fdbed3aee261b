// Sends one rendered HTTP notification: a POST with a per-request timeout; webhook sinks signed at send
// time (the timestamp is part of the signature). The response body is read (bounded) only to settle the
// connection and, for telegram, its `ok`; it is never logged or stored (a provider may echo secrets).
import { renderHttp } from "../../shared/domain/notifications/render.ts";
import { webhookSignatureHeaders } from "../../shared/domain/notifications/signing.ts";
import type { DeliveryJob } from "../../shared/services/notifications/delivery-work.ts";

export interface SendOutcome {
  outcome: "delivered" | "failed" | "timeout";
  http_status: number | null;
  error: string | null;
}

const BODY_LIMIT = 64 * 1024;

export async function sendHttp(job: DeliveryJob, timeoutMs: number, nowSecs: number): Promise<SendOutcome> {
  const type = job.sink.provider_type;
  if (type === "email") throw new Error("sendHttp does not send email");
  const spec = renderHttp(type, job.sink.config, job.sink.secrets, job.message);
  const headers: Record<string, string> = { "user-agent": "infra-control-plane-notifications/1", ...spec.headers };
  if (type === "webhook" && job.sink.secrets.secret) Object.assign(headers, await webhookSignatureHeaders(job.sink.secrets.secret, job.message.id, nowSecs, spec.body));
  let response: Response;
  try {
    response = await fetch(spec.url, { method: "POST", headers, body: spec.body, redirect: "manual", signal: AbortSignal.timeout(timeoutMs) });
  } catch (e) {
    const name = (e as Error).name;
    if (name === "TimeoutError" || name === "AbortError") return { outcome: "timeout", http_status: null, error: `No answer within ${timeoutMs} ms` };
    const cause = (e as { cause?: { code?: string } }).cause?.code;
    return { outcome: "failed", http_status: null, error: `Request failed: ${cause ?? name}` };
  }
  const text = await response.text().then((t) => t.slice(0, BODY_LIMIT)).catch(() => "");
  if (response.status < 200 || response.status >= 300) return { outcome: "failed", http_status: response.status, error: `Endpoint returned HTTP ${response.status}` };
  if (spec.expectOkField) {
    let ok = false;
    try {
      ok = (JSON.parse(text) as { ok?: unknown }).ok === true;
    } catch {
      ok = false;
    }
    if (!ok) return { outcome: "failed", http_status: response.status, error: "Endpoint answered without ok: true" };
  }
  return { outcome: "delivered", http_status: response.status, error: null };
}
