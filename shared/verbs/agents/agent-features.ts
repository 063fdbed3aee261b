// The agents' and the vault's part of GET /capabilities: what this deployment offers agent clients, from
// what the process really has (its vault key, the builds it serves), never from configuration wishes.
import { CAPABILITY_NAMES } from "../../domain/agents/capabilities.ts";
import type * as v from "valibot";
import type { AgentFeatures } from "../../schemas/agents.ts";
import { requireSignedIn } from "../system/signed-in.ts";
import { vaultHealth } from "../vault/writable.ts";
import { defineRead } from "../verb.ts";
import type { AgentBinary } from "./binaries.ts";
import { vaultOf } from "../verb-context.ts";

export interface AgentFeatureFacts {
  /** undefined: this instance serves no builds (AGENT_BINARY_DIR unset, or the edge). */
  builds: readonly AgentBinary[] | undefined;
}

export const agentFeatures = defineRead<AgentFeatureFacts, v.InferInput<typeof AgentFeatures>>(
  { scope: requireSignedIn },
  async (ctx, { builds }) => {
    const vault = vaultOf(ctx);
    const health = await vaultHealth(ctx.db, vault);
    return {
      agents: {
        // The server's Noise key is kept encrypted by the vault: without a vault key no agent can enroll.
        enrollment: vault.loaded,
        binaries_served: builds !== undefined,
        versions: [...new Set((builds ?? []).map((b) => b.version))],
        platforms: [...new Set((builds ?? []).map((b) => `${b.os}/${b.arch}`))].sort(),
        capabilities: [...CAPABILITY_NAMES],
      },
      // A loaded key with nothing encrypted yet becomes the installation's key on the first secret written.
      vault: { status: health === "uninitialized" ? "healthy" : health, key_source: vault.source },
    };
  },
);
