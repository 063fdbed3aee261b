// What a `hello` tells us about the device, as agent columns: written on every enrollment and link, so
// the inventory follows a host that was renamed, upgraded or re-addressed. Readiness entries are stamped
// with when the server heard them (GET /agents/{id}/telemetry answers updated_at).
import type { HelloPayload, ReadinessPayload } from "../../../agents/payloads.ts";

export function stampReadiness(readiness: readonly ReadinessPayload[], now: Date): Record<string, unknown>[] {
  return readiness.map((r) => ({ ...r, reason: r.reason ?? null, remediation: r.remediation ?? null, updated_at: now.toISOString() }));
}

export function helloColumns(hello: HelloPayload, reportedIp: string | null, now: Date) {
  return {
    hostname: hello.hostname,
    os: hello.os,
    os_version: hello.os_version ?? null,
    arch: hello.arch,
    agent_version: hello.agent_version,
    machine_id_hash: hello.machine_id_hash ?? null,
    primary_macs: hello.primary_macs,
    networks: hello.networks as unknown[],
    readiness: stampReadiness(hello.readiness, now) as unknown[],
    capability_schema: hello.capability_schema,
    reported_ip: reportedIp,
    ...(hello.spool_depth === undefined ? {} : { spool_depth: hello.spool_depth, spool_reported_at: now }),
    updated_at: now,
  };
}
