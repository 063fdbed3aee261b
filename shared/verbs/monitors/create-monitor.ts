// POST /monitors (and the insert a target-scoped create shares): a new monitor starts `pending` and due
// at once (a push monitor: by its first deadline, and its push token issued); its secrets are sealed
// bound to the new row; the runner is woken.
import { eq } from "drizzle-orm";
import { monitors } from "../../db/schema/index.ts";
import { type CheckType, DEFAULT_INTERVAL_SECS } from "../../domain/monitors/check-types.ts";
import type { MonitorCreateInput, MonitorReadShape, TargetType } from "../../schemas/monitors.ts";
import type { Vault } from "../../vault/vault.ts";
import { defineVerb, type VerbScope } from "../verb.ts";
import { auditView, type MonitorRow } from "./monitor-row.ts";
import { announceMonitor, auditMonitor, wakeRunner } from "./notify.ts";
import { presentMonitor } from "./present.ts";
import { WRITE_MONITORS } from "./scopes.ts";
import { sealSecrets } from "./secrets.ts";
import { checkConfig, checkDestinations, checkHost, checkProbeAgent, checkRefs, vaultReadyFor } from "./write-fields.ts";
import { evaluateGroups } from "./groups/evaluate.ts";
import { checkMembership } from "./groups/membership.ts";
import { vaultOf } from "../verb-context.ts";
import type { VantageConfig } from "../../domain/monitors/quorum.ts";
import { checkVantage, NO_VANTAGE } from "./vantage-fields.ts";
import { sourceOf } from "../../domain/monitors/check-types.ts";
import { firstDueAt } from "./push/deadline.ts";
import { issuePushToken } from "./push/issue-token.ts";
import { pushTokenHash } from "./push/token.ts";

export interface NewMonitor {
  name: string;
  check_type: CheckType;
  host: string;
  config: Record<string, unknown>;
  interval_secs: number;
  max_retries: number;
  retry_interval_secs: number | null;
  enabled: boolean;
  target_type: TargetType | null;
  target_id: number | null;
  probe_agent_id: number | null;
  /** Multi-vantage checks (docs/adr/0441); none when left out. */
  vantage?: VantageConfig;
  group_id?: number | null;
  /** Its badges answer anyone (docs/adr/0455); off when left out. */
  badge_public?: boolean;
}

export async function insertMonitor(s: VerbScope, vault: Vault, m: NewMonitor, action = "create"): Promise<MonitorRow> {
  checkHost(m.check_type, m.host, true);
  checkProbeAgent(m.check_type, m.probe_agent_id);
  await vaultReadyFor(s, vault, m.check_type, m.config);
  const { config, secrets } = checkConfig(m.check_type, m.config, null);
  await checkDestinations(s, m.check_type, { host: m.host, config });
  await checkRefs(s.tx, m);
  const { vantage = NO_VANTAGE, ...fields } = m;
  await checkVantage(s.tx, m.check_type, { ...vantage, probe_agent_id: m.probe_agent_id }, true);
  if (m.group_id != null) await checkMembership(s, null, m.group_id);
  const [inserted] = await s.tx
    .insert(monitors)
    .values({
      ...fields,
      vantage_agent_ids: [...vantage.vantage_agent_ids],
      vantage_sidecar: vantage.vantage_sidecar,
      quorum: vantage.quorum,
      config,
      status: "pending",
      next_check_at: firstDueAt({ ...m, config }, s.now),
      created_at: s.now,
      updated_at: s.now,
    })
    .returning();
  let row = inserted!;
  if (secrets) {
    const [sealed] = await s.tx
      .update(monitors)
      .set({ secret_config: await sealSecrets(vault, row.id, secrets) })
      .where(eq(monitors.id, row.id))
      .returning();
    row = sealed!;
  }
  auditMonitor(s, action, row.id, { after: auditView(row) });
  announceMonitor(s, row.id, "created");
  if (row.enabled) wakeRunner(s, [row.id], "created");
  // A new member counts at once (pending until its first result).
  if (row.enabled && row.group_id != null) await evaluateGroups(s, [row.group_id]);
  return row;
}

/** The new monitor; a push monitor's token too, answered this once (docs/adr/0439). */
export const createMonitor = defineVerb<{ body: MonitorCreateInput }, { monitor: MonitorReadShape; push_token: string | null }>(
  { scope: WRITE_MONITORS },
  async (s, { body }) => {
    const row = await insertMonitor(s, vaultOf(s.ctx), {
      name: body.name,
      check_type: body.check_type,
      host: body.host ?? "",
      config: body.config ?? {},
      interval_secs: body.interval_secs ?? DEFAULT_INTERVAL_SECS,
      max_retries: body.max_retries ?? 0,
      retry_interval_secs: body.retry_interval_secs ?? null,
      enabled: body.enabled ?? true,
      target_type: body.target_type ?? null,
      target_id: body.target_id ?? null,
      probe_agent_id: body.probe_agent_id ?? null,
      vantage: {
        vantage_agent_ids: body.vantage_agent_ids ?? [],
        vantage_sidecar: body.vantage_sidecar ?? true,
        quorum: body.quorum ?? null,
      },
      group_id: body.group_id ?? null,
      badge_public: body.badge_public ?? false,
    });
    const push_token = sourceOf(row.check_type) === "push" ? await issuePushToken(s, row.id) : null;
    const monitor = await presentMonitor(s.tx, push_token ? { ...row, push_token_hash: pushTokenHash(push_token) } : row, s.now);
    return { monitor, push_token };
  },
);
