// Shared set-up of the alert rule tests: the signed-in actors with a driven clock, nodes and agents made
// directly, and the agents' link batch verb fed real telemetry.host frames as the sidecar's batcher does.
import { randomBytes } from "node:crypto";
import { cryptoRandom } from "../../../shared/clock.ts";
import { applyLinkBatch, emptyLinkBatch } from "../../../shared/verbs/agents/link/link-batch.ts";
import { systemContext } from "../../../shared/verbs/verb-context.ts";
import { createTelemetryActors, type TelemetryActors } from "../telemetry/support.ts";

export interface RuleActors extends TelemetryActors {
  /** An active agent on a new hardware node (its tags and site as given); answers both ids. */
  agentNode(name: string, opts?: { tags?: string[]; site_id?: number | null }): Promise<{ agent_id: number; hardware_id: number }>;
  /** Sends one telemetry.host frame per [seconds after `base`, summary] through the link batch verb. */
  frames(agentId: number, base: Date, list: [number, Record<string, number | null>][], filesystems?: unknown[]): Promise<void>;
  /** The metric alerts of a node, oldest first. */
  alerts(
    hardwareId: number,
  ): Promise<{ kind: string; severity: string; target_type: string; target_id: number; detail: Record<string, unknown> }[]>;
  rule(body: Record<string, unknown>): Promise<{ id: number } & Record<string, unknown>>;
}

export async function createRuleActors(): Promise<RuleActors> {
  const a = await createTelemetryActors();
  const ctx = () => systemContext({ db: a.t.runtime.database.db, clock: a.clock, random: cryptoRandom });
  return {
    ...a,
    async agentNode(name, opts = {}) {
      const [hw] = await a.t.sql<{ id: number }[]>`
        insert into hardware (name, tags, site_id) values (${name}, ${opts.tags ?? []}, ${opts.site_id ?? null}) returning id`;
      const pk = randomBytes(32).toString("hex");
      const [agent] = await a.t.sql<{ id: number }[]>`
        insert into agents (name, status, device_pk, fingerprint, hardware_id) values (${name}, 'active', ${pk}, ${pk.slice(0, 32)}, ${hw!.id}) returning id`;
      return { agent_id: agent!.id, hardware_id: hw!.id };
    },
    async frames(agentId, base, list, filesystems = []) {
      const batch = emptyLinkBatch();
      for (const [secs, summary] of list)
        batch.samples.push({
          agent_id: agentId,
          sample_id: randomBytes(16).toString("hex"),
          collected_at: new Date(base.getTime() + secs * 1000).toISOString(),
          status: "healthy",
          summary,
          payload: { schema: 1, summary, filesystems },
        });
      await applyLinkBatch({ ctx: ctx(), input: batch });
    },
    async alerts(hardwareId) {
      return a.t.sql`select kind, severity, target_type, target_id, detail from notification_alerts
        where kind like 'metric.%' and target_id = ${hardwareId} order by occurred_at, id` as never;
    },
    async rule(body) {
      const res = await a.req("POST", "alert-rules", a.admin, body);
      if (res.status !== 201) throw new Error(`rule not created: ${res.status} ${await res.text()}`);
      return res.json();
    },
  };
}
