// The Proxmox VE API client (spec/catalogue.tsv, group hypervisor integration): every request goes through OutboundHttp (the
// SSRF policy on the address connected to, verify_ssl, the config's CA, a per-call timeout), authenticated
// with `Authorization: PVEAPIToken=user@realm!tokenid=secret`. Each call returns the answer's `data`.
// Failures are PveErrors whose message an operator can act on and that never carry the token.
import type { OutboundPolicy } from "../../../domain/net/outbound-policy.ts";
import { OutboundError, type OutboundHttp, type OutboundResponse } from "../../../net/outbound.ts";
import type {
  PveClusterStatusEntry,
  PveGuest,
  PveGuestAction,
  PveGuestConfig,
  PveGuestType,
  PveNetworkIface,
  PveNode,
  PveResource,
  PveRrdPoint,
  PveStorage,
  PveTask,
  PveVersion,
} from "./pve-api.ts";
import { parsePveToken, pveAuthorization } from "./pve-token.ts";
import { normalisePveUrl } from "./pve-url.ts";

export { parsePveToken } from "./pve-token.ts";

export type PveErrorCode = "invalid" | "auth" | "forbidden" | "tls" | "timeout" | "connect" | "refused" | "http" | "bad_answer";

export class PveError extends Error {
  readonly code: PveErrorCode;
  readonly status: number | null;

  constructor(code: PveErrorCode, message: string, status: number | null = null) {
    super(message);
    this.name = "PveError";
    this.code = code;
    this.status = status;
  }
}

export interface PveClientOptions {
  outbound: OutboundHttp;
  baseUrl: string;
  /** user@realm!tokenid=secret, clear (opened from the vault by the caller). */
  token: string;
  verifySsl: boolean;
  caPem: string | null;
  policy: OutboundPolicy;
  /** Per call; default 15 s. */
  timeoutMs?: number;
}

/** /cluster/resources and a big cluster's lists stay well under this; a runaway answer fails "too_large". */
const MAX_BYTES = 64 * 1024 * 1024;

export type PveClient = ReturnType<typeof pveClient>;

/** Throws PveError("invalid") for an unusable URL or token, before any request. */
export function pveClient(opts: PveClientOptions) {
  const base = normalisePveUrl(opts.baseUrl);
  if (!base.ok) throw new PveError("invalid", base.message);
  const token = parsePveToken(opts.token);
  if (!token.ok) throw new PveError("invalid", token.message);
  const baseUrl = base.value;
  const authorization = pveAuthorization(token.value);
  const timeoutMs = opts.timeoutMs ?? 15_000;
  const seg = (s: string | number) => encodeURIComponent(String(s));

  async function call<T>(method: "GET" | "POST", path: string, query?: Record<string, string>): Promise<T> {
    const qs = query ? `?${new URLSearchParams(query)}` : "";
    let res: OutboundResponse;
    try {
      res = await opts.outbound.request({
        method,
        url: `${baseUrl}/api2/json${path}${qs}`,
        headers: { authorization, accept: "application/json" },
        timeoutMs,
        maxBytes: MAX_BYTES,
        verifySsl: opts.verifySsl,
        caPem: opts.caPem,
        policy: opts.policy,
        // A discovery is hundreds of calls to one API: a TLS handshake each was most of its time (adr/0484).
        reuseConnection: true,
      });
    } catch (e) {
      throw transportError(e, baseUrl);
    }
    if (res.status === 401)
      throw new PveError(
        "auth",
        `The API token was refused by ${baseUrl} (401): check user@realm!tokenid=secret, that the token exists and has not expired.`,
        401,
      );
    if (res.status === 403)
      throw new PveError(
        "forbidden",
        `The API token lacks the permission for ${method} ${path} (403): give its user (or the token, with privilege separation) PVEAuditor on / to discover, VM.PowerMgmt for guest actions.`,
        403,
      );
    if (res.status < 200 || res.status >= 300)
      throw new PveError("http", `Proxmox VE answered ${res.status} to ${method} ${path}${pveReason(res)}.`, res.status);
    let body: { data?: T };
    try {
      body = res.json<{ data?: T }>();
    } catch {
      throw new PveError("bad_answer", `${baseUrl} did not answer ${path} with JSON: is it a Proxmox VE API (port 8006)?`, res.status);
    }
    if (!body || typeof body !== "object" || !("data" in body))
      throw new PveError("bad_answer", `${baseUrl} answered ${path} without a data member: is it a Proxmox VE API?`, res.status);
    return body.data as T;
  }
  const get = <T>(path: string, query?: Record<string, string>) => call<T>("GET", path, query);

  return {
    baseUrl,
    version: () => get<PveVersion>("/version"),
    clusterStatus: () => get<PveClusterStatusEntry[]>("/cluster/status"),
    clusterResources: (type?: "vm" | "node" | "storage" | "sdn") => get<PveResource[]>("/cluster/resources", type ? { type } : undefined),
    clusterTasks: () => get<PveTask[]>("/cluster/tasks"),
    nodes: () => get<PveNode[]>("/nodes"),
    guests: (node: string, type: PveGuestType) => get<PveGuest[]>(`/nodes/${seg(node)}/${type}`),
    guestConfig: (node: string, type: PveGuestType, vmid: number) => get<PveGuestConfig>(`/nodes/${seg(node)}/${type}/${seg(vmid)}/config`),
    network: (node: string) => get<PveNetworkIface[]>(`/nodes/${seg(node)}/network`),
    storage: (node: string) => get<PveStorage[]>(`/nodes/${seg(node)}/storage`),
    rrddata: (node: string, timeframe: "hour" | "day" | "week" | "month" | "year" = "hour") =>
      get<PveRrdPoint[]>(`/nodes/${seg(node)}/rrddata`, { timeframe, cf: "AVERAGE" }),
    /** Starts the action; answers the task's UPID. */
    guestAction: (node: string, type: PveGuestType, vmid: number, action: PveGuestAction) =>
      call<string>("POST", `/nodes/${seg(node)}/${type}/${seg(vmid)}/status/${action}`),
  };
}

/** PVE puts its reason in the status line and sometimes `message`/`errors`: a short, token-free hint. */
function pveReason(res: OutboundResponse): string {
  try {
    const body = res.json<{ message?: unknown; errors?: unknown }>();
    const text =
      typeof body?.message === "string"
        ? body.message
        : body?.errors && typeof body.errors === "object"
          ? Object.entries(body.errors as Record<string, unknown>)
              .map(([k, v]) => `${k}: ${String(v)}`)
              .join("; ")
          : "";
    const clean = text.replace(/\s+/g, " ").trim().slice(0, 200);
    return clean ? `: ${clean}` : "";
  } catch {
    return "";
  }
}

function transportError(e: unknown, baseUrl: string): PveError {
  if (!(e instanceof OutboundError))
    return new PveError("connect", `Could not reach ${baseUrl}: ${e instanceof Error ? e.message : String(e)}`);
  switch (e.code) {
    case "tls":
      return new PveError(
        "tls",
        `The certificate of ${baseUrl} is not trusted (${e.message.replace(/\.$/, "")}): give the cluster's CA certificate (ca_cert), or turn verify_ssl off for a self-signed one.`,
      );
    case "timeout":
      // The transport's message names the timeout it applied (a caller may shorten ours).
      return new PveError("timeout", `Proxmox VE: ${e.message}`);
    case "refused":
      return new PveError("refused", `The outbound policy refuses ${baseUrl}: ${e.message}`);
    case "too_large":
      return new PveError("bad_answer", e.message);
    default:
      return new PveError("connect", e.message);
  }
}
