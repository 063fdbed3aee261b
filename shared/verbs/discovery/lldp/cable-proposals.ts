// LLDP neighbours proposed as cables (docs/ports-and-cables.md): each neighbour of an LLDP job whose
// local port names an interface of the node that reported it (by name, case-insensitive) and whose
// remote end names an interface of the neighbour's node (the node discovery matched, else the node with
// an interface of the chassis MAC; the remote port by name) is a proposal. Its state: ready (both
// interfaces free), cabled (a cable already joins them), taken (one holds another cable) or unmatched
// (a node or an interface was not found; the reason says which). Accepting a ready one creates the cable.
import { and, eq, sql } from "drizzle-orm";
import type { Db } from "../../../db/database.ts";
import { hardware, interfaces, lldpNeighbors } from "../../../db/schema/index.ts";
import { ApiError } from "../../../errors.ts";
import { insertRow } from "../../resources/update-row.ts";
import { cableDef, presentCables } from "../../inventory/cabling/cables.ts";
import { cableOn } from "../../inventory/cabling/endpoints.ts";
import { defineRead, defineVerb } from "../../verb.ts";
import { READ_DISCOVERY } from "../scopes.ts";
import { requireLldpJob } from "./lldp-results.ts";

interface Port {
  id: number;
  name: string;
  hardware_id: number;
  hardware_name: string;
}

async function interfaceNamed(db: Db, hardwareId: number, name: string | null): Promise<Port | undefined> {
  if (!name) return undefined;
  const [row] = await db
    .select({ id: interfaces.id, name: interfaces.name, hardware_id: interfaces.hardware_id, hardware_name: hardware.name })
    .from(interfaces)
    .innerJoin(hardware, eq(hardware.id, interfaces.hardware_id))
    .where(and(eq(interfaces.hardware_id, hardwareId), sql`lower(${interfaces.name}) = lower(${name.trim()})`))
    .limit(1);
  return row;
}

async function nodeOfChassis(db: Db, chassis: string | null): Promise<number | undefined> {
  if (!chassis) return undefined;
  const [row] = await db
    .select({ hardware_id: interfaces.hardware_id })
    .from(interfaces)
    .where(sql`lower(${interfaces.mac_address}) = lower(${chassis.trim()})`)
    .limit(1);
  return row?.hardware_id;
}

async function proposalsOf(db: Db, jobId: number, neighborId?: number) {
  await requireLldpJob(db, jobId);
  const rows = await db
    .select()
    .from(lldpNeighbors)
    .where(and(eq(lldpNeighbors.scan_job_id, jobId), neighborId === undefined ? undefined : eq(lldpNeighbors.id, neighborId)))
    .orderBy(lldpNeighbors.source_scan_result_id, lldpNeighbors.neighbor_index);
  const out = [];
  for (const n of rows) {
    const local = n.source_hardware_id == null ? undefined : await interfaceNamed(db, n.source_hardware_id, n.local_port_desc);
    const remoteNode = n.remote_hardware_id ?? (await nodeOfChassis(db, n.remote_chassis_id));
    const remote = remoteNode === undefined ? undefined : await interfaceNamed(db, remoteNode, n.remote_port_desc);
    let state: "ready" | "cabled" | "taken" | "unmatched" = "unmatched";
    let reason: string | null = null;
    let cable_id: number | null = null;
    if (!local) reason = `No interface named "${n.local_port_desc ?? ""}" on the reporting node.`;
    else if (remoteNode === undefined) reason = `No node matches the neighbour (chassis ${n.remote_chassis_id ?? "unknown"}).`;
    else if (!remote) reason = `No interface named "${n.remote_port_desc ?? ""}" on hardware node ${remoteNode}.`;
    else {
      const [onLocal, onRemote] = [
        await cableOn(db, { kind: "interface", id: local.id }),
        await cableOn(db, { kind: "interface", id: remote.id }),
      ];
      if (onLocal && onLocal.id === onRemote?.id) {
        state = "cabled";
        cable_id = onLocal.id;
      } else if (onLocal || onRemote) {
        state = "taken";
        cable_id = (onLocal ?? onRemote)!.id;
        reason = `Cable ${cable_id} already holds ${onLocal ? `${local.hardware_name}:${local.name}` : `${remote.hardware_name}:${remote.name}`}.`;
      } else state = "ready";
    }
    out.push({
      neighbor_id: n.id,
      local_port_desc: n.local_port_desc,
      remote_sys_name: n.remote_sys_name,
      remote_port_desc: n.remote_port_desc,
      local: local ?? null,
      remote: remote ?? null,
      state,
      reason,
      cable_id,
    });
  }
  return out;
}

export const lldpCableProposals = defineRead({ scope: READ_DISCOVERY }, async (ctx, { job_id }: { job_id: number }) => ({
  job_id,
  proposals: await proposalsOf(ctx.db, job_id),
}));

/** Accepting a proposal creates its cable (as the cable verbs would: audited, connection joined); anything but ready is a 409. */
export const acceptLldpCable = defineVerb(
  { scope: "write:hardware" },
  async (s, { job_id, neighbor_id }: { job_id: number; neighbor_id: number }) => {
    const [p] = await proposalsOf(s.tx, job_id, neighbor_id);
    if (!p) throw ApiError.notFound("LLDP neighbour", neighbor_id);
    if (p.state !== "ready") throw ApiError.conflict(`LLDP neighbour ${neighbor_id} is ${p.state}: ${p.reason ?? `cable ${p.cable_id}`}`);
    const row = await insertRow(s, cableDef, {
      a_kind: "interface",
      a_id: p.local!.id,
      b_kind: "interface",
      b_id: p.remote!.id,
      status: "connected",
      description: `From LLDP job ${job_id} (neighbour ${neighbor_id})`,
    });
    return (await presentCables(s.tx, [row]))[0]!;
  },
);
