// POST /hardware/{id}/telemetry/config: how the sidecar polls a node. Fields given change; the rest keep
// their stored values (or the defaults: snmp, enabled, the node's IP as host, port 161, v2c, every 60 s).
// The community is write-only: the audit diff and the answer say only whether it is set or changed. It is
// stored sealed by the vault (shared/verbs/vault/secret-columns.ts), bound to this node's row.
import { eq } from "drizzle-orm";
import { hardware, telemetryConfigs } from "../../db/schema/index.ts";
import { ApiError } from "../../errors.ts";
import { DEFAULT_SNMP_PORT, type TelemetryConfigInput } from "../../schemas/telemetry.ts";
import { openSecret, sealSecret, SNMP_COMMUNITY } from "../vault/secret-columns.ts";
import { assertVaultWritable } from "../vault/writable.ts";
import { defineVerb } from "../verb.ts";
import { presentConfig } from "./present.ts";
import { vaultOf } from "../verb-context.ts";

export const CONFIG_SCOPE = "write:hardware";

type ConfigRow = typeof telemetryConfigs.$inferSelect;

function given<T>(value: T | undefined, stored: T | undefined, fallback: T): T {
  return value !== undefined ? value : stored !== undefined ? stored : fallback;
}

/** The audit view of a configuration: everything but the secret. */
function auditView(r: ConfigRow | undefined) {
  if (!r) return null;
  const { community: _secret, last_polled_at: _p, last_error: _e, updated_at: _u, ...rest } = r;
  return { ...rest, community_set: presentConfig(r).community_set };
}

export const setTelemetryConfig = defineVerb(
  { scope: CONFIG_SCOPE },
  async (s, { hardwareId, config: input }: { hardwareId: number; config: TelemetryConfigInput }) => {
    const vault = vaultOf(s.ctx);
    const [node] = await s.tx.select({ ip: hardware.ip_address }).from(hardware).where(eq(hardware.id, hardwareId));
    if (!node) throw ApiError.notFound("Hardware node", hardwareId);
    // Only a new community needs the vault: other changes go on while it cannot write (a pending rotation).
    // Checked before the row is locked, in the order a rotation locks (the vault's state, then the rows).
    if (input.community != null) await assertVaultWritable(s.tx, vault, s.now);
    const [before] = await s.tx.select().from(telemetryConfigs).where(eq(telemetryConfigs.hardware_id, hardwareId)).for("update");
    let community = before?.community ?? null;
    let communityChanged = false;
    if (input.community !== undefined) {
      const previous = before?.community
        ? await openSecret(vault, SNMP_COMMUNITY, hardwareId, before.community).catch(() => undefined)
        : null;
      communityChanged = input.community !== previous;
      community = input.community === null ? null : await sealSecret(vault, SNMP_COMMUNITY, hardwareId, input.community);
    }
    const values = {
      protocol: given(input.protocol, before?.protocol, "snmp"),
      enabled: given(input.enabled, before?.enabled, true),
      host: given(input.host, before?.host, node.ip ? node.ip.replace(/\/\d+$/, "") : null),
      port: given(input.port, before?.port ?? undefined, DEFAULT_SNMP_PORT),
      snmp_version: given(input.snmp_version, before?.snmp_version ?? undefined, "v2c"),
      community,
      interval_s: given(input.interval_s, before?.interval_s, 60),
      options: given<Record<string, unknown>>(input.options, before?.options, {}),
      updated_at: s.now,
    };
    if (values.protocol === "snmp" && values.enabled && !values.host)
      throw ApiError.validation([
        {
          loc: ["body", "host"],
          msg: "An enabled SNMP configuration needs a host (the node has no IP address to default to).",
          type: "missing",
        },
      ]);
    const [row] = await s.tx
      .insert(telemetryConfigs)
      .values({ hardware_id: hardwareId, ...values })
      .onConflictDoUpdate({ target: telemetryConfigs.hardware_id, set: values })
      .returning();
    const after = auditView(row);
    s.audit({
      action: before ? "telemetry.config.update" : "telemetry.config.create",
      category: "telemetry",
      entity_type: "hardware",
      entity_id: hardwareId,
      diff: { before: auditView(before), after, ...(communityChanged ? { community_changed: true } : {}) },
    });
    s.emit("telemetry", { hardware_id: hardwareId, action: "config" });
    return presentConfig(row!);
  },
);
