// What GET /agents and /agents/{id} say about updates (docs/agents.md, "Updating agents and fleet
// rollouts"): `available_version`, the newest signed build for the agent's os/arch newer than the version
// it runs (null without a release key, or when it runs the newest), and `update`, the update queued for it
// (its version, state queued | sent | started, the rollout it belongs to) or null, from the agent row.
import type { AgentRow } from "./agent-row.ts";
import { type AgentBinary, compareVersionsDesc, platformOf } from "./binaries.ts";

export interface UpdateOffer {
  available_version: string | null;
  update: {
    version: string;
    state: "queued" | "sent" | "started";
    rollout_id: number | null;
    queued_at: string | null;
    sent_at: string | null;
  } | null;
}

/** What the process serves, as the routes hand it in (verbs do not read files). */
export interface OfferSource {
  builds?: readonly AgentBinary[] | undefined;
  releaseKey?: string | undefined;
}

export function availableVersion(agent: Pick<AgentRow, "os" | "arch" | "agent_version">, source: OfferSource): string | null {
  if (!source.releaseKey || !source.builds) return null;
  const { os, arch } = platformOf(agent);
  const newest = source.builds
    .filter((b) => b.os === os && b.arch === arch && b.signature)
    .map((b) => b.version)
    .sort(compareVersionsDesc)[0];
  if (!newest) return null;
  return agent.agent_version === null || compareVersionsDesc(newest, agent.agent_version) < 0 ? newest : null;
}

const text = (v: unknown) => (typeof v === "string" ? v : null);

export function updateOffers(rows: readonly AgentRow[], source: OfferSource): Map<number, UpdateOffer> {
  return new Map(
    rows.map((r) => {
      const u = r.pending_update;
      const sentAt = text(u?.sent_at);
      return [
        r.id,
        {
          available_version: availableVersion(r, source),
          update: u
            ? {
                version: String(u.version),
                // started_at: the agent's update.status started was stored (link-batch.ts).
                state: u.started_at ? "started" : sentAt ? "sent" : "queued",
                rollout_id: typeof u.rollout_id === "number" ? u.rollout_id : null,
                queued_at: text(u.queued_at),
                sent_at: sentAt,
              }
            : null,
        },
      ];
    }),
  );
}
