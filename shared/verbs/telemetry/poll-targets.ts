// What the sidecar's poller reads and writes: the enabled SNMP configurations, the claim of one poll
// (an atomic update of last_polled_at, so several sidecars never poll one node in the same slot) and
// the recording of its outcome. Polls are system work: no actor, no audit entry per poll.
import { and, eq, isNotNull, isNull, lte, or } from "drizzle-orm";
import type { Db } from "../../db/database.ts";
import { hardwareLiveMetrics, telemetryConfigs } from "../../db/schema/index.ts";
import { DEFAULT_SNMP_PORT } from "../../schemas/telemetry.ts";
import type { Vault } from "../../vault/vault.ts";
import { openSecret, SNMP_COMMUNITY, SNMP_USM_KEYS } from "../vault/secret-columns.ts";
import type { TelemetryUsm } from "../../db/schema/index.ts";
import { type SnmpV3User, snmpV3UserOf } from "../../domain/monitors/snmp-v3-fields.ts";
import { liveRowValues } from "../../domain/alert-rules/metrics.ts";
import { evaluateSamples } from "../alert-rules/evaluate-samples.ts";
import { defineVerb } from "../verb.ts";
import { applyStatusSamples } from "./apply-status.ts";
import { requireHardwareRow } from "./hardware-row.ts";

const pollable = and(eq(telemetryConfigs.protocol, "snmp"), eq(telemetryConfigs.enabled, true), isNotNull(telemetryConfigs.host));

/** Every node the poller should poll, with its interval. */
export async function listPollSchedules(db: Db): Promise<{ hardware_id: number; interval_s: number }[]> {
  return db
    .select({ hardware_id: telemetryConfigs.hardware_id, interval_s: telemetryConfigs.interval_s })
    .from(telemetryConfigs)
    .where(pollable);
}

/**
 * Where and how to poll; `credentials` (a community for v1/v2c, the v3 user with its keys) are secrets:
 * pass them to the SNMP session, never to a log.
 */
export interface PollTarget {
  hardware_id: number;
  host: string;
  port: number;
  snmp_version: "v1" | "v2c" | "v3";
  credentials: string | SnmpV3User;
  options: { timeout_ms?: number; retries?: number };
}

/** A claimed poll as stored: the community or the v3 keys still sealed by the vault (or null: none configured). */
export type ClaimedPoll = Omit<PollTarget, "credentials"> & {
  sealedCommunity: string | null;
  usm: TelemetryUsm | null;
  sealedUsmKeys: string | null;
};

const versionOf = (stored: string | null): PollTarget["snmp_version"] => (stored === "v1" || stored === "v3" ? stored : "v2c");

/** Claims the next poll of a node unless one was claimed less than `minGapMs` ago; null when not due. */
export const claimPoll = defineVerb<{ hardwareId: number; minGapMs: number }, ClaimedPoll | null>(
  { scope: "write:telemetry" },
  async (s, { hardwareId, minGapMs }) => {
    const dueBefore = new Date(s.now.getTime() - minGapMs);
    const [row] = await s.tx
      .update(telemetryConfigs)
      .set({ last_polled_at: s.now })
      .where(
        and(
          eq(telemetryConfigs.hardware_id, hardwareId),
          pollable,
          or(isNull(telemetryConfigs.last_polled_at), lte(telemetryConfigs.last_polled_at, dueBefore)),
        ),
      )
      .returning();
    if (!row) return null;
    return {
      hardware_id: row.hardware_id,
      host: row.host!,
      port: row.port ?? DEFAULT_SNMP_PORT,
      snmp_version: versionOf(row.snmp_version),
      sealedCommunity: row.community || null,
      usm: row.usm ?? null,
      sealedUsmKeys: row.usm_keys || null,
      options: (row.options ?? {}) as PollTarget["options"],
    };
  },
);

/** Opens a claimed poll's community or v3 keys with the vault (throws VaultError when this process's key cannot). */
export async function openPollTarget(vault: Vault, claimed: ClaimedPoll): Promise<PollTarget> {
  const { sealedCommunity, usm, sealedUsmKeys, ...target } = claimed;
  if (claimed.snmp_version === "v3") {
    const keys = sealedUsmKeys ? (JSON.parse(await openSecret(vault, SNMP_USM_KEYS, claimed.hardware_id, sealedUsmKeys)) as object) : {};
    return { ...target, credentials: snmpV3UserOf({ ...usm, ...keys }) };
  }
  // SNMP's conventional read community when none was configured.
  const community = sealedCommunity ? await openSecret(vault, SNMP_COMMUNITY, claimed.hardware_id, sealedCommunity) : "public";
  return { ...target, credentials: community };
}

export interface PollReading {
  cpu_pct: number | null;
  mem_pct: number | null;
  disk_pct: number | null;
  uptime_s: number | null;
}

/**
 * Stores one poll: a live-metric row with source "snmp" and status up (a reading) or down (`error`:
 * timeout, unreachable), the status change applied exactly as for pushed samples, and last_error.
 */
export const recordPoll = defineVerb<
  { hardwareId: number; reading: PollReading | null; error: string | null },
  { status: string; changes: number }
>({ scope: "write:telemetry" }, async (s, { hardwareId, reading, error }) => {
  const node = await requireHardwareRow(s.tx, hardwareId, { forUpdate: true });
  const status = reading ? "up" : "down";
  await s.tx.insert(hardwareLiveMetrics).values({ hardware_id: hardwareId, ts: s.now, ...(reading ?? {}), status, source: "snmp" });
  if (reading) await evaluateSamples(s, [{ hardware_id: hardwareId, ts: s.now, values: liveRowValues(reading) }]);
  const outcome = await applyStatusSamples(s, node, [{ ts: s.now, status }], error ? `snmp: ${error}` : "snmp");
  await s.tx.update(telemetryConfigs).set({ last_error: error }).where(eq(telemetryConfigs.hardware_id, hardwareId));
  s.emit("telemetry", { hardware_id: hardwareId, count: 1 });
  return outcome;
});
