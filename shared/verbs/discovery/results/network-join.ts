// The network side of an import (import-as-network, enhanced-bulk-merge): the network the imported nodes
// join, an existing one or one made for the scanned subnet (a placeholder named after it), and their
// memberships. Both pass the networks' own rules: the NetworkCreate body and a gateway inside the CIDR;
// a node outside the network's CIDR is left out of it, as the membership verb would refuse it.
import { eq, sql } from "drizzle-orm";
import * as v from "valibot";
import { contains, parseHost, parseNetwork } from "../../../domain/cidr-math.ts";
import { queryRows } from "../../../db/database.ts";
import { networks } from "../../../db/schema/index.ts";
import { ApiError, type ValidationIssue } from "../../../errors.ts";
import { NetworkCreate } from "../../../schemas/networks.ts";
import type { VerbScope } from "../../verb.ts";
import { announce } from "./merge-writes.ts";
import type { UndoLog } from "./undo-log.ts";

export interface NetworkSpec {
  existing_id?: number | null | undefined;
  name?: string | null | undefined;
  cidr?: string | null | undefined;
  vlan_id?: number | null | undefined;
  gateway?: string | null | undefined;
  description?: string | null | undefined;
}

export interface JoinedNetwork {
  id: number;
  cidr: string | null;
  created: boolean;
}

/** The network `spec` names, or a new one made from it; `loc` places errors in the request. */
export async function ensureNetwork(s: VerbScope, spec: NetworkSpec, undo: UndoLog, loc: (string | number)[]): Promise<JoinedNetwork> {
  if (spec.existing_id != null) {
    const [row] = await s.tx
      .select({ id: networks.id, cidr: networks.cidr })
      .from(networks)
      .where(eq(networks.id, spec.existing_id))
      .for("share");
    if (!row)
      throw ApiError.validation([{ loc: [...loc, "existing_id"], msg: `Network ${spec.existing_id} was not found.`, type: "foreign_key" }]);
    return { ...row, created: false };
  }
  const body = {
    name: spec.name ?? `Discovered ${spec.cidr ?? "network"}`,
    cidr: spec.cidr ?? null,
    vlan_id: spec.vlan_id ?? null,
    gateway: spec.gateway ?? null,
    description: spec.description ?? null,
  };
  const parsed = v.safeParse(NetworkCreate, body);
  const issues: ValidationIssue[] = parsed.success
    ? []
    : parsed.issues.map((i) => ({ loc: [...loc, ...(i.path ?? []).map((p) => p.key as string)], msg: i.message, type: i.type }));
  if (parsed.success && body.gateway) {
    const net = body.cidr ? parseNetwork(body.cidr) : undefined;
    const gw = parseHost(body.gateway);
    if (!net || (net.ok && gw && !contains(net.value, gw)))
      issues.push({
        loc: [...loc, "gateway"],
        msg: `Gateway ${body.gateway} is outside ${body.cidr ?? "the network (no cidr)"}.`,
        type: "value_error",
      });
  }
  if (issues.length > 0) throw ApiError.validation(issues);
  const [row] = await s.tx
    .insert(networks)
    .values({ ...body, ...(parsed.success ? { cidr: parsed.output.cidr ?? null } : {}) })
    .returning({ id: networks.id, cidr: networks.cidr, version: networks.version });
  undo.created.push({ table: "networks", id: row!.id, version: row!.version });
  announce(s, "networks", "create", row!.id);
  return { id: row!.id, cidr: row!.cidr, created: true };
}

/** The placeholder for a scanned subnet: the network with that CIDR, or a new one. Null when the job scanned no single CIDR. */
export async function subnetNetwork(s: VerbScope, cidr: string | null, undo: UndoLog): Promise<JoinedNetwork | null> {
  const parsed = cidr ? parseNetwork(cidr) : undefined;
  if (!cidr || !parsed?.ok) return null;
  const [found] = await s.tx
    .select({ id: networks.id, cidr: networks.cidr })
    .from(networks)
    .where(eq(networks.cidr, cidr))
    .orderBy(networks.id)
    .limit(1);
  if (found) return { ...found, created: false };
  return ensureNetwork(s, { cidr, name: `Discovered ${cidr}` }, undo, ["body"]);
}

/** Adds the nodes to the network (those inside its CIDR, not members yet); answers how many joined. */
export async function joinNetwork(
  s: VerbScope,
  net: JoinedNetwork,
  nodes: { id: number; ip: string | null }[],
  undo: UndoLog,
): Promise<number> {
  const cidr = net.cidr ? parseNetwork(net.cidr) : undefined;
  const unique = [...new Map(nodes.map((n) => [n.id, n])).values()];
  const inside = unique.filter((n) => {
    const ip = parseHost(n.ip);
    return !cidr?.ok || !ip || contains(cidr.value, ip);
  });
  if (inside.length === 0) return 0;
  const rows = JSON.stringify(inside.map((n) => ({ hardware_id: n.id, ip_address: n.ip })));
  const added = await queryRows<{ hardware_id: number }>(
    s.tx,
    sql`
    insert into network_hardware_members (network_id, hardware_id, ip_address)
    select ${net.id}, m.hardware_id, m.ip_address from jsonb_to_recordset(${rows}::jsonb) as m(hardware_id int, ip_address text)
    on conflict do nothing
    returning hardware_id`,
  );
  for (const a of added) {
    undo.links.push({ table: "network_hardware_members", network_id: net.id, hardware_id: a.hardware_id });
    s.emit("topology", { entity: "network_hardware_member", action: "create", network_id: net.id, hardware_id: a.hardware_id });
  }
  return added.length;
}
