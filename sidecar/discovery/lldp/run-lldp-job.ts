// The runner of an `lldp` enrichment job (contracts D): asks each node of the job (options.nodes, their
// IPv4 addresses) for its LLDP-MIB over SNMP with the telemetry poller's reader (sysName, then
// lldpRemTable, lldpRemManAddrTable, lldpLocPortTable), at most CONCURRENCY nodes at once, each bounded
// by the SNMP timeout; then records what answered in one transaction. The community is opened from the
// vault and never logged. An abort closes every open session at once.
import type { Session } from "net-snmp";
import type { LldpNodeRead } from "../../../shared/verbs/discovery/lldp/lldp-neighbor.ts";
import { recordLldpNeighbors } from "../../../shared/verbs/discovery/lldp/record-lldp.ts";
import { openJobCommunity } from "../../../shared/verbs/discovery/jobs/snmp-community.ts";
import { openSnmpSession, snmpGet, snmpWalk } from "../../../net/snmp-session.ts";
import type { JobRun } from "../job-runner.ts";
import { LLDP_OID, parseLldp } from "./lldp-mib.ts";
import { eachConcurrent } from "../../../shared/each-concurrent.ts";

const CONCURRENCY = 4;
const TIMEOUT_MS = 2000;

interface LldpOptions {
  nodes?: { hardware_id: number; ip_address: string }[];
  skipped?: { hardware_id: number; reason: string }[];
  snmp_port?: number;
  snmp_version?: string;
}

async function readNode(session: Session, node: { hardware_id: number; ip_address: string }): Promise<LldpNodeRead> {
  const [name] = await snmpGet(session, [LLDP_OID.sysName]);
  if (!name) throw new Error("the agent did not return sysName");
  const rem = await snmpWalk(session, LLDP_OID.remTable);
  const [manAddr, locPort] = [
    await snmpWalk(session, LLDP_OID.remManAddrTable).catch(() => []),
    await snmpWalk(session, LLDP_OID.locPortTable).catch(() => []),
  ];
  const sysName = Buffer.isBuffer(name.value) ? name.value.toString("utf8").trim() || null : String(name.value);
  return { ...node, sys_name: sysName, neighbors: parseLldp(rem, manAddr, locPort) };
}

export async function runLldpJob(run: JobRun): Promise<void> {
  const { ctx } = run;
  const options = run.job.options as LldpOptions;
  const nodes = options.nodes ?? [];
  // A job from POST /discovery/scan names addresses, not nodes: the neighbours would have no source node.
  if (nodes.length === 0)
    throw new Error("An lldp job reads the LLDP neighbours of inventory nodes: start it with POST /discovery/lldp-enrich {hardware_ids}.");
  for (const s of options.skipped ?? []) run.log("WARNING", "lldp", `Hardware ${s.hardware_id} skipped: ${s.reason}`);
  const community = (await openJobCommunity(ctx.db, run.vault, run.job)) ?? "public";
  const port = options.snmp_port ?? 161;
  const open = new Set<Session>();
  const closeAll = () => {
    for (const s of open) s.close();
    open.clear();
  };
  run.signal.addEventListener("abort", closeAll, { once: true });
  const reads: LldpNodeRead[] = [];
  let done = 0;
  const readOne = async (node: (typeof nodes)[number]) => {
    const session = openSnmpSession(node.ip_address, community, {
      port,
      version: options.snmp_version ?? "2c",
      timeoutMs: TIMEOUT_MS,
      retries: 1,
    });
    open.add(session);
    try {
      const read = await readNode(session, node);
      reads.push(read);
      run.log("INFO", "lldp", `${node.ip_address} (${read.sys_name ?? "no sysName"}): ${read.neighbors.length} LLDP neighbours`, {
        hardware_id: node.hardware_id,
      });
    } catch (e) {
      if (run.signal.aborted) return;
      const error = (e as Error).message ?? String(e);
      reads.push({ ...node, sys_name: null, neighbors: [], error });
      run.log("WARNING", "lldp", `${node.ip_address}: no LLDP answer (${error})`, { hardware_id: node.hardware_id });
    } finally {
      if (open.delete(session)) session.close();
    }
    run.progress({ done: ++done, total: nodes.length, phase: "lldp", message: `Read ${done} of ${nodes.length} nodes` });
  };
  try {
    await eachConcurrent(nodes, CONCURRENCY, run.signal, readOne);
  } finally {
    run.signal.removeEventListener("abort", closeAll);
    closeAll();
  }
  if (run.signal.aborted) return;
  const answered = reads.filter((r) => !r.error);
  if (answered.length === 0)
    throw new Error(
      `No node answered LLDP-MIB over SNMP (${reads
        .map((r) => `${r.ip_address}: ${r.error}`)
        .join("; ")
        .slice(0, 500)})`,
    );
  // In the job's node order, whichever answered first.
  const order = new Map(nodes.map((n, i) => [n.hardware_id, i]));
  reads.sort((x, y) => order.get(x.hardware_id)! - order.get(y.hardware_id)!);
  const out = await recordLldpNeighbors({ ctx, input: { job_id: run.job.id, nodes: reads } });
  run.log("INFO", "lldp", `Recorded ${out.neighbors} neighbours of ${out.nodes} nodes`);
}
