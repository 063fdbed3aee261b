// API shapes of agents: the summary of the lists and the full AgentRead (spec/catalogue.tsv, group agents), with
// `online` by the presence rule of shared/agents/control.ts and grants merged with the registry's
// defaults. A page costs at most five more queries whatever its size.
import type * as v from "valibot";
import { isOnline } from "../../agents/control.ts";
import type { Db } from "../../db/database.ts";
import { hardware } from "../../db/schema/index.ts";
import { effectiveGrants } from "../../domain/agents/capabilities.ts";
import type { AgentRead, AgentSummary } from "../../schemas/agents.ts";
import { iso, namesById } from "../resources/present.ts";
import type { AgentRow } from "./agent-row.ts";
import { duplicateMachineIds, proposedHardware } from "./propose-hardware.ts";

export type AgentSummaryShape = v.InferInput<typeof AgentSummary>;
export type AgentReadShape = v.InferInput<typeof AgentRead>;

function summaryOf(r: AgentRow, names: Map<number, string>, now: Date): AgentSummaryShape {
  return {
    id: r.id,
    name: r.name,
    hostname: r.hostname,
    status: r.status,
    os: r.os,
    arch: r.arch,
    agent_version: r.agent_version,
    fingerprint: r.fingerprint,
    hardware_id: r.hardware_id,
    hardware_name: r.hardware_id == null ? null : (names.get(r.hardware_id) ?? null),
    reported_ip: r.reported_ip,
    last_seen_at: iso(r.last_seen_at),
    online: isOnline(r, now),
    enrolled_at: iso(r.enrolled_at)!,
  };
}

const hardwareNames = (db: Db, ids: (number | null | undefined)[]) => namesById(db, hardware, hardware.id, hardware.name, ids);

export async function presentSummaries(db: Db, rows: AgentRow[], now: Date): Promise<AgentSummaryShape[]> {
  const names = await hardwareNames(
    db,
    rows.map((r) => r.hardware_id),
  );
  return rows.map((r) => summaryOf(r, names, now));
}

export async function presentAgents(db: Db, rows: AgentRow[], now: Date): Promise<AgentReadShape[]> {
  const [proposals, duplicates] = await Promise.all([proposedHardware(db, rows), duplicateMachineIds(db, rows)]);
  const names = await hardwareNames(db, [...rows.map((r) => r.hardware_id), ...proposals.values()]);
  return rows.map((r) => {
    const proposed = proposals.get(r.id) ?? null;
    return {
      ...summaryOf(r, names, now),
      os_version: r.os_version,
      device_pk: r.device_pk,
      machine_id_hash: r.machine_id_hash,
      primary_macs: r.primary_macs ?? [],
      tenant_id: null,
      notes: r.notes,
      approved_at: iso(r.approved_at),
      decided_at: iso(r.decided_at),
      revoke_reason: r.revoke_reason,
      connected_since: iso(r.connected_since),
      spool_depth: r.spool_depth,
      spool_bytes: r.spool_bytes,
      spool_reported_at: iso(r.spool_reported_at),
      capabilities: effectiveGrants(r.capabilities),
      capability_schema: r.capability_schema,
      proposed_hardware_id: proposed,
      proposed_hardware_name: proposed == null ? null : (names.get(proposed) ?? null),
      duplicate_machine_id: duplicates.has(r.id),
      pending_update: r.pending_update ?? null,
      created_at: iso(r.created_at)!,
      updated_at: iso(r.updated_at)!,
    };
  });
}

export async function presentAgent(db: Db, row: AgentRow, now: Date): Promise<AgentReadShape> {
  return (await presentAgents(db, [row], now))[0]!;
}
