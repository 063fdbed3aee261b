// The device-description fetch of the passive listener: only an IPv4 LOCATION inside the discovery's
// allowed targets, only through the outbound client under the outbound policy (which checks the address
// it connects to), with a size cap and a timeout; never a redirect.
import type { OutboundPolicy } from "../../shared/domain/net/outbound-policy.ts";
import { OutboundError, type OutboundHttp } from "../../shared/net/outbound.ts";
import { LISTENER_LIMITS } from "../../shared/domain/discovery/listener.ts";
import type { DescriptionFetch } from "./passive-listener.ts";

export function descriptionFetcher(deps: {
  outbound: OutboundHttp;
  policy: () => Promise<OutboundPolicy>;
  allowed: (ip: string) => boolean;
}) {
  return async (url: URL, source: string): Promise<DescriptionFetch> => {
    if (!deps.allowed(url.hostname))
      return { ok: false, refused: true, reason: `${url.hostname} is outside the discovery's allowed targets` };
    if (url.hostname !== source)
      return { ok: false, refused: true, reason: `LOCATION names ${url.hostname}, not the announcing ${source}` };
    try {
      const res = await deps.outbound.request({
        method: "GET",
        url: url.href,
        timeoutMs: LISTENER_LIMITS.descriptionTimeoutMs,
        maxBytes: LISTENER_LIMITS.descriptionMaxBytes,
        policy: await deps.policy(),
        headers: { accept: "text/xml, application/xml" },
      });
      if (res.status !== 200) return { ok: false, refused: false, reason: `HTTP ${res.status}` };
      return { ok: true, xml: res.text() };
    } catch (e) {
      if (e instanceof OutboundError) return { ok: false, refused: e.code === "refused", reason: e.message };
      return { ok: false, refused: false, reason: e instanceof Error ? e.message : String(e) };
    }
  };
}
