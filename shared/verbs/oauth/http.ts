// Every request to an OAuth provider goes through Deps.outbound under the installation's outbound
// policy (the URL is checked first, the connected address again by the client). A failure is a 502
// naming the provider and the step, never the provider's answer.
import type { OutboundPolicy } from "../../domain/net/outbound-policy.ts";
import { checkOutboundUrl } from "../../domain/net/outbound-policy.ts";
import { ApiError } from "../../errors.ts";
import type { OutboundHttp, OutboundResponse } from "../../net/outbound.ts";

const TIMEOUT_MS = 10_000;
const MAX_BYTES = 1024 * 1024;

export interface ProviderHttp {
  outbound: OutboundHttp;
  policy: OutboundPolicy;
  /** Names the provider in errors ("GitHub", "Keycloak"). */
  label: string;
}

export function upstreamFailed(h: Pick<ProviderHttp, "label">, stage: string): ApiError {
  return new ApiError("UPSTREAM_FAILED", `${h.label} OAuth ${stage} failed. Please try again.`);
}

async function send(
  h: ProviderHttp,
  stage: string,
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string },
): Promise<OutboundResponse> {
  const checked = checkOutboundUrl(url, h.policy);
  if (!checked.ok) throw new ApiError("UPSTREAM_FAILED", `${h.label} OAuth ${stage} failed: ${checked.message}`);
  try {
    return await h.outbound.request({ url, ...init, timeoutMs: TIMEOUT_MS, maxBytes: MAX_BYTES, policy: h.policy });
  } catch {
    throw upstreamFailed(h, stage);
  }
}

/** A JSON answer with a 2xx status, else the stage's 502. */
export async function fetchJson<T>(
  h: ProviderHttp,
  stage: string,
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<T> {
  return (await fetchJsonWithHeaders<T>(h, stage, url, init)).body;
}

/** fetchJson with the answer's headers (lower-case names), for the key set's Cache-Control. */
export async function fetchJsonWithHeaders<T>(
  h: ProviderHttp,
  stage: string,
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<{ body: T; headers: Record<string, string> }> {
  const res = await send(h, stage, url, { ...init, headers: { accept: "application/json", ...init.headers } });
  if (res.status < 200 || res.status >= 300) throw upstreamFailed(h, stage);
  try {
    return { body: res.json<T>(), headers: res.headers };
  } catch {
    throw upstreamFailed(h, stage);
  }
}

export function formBody(fields: Record<string, string | null | undefined>): string {
  const form = new URLSearchParams();
  for (const [k, v] of Object.entries(fields)) if (v != null) form.set(k, v);
  return form.toString();
}
