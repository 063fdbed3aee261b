// Which hardware node an agent probably runs on (spec/catalogue.tsv, group agents, "Hardware proposal order"):
// the node another agent with the same machine id is linked to, else a node holding one of its primary
// MACs, else the node named like its hostname. A proposal the sidecar stored at enrollment wins; linked
// agents need none. One query per rule for a whole page of agents.
import { and, desc, inArray, isNotNull, sql } from "drizzle-orm";
import type { Db } from "../../db/database.ts";
import { agents, hardware } from "../../db/schema/index.ts";
import type { AgentRow } from "./agent-row.ts";

const macKey = (mac: string) => mac.toLowerCase().replace(/[^0-9a-f]/g, "");
const hardwareMac = sql<string>`regexp_replace(lower(${hardware.mac_address}), '[^0-9a-f]', '', 'g')`;

/** agent id -> proposed hardware id, for the agents that have one. */
export async function proposedHardware(db: Db, rows: readonly AgentRow[]): Promise<Map<number, number>> {
  const proposals = new Map<number, number>();
  const open: AgentRow[] = [];
  for (const r of rows) {
    if (r.proposed_hardware_id != null) proposals.set(r.id, r.proposed_hardware_id);
    else if (r.hardware_id == null) open.push(r);
  }
  if (open.length === 0) return proposals;

  const hashes = [...new Set(open.map((r) => r.machine_id_hash).filter((h): h is string => !!h))];
  const macs = [...new Set(open.flatMap((r) => (r.primary_macs ?? []).map(macKey)).filter((m) => m.length === 12))];
  const names = [...new Set(open.map((r) => r.hostname?.toLowerCase()).filter((n): n is string => !!n))];
  const [byHash, byMac, byName] = await Promise.all([
    hashes.length === 0
      ? []
      : db
          .select({ hash: agents.machine_id_hash, hardware_id: agents.hardware_id })
          .from(agents)
          .where(and(inArray(agents.machine_id_hash, hashes), isNotNull(agents.hardware_id)))
          .orderBy(desc(agents.approved_at), desc(agents.id)),
    macs.length === 0
      ? []
      : db.select({ id: hardware.id, mac: hardwareMac }).from(hardware).where(inArray(hardwareMac, macs)).orderBy(hardware.id),
    names.length === 0
      ? []
      : db
          .select({ id: hardware.id, name: sql<string>`lower(${hardware.name})` })
          .from(hardware)
          .where(inArray(sql`lower(${hardware.name})`, names))
          .orderBy(hardware.id),
  ]);
  // The first row of each key wins: the latest approval, the lowest hardware id.
  const first = <K>(pairs: [K, number][]) => pairs.reduce((m, [k, id]) => (m.has(k) ? m : m.set(k, id)), new Map<K, number>());
  const hashMap = first(byHash.map((r) => [r.hash!, r.hardware_id!]));
  const macMap = first(byMac.map((r) => [r.mac, r.id]));
  const nameMap = first(byName.map((r) => [r.name, r.id]));

  for (const r of open) {
    const viaHash = r.machine_id_hash ? hashMap.get(r.machine_id_hash) : undefined;
    const viaMac = (r.primary_macs ?? []).map((m) => macMap.get(macKey(m))).find((id) => id !== undefined);
    const viaName = r.hostname ? nameMap.get(r.hostname.toLowerCase()) : undefined;
    const id = viaHash ?? viaMac ?? viaName;
    if (id !== undefined) proposals.set(r.id, id);
  }
  return proposals;
}

/** The agents of `rows` whose machine id another live (pending or active) agent also reports. */
export async function duplicateMachineIds(db: Db, rows: readonly AgentRow[]): Promise<Set<number>> {
  const hashes = [...new Set(rows.map((r) => r.machine_id_hash).filter((h): h is string => !!h))];
  if (hashes.length === 0) return new Set();
  const live = await db
    .select({ id: agents.id, hash: agents.machine_id_hash })
    .from(agents)
    .where(and(inArray(agents.machine_id_hash, hashes), inArray(agents.status, ["pending", "active"])));
  return new Set(rows.filter((r) => r.machine_id_hash && live.some((l) => l.hash === r.machine_id_hash && l.id !== r.id)).map((r) => r.id));
}
