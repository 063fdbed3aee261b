// The Docker provider's Engine API client: the discovery's client core (docker-engine.ts) over
// OutboundHttp, so the provider's requests pass the SSRF policy on the address actually connected to
// (a unix socket has none: it is the operator's own engine), with the config's CA and verify_ssl for TLS.
import type { OutboundPolicy } from "../../../domain/net/outbound-policy.ts";
import type { OutboundHttp } from "../../../net/outbound.ts";
import type { DockerVersion } from "../../discovery/docker/docker-api.ts";
import { type DockerClient, DockerError, dockerEngine } from "../../discovery/docker/docker-engine.ts";
import { type DockerEndpoint, parseDockerCredential, parseDockerUrl } from "./endpoint.ts";

/** A Docker provider config with its credential opened (clear PEM JSON, or null). */
export interface DockerProviderConfig {
  config_url: string;
  verify_ssl: boolean;
  ca_cert: string | null;
  credential: string | null;
  extra_config?: Record<string, unknown>;
  policy: OutboundPolicy;
  /** Per request; default 15 s. */
  timeoutMs?: number;
}

/** Largest answer accepted (a runaway answer must not fill the sidecar's memory). */
const MAX_BYTES = 32 * 1024 * 1024;

/** The endpoint and a client for it; a config that cannot be used throws a DockerError with the reason. */
export function dockerProviderClient(
  outbound: OutboundHttp,
  config: DockerProviderConfig,
): { endpoint: DockerEndpoint; client: DockerClient } {
  const parsed = parseDockerUrl(config.config_url, config.extra_config);
  if (!parsed.ok) throw new DockerError("EINVAL", parsed.message);
  const credential = parseDockerCredential(config.credential);
  if (!credential.ok) throw new DockerError("EINVAL", credential.message);
  const endpoint = parsed.value;
  // A client certificate means nothing on a unix socket: refused rather than silently unused.
  if (credential.value && endpoint.kind === "unix")
    throw new DockerError("EINVAL", "A client certificate is for a tcp:// engine; a unix socket takes none.");
  const timeoutMs = config.timeoutMs ?? 15_000;
  const client = dockerEngine(async (path) => {
    const res = await outbound.request({
      method: "GET",
      url: endpoint.kind === "unix" ? `http://docker${path}` : `${endpoint.baseUrl}${path}`,
      socketPath: endpoint.kind === "unix" ? endpoint.socketPath : null,
      headers: { accept: "application/json" },
      timeoutMs,
      maxBytes: MAX_BYTES,
      verifySsl: config.verify_ssl,
      caPem: config.ca_cert,
      clientCertPem: credential.value?.cert ?? null,
      clientKeyPem: credential.value?.key ?? null,
      policy: config.policy,
      // One sync reads every container of the engine (adr/0484); a unix socket is never pooled.
      reuseConnection: true,
    });
    return { status: res.status, text: res.text() };
  });
  return { endpoint, client };
}

/** GET /version of the engine, with the round trip (the provider config's test). Throws DockerError / OutboundError. */
export async function dockerProviderVersion(
  outbound: OutboundHttp,
  config: DockerProviderConfig,
): Promise<{ version: DockerVersion; latency_ms: number }> {
  const { client } = dockerProviderClient(outbound, config);
  const started = Date.now();
  const version = await client.version();
  return { version, latency_ms: Date.now() - started };
}
