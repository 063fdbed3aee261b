// dns-01 through the Cloudflare v4 API (https://developers.cloudflare.com/api/resources/dns/): the zone
// is found by name walking up the record's labels (GET /zones?name=), the TXT record created
// (POST /zones/{id}/dns_records) and deleted afterwards (DELETE /zones/{id}/dns_records/{record}), with
// the API token as a Bearer credential. Every request goes through OutboundHttp under the installation's
// outbound policy; the base URL is SVC_CLOUDFLARE_API_URL (a test's fake API is allowed only when the
// policy allows its address). The zone's `name_servers` are the servers asked for propagation.
import type { OutboundPolicy } from "../../../shared/domain/net/outbound-policy.ts";
import { OutboundError, type OutboundHttp } from "../../../shared/net/outbound.ts";
import { type DnsProvider, providerFailed } from "./provider.ts";
import type { DnsServer } from "./transport.ts";

export interface CloudflareOptions {
  apiToken: string;
  baseUrl: string;
  outbound: OutboundHttp;
  policy: OutboundPolicy;
  timeoutMs?: number;
}

interface Envelope<T> {
  success?: boolean;
  errors?: { code?: number; message?: string }[];
  result?: T;
}
interface Zone {
  id: string;
  name: string;
  name_servers?: string[];
}
interface DnsRecord {
  id: string;
  name?: string;
  content?: string;
}

export const CLOUDFLARE_API_URL = "https://api.cloudflare.com/client/v4";
const KIND = "cloudflare";
/** Cloudflare's lowest TTL outside Enterprise plans; the record lives for one order anyway. */
const TXT_TTL = 60;

/** The content Cloudflare gives back may carry the RFC 1035 quotes it now recommends; compare without them. */
const unquote = (s: string | undefined) => (s && s.length >= 2 && s.startsWith('"') && s.endsWith('"') ? s.slice(1, -1) : s);

export function cloudflareProvider(options: CloudflareOptions): DnsProvider {
  const base = options.baseUrl.replace(/\/+$/, "");
  const zones = new Map<string, Zone>();
  const records = new Map<string, string>();

  async function call<T>(action: string, fqdn: string, method: string, path: string, body?: unknown, signal?: AbortSignal): Promise<T> {
    let res;
    try {
      res = await options.outbound.request({
        method,
        url: `${base}${path}`,
        headers: {
          authorization: `Bearer ${options.apiToken}`,
          accept: "application/json",
          ...(body ? { "content-type": "application/json" } : {}),
        },
        ...(body ? { body: JSON.stringify(body) } : {}),
        timeoutMs: options.timeoutMs ?? 15_000,
        maxBytes: 1024 * 1024,
        policy: options.policy,
        ...(signal ? { signal } : {}),
      });
    } catch (err) {
      if (err instanceof OutboundError)
        throw providerFailed(
          KIND,
          action,
          fqdn,
          err.code === "refused" ? `refused by the outbound policy: ${err.message}` : `the API is unreachable: ${err.message}`,
        );
      throw err;
    }
    let parsed: Envelope<T> | undefined;
    try {
      parsed = res.json<Envelope<T>>();
    } catch {
      parsed = undefined;
    }
    if (res.status >= 200 && res.status < 300 && parsed?.success === true) return parsed.result as T;
    const messages = (parsed?.errors ?? [])
      .map((e) => `${e.message ?? "error"}${e.code !== undefined ? ` (code ${e.code})` : ""}`)
      .join("; ");
    const hint =
      res.status === 401 || res.status === 403
        ? " — check the API token in PATCH /api/v1/settings/acme-dns (it needs Zone:Read and DNS:Edit)"
        : "";
    throw providerFailed(
      KIND,
      action,
      fqdn,
      `HTTP ${res.status}${messages ? `: ${messages}` : parsed ? "" : " (not a Cloudflare API answer)"}${hint}`,
      { status: res.status },
    );
  }

  async function zoneOf(fqdn: string, signal?: AbortSignal): Promise<Zone> {
    const known = zones.get(fqdn);
    if (known) return known;
    const labels = fqdn.replace(/\.$/, "").toLowerCase().split(".");
    // From the record's parent up to the registrable part: the longest name Cloudflare holds as a zone.
    for (let i = 1; i <= labels.length - 2; i++) {
      const name = labels.slice(i).join(".");
      const cached = zones.get(name);
      if (cached) return cached;
      const found = await call<Zone[]>(
        "find the zone of",
        fqdn,
        "GET",
        `/zones?name=${encodeURIComponent(name)}&status=active`,
        undefined,
        signal,
      );
      const zone = Array.isArray(found) ? found.find((z) => z.name?.toLowerCase() === name) : undefined;
      if (zone) {
        zones.set(name, zone);
        zones.set(fqdn, zone);
        return zone;
      }
    }
    throw providerFailed(
      KIND,
      "find the zone of",
      fqdn,
      "no active zone of this account holds the name (is the token scoped to that zone?)",
    );
  }

  return {
    kind: KIND,
    async present(fqdn, value, signal) {
      const zone = await zoneOf(fqdn, signal);
      const record = await call<DnsRecord>(
        "create",
        fqdn,
        "POST",
        `/zones/${encodeURIComponent(zone.id)}/dns_records`,
        { type: "TXT", name: fqdn, content: value, ttl: TXT_TTL, comment: "ACME dns-01 challenge (removed after validation)" },
        signal,
      );
      if (!record?.id) throw providerFailed(KIND, "create", fqdn, "the API answered without a record id");
      records.set(`${fqdn}\n${value}`, record.id);
    },
    async cleanup(fqdn, value) {
      const zone = await zoneOf(fqdn);
      const known = records.get(`${fqdn}\n${value}`);
      const ids = known
        ? [known]
        : (
            await call<DnsRecord[]>(
              "look up",
              fqdn,
              "GET",
              `/zones/${encodeURIComponent(zone.id)}/dns_records?type=TXT&name=${encodeURIComponent(fqdn)}`,
            )
          )
            .filter((r) => unquote(r.content) === value)
            .map((r) => r.id);
      for (const id of ids)
        await call<{ id: string }>("delete", fqdn, "DELETE", `/zones/${encodeURIComponent(zone.id)}/dns_records/${encodeURIComponent(id)}`);
      records.delete(`${fqdn}\n${value}`);
    },
    async authoritative(fqdn) {
      const zone = await zoneOf(fqdn);
      return (zone.name_servers ?? []).map((host): DnsServer => ({ host, port: 53 }));
    },
  };
}
