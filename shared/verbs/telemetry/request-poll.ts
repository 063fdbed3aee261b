// POST /hardware/{id}/telemetry/poll: asks the sidecar to poll a node now. The request travels as a
// NOTIFY on "telemetry" ({hardware_id, action: "poll"}), sent when this transaction commits with its
// audit entry; a node without an enabled SNMP configuration has nothing to poll (409).
import { eq } from "drizzle-orm";
import { telemetryConfigs } from "../../db/schema/index.ts";
import { ApiError } from "../../errors.ts";
import { defineVerb } from "../verb.ts";
import { requireHardwareRow } from "./hardware-row.ts";
import { CONFIG_SCOPE } from "./set-config.ts";

export const requestPoll = defineVerb({ scope: CONFIG_SCOPE }, async (s, { hardwareId }: { hardwareId: number }) => {
  await requireHardwareRow(s.tx, hardwareId);
  const [config] = await s.tx.select().from(telemetryConfigs).where(eq(telemetryConfigs.hardware_id, hardwareId));
  if (config?.protocol !== "snmp" || !config.enabled || !config.host) {
    const why = !config
      ? "has no telemetry configuration"
      : config.protocol !== "snmp"
        ? `is configured for ${config.protocol}, not SNMP polling`
        : !config.enabled
          ? "has its SNMP polling disabled"
          : "has no SNMP host";
    throw ApiError.conflict(
      `Hardware node ${hardwareId} ${why}: there is nothing to poll. Set an enabled SNMP configuration with POST /api/v1/hardware/${hardwareId}/telemetry/config first.`,
    );
  }
  s.audit({
    action: "telemetry.poll.request",
    category: "telemetry",
    entity_type: "hardware",
    entity_id: hardwareId,
    diff: { host: config.host, port: config.port },
  });
  s.emit("telemetry", { hardware_id: hardwareId, action: "poll" });
  return { queued: true as const, hardware_id: hardwareId };
});
