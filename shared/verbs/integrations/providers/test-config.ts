// POST /integrations/{provider}/config/{id}/test: one round trip to the provider with the stored config,
// answered as {status, message, latency_ms} (a failure is an answer, not an error). docker: GET /version
// of the engine; hv: the Proxmox VE version and cluster name (hv/test-hv.ts). Writes nothing.
import { defineRead } from "../../verb.ts";
import { testHvConnection } from "../hv/test-hv.ts";
import { dockerProviderVersion } from "../docker/provider-client.ts";
import { readOutboundPolicy } from "../outbound-policy.ts";
import { safeMessage } from "./safe-message.ts";
import { WRITE_INTEGRATIONS } from "../scopes.ts";
import { openCredential } from "./credential.ts";
import type { Provider } from "./provider-config.ts";
import { findConfig } from "./read-configs.ts";
import { outboundOf, vaultOf } from "../../verb-context.ts";

export interface ProviderTestOut {
  status: "ok" | "error";
  message: string;
  latency_ms: number;
}

export const testConfig = defineRead(
  { scope: WRITE_INTEGRATIONS },
  async (ctx, { provider, id }: { provider: Provider; id: number }): Promise<ProviderTestOut> => {
    const outbound = outboundOf(ctx);
    const vault = vaultOf(ctx);
    const row = await findConfig(ctx.db, provider, id);
    const started = Date.now();
    const elapsed = () => Date.now() - started;
    try {
      const policy = await readOutboundPolicy(ctx.db);
      if (provider === "hv") {
        const out = await testHvConnection({ outbound, vault, policy }, row);
        if (!out.ok) return { status: "error", message: out.error ?? "The hypervisor did not answer.", latency_ms: elapsed() };
        return {
          status: "ok",
          message: `Proxmox VE ${out.version}${out.cluster_name ? ` (cluster ${out.cluster_name})` : ""}`,
          latency_ms: elapsed(),
        };
      }
      const credential = await openCredential(vault, row);
      const { version, latency_ms } = await dockerProviderVersion(outbound, { ...row, credential, policy });
      return { status: "ok", message: `Docker ${version.Version} (API ${version.ApiVersion})`, latency_ms };
    } catch (e) {
      return { status: "error", message: safeMessage(e), latency_ms: elapsed() };
    }
  },
);
