// One SNMP reading of a host (v1, v2c or v3) through net-snmp: sysUpTime decides reachability (a timeout or
// an unreachable host throws), then the HOST-RESOURCES tables give CPU, memory and disk. A table the
// agent does not serve leaves its metric null rather than failing the poll.
import type { Varbind } from "net-snmp";
import { openSnmpSession, snmpGet, snmpWalk } from "../../net/snmp-session.ts";
import type { PollReading, PollTarget } from "../../shared/verbs/telemetry/poll-targets.ts";
import {
  averageLoad,
  CPU_RAW,
  type CpuCounters,
  cpuCounters,
  cpuPercentBetween,
  OID,
  storagePercents,
  storageRows,
  uptimeSeconds,
} from "./snmp-metrics.ts";

export interface SnmpReading {
  reading: PollReading;
  /** Raw CPU counters of this poll, kept for the next one when hrProcessorLoad is missing. */
  counters: CpuCounters | null;
}

/** Reads `target`; `previous` are the CPU counters of the node's last poll (for the fallback). */
export async function readSnmp(target: PollTarget, previous: CpuCounters | undefined): Promise<SnmpReading> {
  const session = openSnmpSession(target.host, target.credentials, {
    port: target.port,
    version: target.snmp_version,
    timeoutMs: target.options.timeout_ms,
    retries: target.options.retries,
  });
  try {
    const [up] = await snmpGet(session, [OID.sysUpTime]);
    if (!up) throw new Error("The agent did not return sysUpTime.");
    const optional = (p: Promise<Varbind[]>) => p.catch(() => [] as Varbind[]);
    const [loads, storage] = [
      await optional(snmpWalk(session, OID.hrProcessorLoad)),
      await optional(snmpWalk(session, OID.hrStorageEntry)),
    ];
    const counters = cpuCounters(await optional(snmpGet(session, Object.values(CPU_RAW))));
    const cpu = averageLoad(loads) ?? (previous && counters ? cpuPercentBetween(previous, counters) : null);
    return { reading: { uptime_s: uptimeSeconds(up.value), cpu_pct: cpu, ...storagePercents(storageRows(storage)) }, counters };
  } finally {
    session.close();
  }
}
