// POST /hardware/{id}/telemetry/config: how the sidecar polls a node. Fields given change; the rest keep
// their stored values (or the defaults: snmp, enabled, the node's IP as host, port 161, v2c, every 60 s).
// The community is write-only: the audit diff and the answer say only whether it is set or changed. It is
// stored sealed by the vault (shared/verbs/vault/secret-columns.ts), bound to this node's row. SNMPv3
// (docs/adr/0489): a user name, level and protocols in `usm`, the keys sealed together in `usm_keys`; the
// version decides which of community and v3 settings is kept (usm-settings.ts), never both.
import { eq } from "drizzle-orm";
import { hardware, telemetryConfigs } from "../../db/schema/index.ts";
import { ApiError } from "../../errors.ts";
import { DEFAULT_SNMP_PORT, type TelemetryConfigInput } from "../../schemas/telemetry.ts";
import { openSecret, sealSecret, SNMP_COMMUNITY, SNMP_USM_KEYS } from "../vault/secret-columns.ts";
import { assertVaultWritable } from "../vault/writable.ts";
import { defineVerb } from "../verb.ts";
import { presentConfig } from "./present.ts";
import { mergeUsm, type UsmKeys } from "./usm-settings.ts";
import { vaultOf } from "../verb-context.ts";

export const CONFIG_SCOPE = "write:hardware";

type ConfigRow = typeof telemetryConfigs.$inferSelect;

function given<T>(value: T | undefined, stored: T | undefined, fallback: T): T {
  return value !== undefined ? value : stored !== undefined ? stored : fallback;
}

/** The audit view of a configuration: everything but the secret. */
function auditView(r: ConfigRow | undefined) {
  if (!r) return null;
  const { community: _secret, usm_keys: _keys, last_polled_at: _p, last_error: _e, updated_at: _u, ...rest } = r;
  const shown = presentConfig(r);
  return { ...rest, community_set: shown.community_set, auth_key_set: shown.auth_key_set, priv_key_set: shown.priv_key_set };
}

export const setTelemetryConfig = defineVerb(
  { scope: CONFIG_SCOPE },
  async (s, { hardwareId, config: input }: { hardwareId: number; config: TelemetryConfigInput }) => {
    const vault = vaultOf(s.ctx);
    const [node] = await s.tx.select({ ip: hardware.ip_address }).from(hardware).where(eq(hardware.id, hardwareId));
    if (!node) throw ApiError.notFound("Hardware node", hardwareId);
    // Only a new community needs the vault: other changes go on while it cannot write (a pending rotation).
    // Checked before the row is locked, in the order a rotation locks (the vault's state, then the rows).
    // A new level may re-seal the v3 keys it keeps, so it needs the vault too.
    if (input.community != null || input.auth_key != null || input.priv_key != null || input.security_level !== undefined)
      await assertVaultWritable(s.tx, vault, s.now);
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
    const version = given(input.snmp_version, before?.snmp_version ?? undefined, "v2c");
    // Keys this process's vault cannot open count as none: the level then asks for them again (a 422).
    const storedKeys = before?.usm_keys
      ? await openSecret(vault, SNMP_USM_KEYS, hardwareId, before.usm_keys).then(
          (text) => JSON.parse(text) as UsmKeys,
          () => null,
        )
      : null;
    const usm = mergeUsm(version, input, { usm: before?.usm ?? null, keys: storedKeys });
    if (!usm.ok)
      throw ApiError.validation(
        usm.issues.map((i) => ({ loc: ["body", ...i.path.map((p) => (p === "version" ? "snmp_version" : p))], msg: i.msg, type: i.type })),
      );
    const keysJson = usm.keys ? JSON.stringify(usm.keys) : null;
    const usmKeysChanged = keysJson !== (storedKeys ? JSON.stringify(storedKeys) : null);
    if (version === "v3" && community !== null) {
      // A v3 poll logs in with its user: a community kept from v2c would sit unused.
      community = null;
      communityChanged = true;
    }
    const values = {
      protocol: given(input.protocol, before?.protocol, "snmp"),
      enabled: given(input.enabled, before?.enabled, true),
      host: given(input.host, before?.host, node.ip ? node.ip.replace(/\/\d+$/, "") : null),
      port: given(input.port, before?.port ?? undefined, DEFAULT_SNMP_PORT),
      snmp_version: version,
      community,
      usm: usm.usm,
      usm_keys: !usmKeysChanged
        ? (before?.usm_keys ?? null)
        : keysJson
          ? await sealSecret(vault, SNMP_USM_KEYS, hardwareId, keysJson)
          : null,
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
      diff: {
        before: auditView(before),
        after,
        ...(communityChanged ? { community_changed: true } : {}),
        ...(usmKeysChanged ? { usm_keys_changed: true } : {}),
      },
    });
    s.emit("telemetry", { hardware_id: hardwareId, action: "config" });
    return presentConfig(row!);
  },
);
