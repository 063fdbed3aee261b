// What an IPAM scan (options.ipam_network_id) found, applied to the IPAM data inside the finish verb's
// transaction (D's finishScanJob calls it): every address that answered is recorded in use (a new
// ip_addresses row "allocated", or a "free" record set to "allocated"; an empty hostname or MAC filled
// in), and the conflicts with the inventory are reported in the job's log (WARNING, phase "ipam", the
// details naming the address and the rows) and on the job's results (conflicts, state "conflict"):
// - unknown_mac: the address answered from a MAC no inventory object records;
// - mac_mismatch: the inventory records another MAC for that address;
// - marked_free: an IPAM record said free, but the address is in use;
// - no_answer: an address the inventory holds in the network did not answer.
import { and, eq, inArray, isNotNull, sql } from "drizzle-orm";
import { contains, parseAddress, parseNetwork } from "../../../domain/cidr-math.ts";
import { hardware, ipAddresses, networks, scanJobs, scanLogs, scanResults } from "../../../db/schema/index.ts";
import type { VerbScope } from "../../verb.ts";
import { addressUses } from "../../inventory/ipam/address-uses.ts";

export type IpamConflictKind = "unknown_mac" | "mac_mismatch" | "marked_free" | "no_answer";

export interface IpamConflict {
  kind: IpamConflictKind;
  ip_address: string;
  message: string;
  mac_address?: string | null;
  inventory?: { type: string; id: number; name: string | null }[];
}

export interface IpamScanSummary {
  network_id: number;
  answered: number;
  created: number;
  updated: number;
  conflicts: IpamConflict[];
}

const logRow = (jobId: number, at: Date, level: string, message: string, details: Record<string, unknown>) => ({
  scan_job_id: jobId,
  timestamp: at,
  level,
  phase: "ipam",
  message: message.slice(0, 2000),
  details,
});

const normMac = (m: string | null | undefined) =>
  m
    ? m
        .toLowerCase()
        .replace(/[^0-9a-f]/g, "")
        .replace(/(..)(?!$)/g, "$1:")
    : null;

export async function applyIpamScan(s: VerbScope, jobId: number): Promise<IpamScanSummary | null> {
  const [job] = await s.tx.select().from(scanJobs).where(eq(scanJobs.id, jobId));
  const networkId = Number(job?.options.ipam_network_id);
  if (!job || !Number.isInteger(networkId)) return null;
  const log = (level: "INFO" | "WARNING", message: string, details: Record<string, unknown>) =>
    logRow(jobId, s.now, level, message, details);
  const [network] = await s.tx.select().from(networks).where(eq(networks.id, networkId));
  const cidr = network?.cidr ? parseNetwork(network.cidr) : undefined;
  if (!network || !cidr?.ok) {
    await s.tx
      .insert(scanLogs)
      .values(
        log("WARNING", `Network ${networkId} is gone or has no cidr any more: the IPAM data was not updated.`, { network_id: networkId }),
      );
    return null;
  }

  // Who answered (one row per address: the newest result), by canonical address.
  const results = await s.tx.select().from(scanResults).where(eq(scanResults.scan_job_id, jobId)).orderBy(scanResults.id);
  const answered = new Map<string, typeof scanResults.$inferSelect>();
  for (const r of results) {
    const ip = parseAddress(r.ip_address);
    if (ip.ok && contains(cidr.value, ip.value)) answered.set(ip.text, r);
  }
  const uses = await addressUses(s.tx, cidr.value);
  const usesByIp = new Map<string, typeof uses>();
  for (const u of uses) {
    if (u.type === "ipam" && u.status === "free") continue;
    const key = parseAddress(u.ip_address.split("/")[0]!);
    if (!key.ok) continue;
    usesByIp.set(key.text, [...(usesByIp.get(key.text) ?? []), u]);
  }
  const records = new Map(
    answered.size === 0
      ? []
      : (
          await s.tx
            .select()
            .from(ipAddresses)
            .where(inArray(ipAddresses.address, [...answered.keys()]))
        ).map((r) => [r.address, r]),
  );
  const answeredMacs = [...answered.values()].map((r) => normMac(r.mac_address)).filter((m): m is string => m !== null);
  const knownMacs = new Set<string>();
  if (answeredMacs.length > 0) {
    const hw = await s.tx
      .select({ mac: hardware.mac_address })
      .from(hardware)
      .where(and(isNotNull(hardware.mac_address), inArray(sql`lower(${hardware.mac_address})`, answeredMacs)));
    const ip = await s.tx
      .select({ mac: ipAddresses.mac_address })
      .from(ipAddresses)
      .where(and(isNotNull(ipAddresses.mac_address), inArray(sql`lower(${ipAddresses.mac_address})`, answeredMacs)));
    for (const m of [...hw, ...ip]) knownMacs.add(normMac(m.mac)!);
  }
  const hwMacs = new Map<number, string | null>();
  const hwIds = uses.filter((u) => u.type === "hardware").map((u) => u.id);
  if (hwIds.length > 0)
    for (const h of await s.tx.select({ id: hardware.id, mac: hardware.mac_address }).from(hardware).where(inArray(hardware.id, hwIds)))
      hwMacs.set(h.id, normMac(h.mac));

  const summary: IpamScanSummary = { network_id: networkId, answered: answered.size, created: 0, updated: 0, conflicts: [] };
  const conflictOf = new Map<number, IpamConflict[]>();
  const report = (c: IpamConflict, resultId?: number) => {
    summary.conflicts.push(c);
    if (resultId !== undefined) conflictOf.set(resultId, [...(conflictOf.get(resultId) ?? []), c]);
  };
  const who = (list: typeof uses) => list.map((u) => ({ type: u.type, id: u.id, name: u.name }));

  const fresh: (typeof ipAddresses.$inferInsert)[] = [];
  for (const [ip, r] of answered) {
    const mac = normMac(r.mac_address);
    const record = records.get(ip);
    const held = usesByIp.get(ip) ?? [];
    // The MACs the inventory records for this address (its IPAM record, hardware holding it).
    const expected = new Set(
      [normMac(record?.mac_address), ...held.filter((u) => u.type === "hardware").map((u) => hwMacs.get(u.id) ?? null)].filter(
        (m): m is string => m !== null,
      ),
    );
    if (mac && expected.size > 0 && !expected.has(mac))
      report(
        {
          kind: "mac_mismatch",
          ip_address: ip,
          mac_address: mac,
          inventory: who(held),
          message: `${ip} answered from ${mac}, but the inventory records ${[...expected].join(", ")} for it.`,
        },
        r.id,
      );
    else if (mac && expected.size === 0 && !knownMacs.has(mac))
      report(
        {
          kind: "unknown_mac",
          ip_address: ip,
          mac_address: mac,
          inventory: who(held),
          message: `${ip} is in use by ${mac}, a MAC no inventory object records.`,
        },
        r.id,
      );

    if (!record) {
      fresh.push({
        address: ip,
        network_id: networkId,
        status: "allocated",
        hostname: r.hostname,
        mac_address: mac,
        description: `In use: seen by IPAM scan job ${jobId}`,
      });
      continue;
    }
    if (record.status === "free")
      report(
        {
          kind: "marked_free",
          ip_address: ip,
          mac_address: mac,
          inventory: [{ type: "ipam", id: record.id, name: record.hostname }],
          message: `${ip} was recorded free but answered: now allocated.`,
        },
        r.id,
      );
    const set = {
      ...(record.status === "free" ? { status: "allocated" } : {}),
      ...(!record.hostname && r.hostname ? { hostname: r.hostname } : {}),
      ...(!record.mac_address && mac ? { mac_address: mac } : {}),
      ...(record.network_id == null ? { network_id: networkId } : {}),
    };
    if (Object.keys(set).length > 0) {
      await s.tx
        .update(ipAddresses)
        .set({ ...set, updated_at: s.now, version: sql`${ipAddresses.version} + 1` })
        .where(eq(ipAddresses.id, record.id));
      summary.updated++;
      s.emit("inventory", { entity: "ip_address", action: "update", id: record.id });
    }
  }

  // New records in one statement (a loopback /22 answers on every address).
  for (let i = 0; i < fresh.length; i += 1000) {
    const rows = await s.tx
      .insert(ipAddresses)
      .values(fresh.slice(i, i + 1000))
      .onConflictDoNothing()
      .returning({ id: ipAddresses.id });
    summary.created += rows.length;
    for (const row of rows) s.emit("inventory", { entity: "ip_address", action: "create", id: row.id });
  }

  for (const [ip, held] of usesByIp) {
    if (answered.has(ip)) continue;
    report({
      kind: "no_answer",
      ip_address: ip,
      inventory: who(held),
      message: `${ip} is held by ${held.map((u) => `${u.type} ${u.id}${u.name ? ` (${u.name})` : ""}`).join(", ")} but did not answer.`,
    });
  }

  for (const [resultId, list] of conflictOf) {
    const entries = list.map((c) => ({
      field: c.kind === "marked_free" ? "ipam_status" : "mac_address",
      kind: c.kind,
      discovered: c.mac_address ?? null,
      message: c.message,
    }));
    await s.tx
      .update(scanResults)
      .set({ state: "conflict", conflicts: sql`${scanResults.conflicts} || ${JSON.stringify(entries)}::jsonb`, network_id: networkId })
      .where(eq(scanResults.id, resultId));
  }
  await s.tx
    .update(scanResults)
    .set({ network_id: networkId })
    .where(and(eq(scanResults.scan_job_id, jobId), sql`${scanResults.network_id} is null`));
  const message = `IPAM ${network.cidr}: ${summary.answered} addresses in use, ${summary.created} recorded, ${summary.updated} updated, ${summary.conflicts.length} conflicts`;
  await s.tx.insert(scanLogs).values([
    ...summary.conflicts.slice(0, 500).map((c) =>
      log("WARNING", c.message, {
        kind: c.kind,
        ip_address: c.ip_address,
        mac_address: c.mac_address ?? null,
        inventory: c.inventory ?? [],
      }),
    ),
    log("INFO", message, {
      network_id: networkId,
      answered: summary.answered,
      created: summary.created,
      updated: summary.updated,
      conflicts: summary.conflicts.length,
    }),
  ]);
  await s.tx
    .update(scanJobs)
    .set({ progress_message: message.slice(0, 500) })
    .where(eq(scanJobs.id, jobId));
  s.audit({
    action: "ipam.scan.apply",
    category: "inventory",
    entity_type: "network",
    entity_id: networkId,
    diff: { job_id: jobId, answered: summary.answered, created: summary.created, updated: summary.updated, conflicts: summary.conflicts },
  });
  return summary;
}
