// One SNMP reading of a host (v2c or v1) through net-snmp: sysUpTime decides reachability (a timeout or
// an unreachable host throws), then the HOST-RESOURCES tables give CPU, memory and disk. A table the
// agent does not serve leaves its metric null rather than failing the poll.
import snmp, { type Session, type Varbind } from "net-snmp";
import type { PollReading, PollTarget } from "../../shared/services/telemetry/poll-targets.ts";
import { averageLoad, CPU_RAW, type CpuCounters, cpuCounters, cpuPercentBetween, OID, storagePercents, storageRows, uptimeSeconds } from "./snmp-metrics.ts";

export const DEFAULT_TIMEOUT_MS = 3000;
export const DEFAULT_RETRIES = 1;

export interface SnmpReading {
  reading: PollReading;
  /** Raw CPU counters of this poll, kept for the next one when hrProcessorLoad is missing. */
  counters: CpuCounters | null;
}

/** GET of `oids` (varbind errors such as noSuchObject dropped). */
export function snmpGet(session: Session, oids: string[]): Promise<Varbind[]> {
  return new Promise((resolve, reject) => session.get(oids, (error, varbinds) => (error ? reject(error) : resolve(varbinds.filter((vb) => !snmp.isVarbindError(vb))))));
}

/** Every varbind under `oid` (GETBULK, 20 repetitions a request). */
export function snmpWalk(session: Session, oid: string): Promise<Varbind[]> {
  return new Promise((resolve, reject) => {
    const out: Varbind[] = [];
    session.subtree(oid, 20, (varbinds) => void out.push(...varbinds.filter((vb) => !snmp.isVarbindError(vb))), (error) => (error ? reject(error) : resolve(out)));
  });
}

/** A v1 or v2c session to `host` (the caller closes it); the discovery's LLDP walk shares it. */
export function openSnmpSession(host: string, community: string, options: { port: number; version: string; timeoutMs?: number | undefined; retries?: number | undefined }): Session {
  const session = snmp.createSession(host, community, {
    port: options.port,
    version: options.version === "v1" || options.version === "1" ? snmp.Version1 : snmp.Version2c,
    timeout: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    retries: options.retries ?? DEFAULT_RETRIES,
  });
  // An undecodable datagram is emitted as "error"; unheard, it would crash the process.
  session.on("error", () => {});
  return session;
}

/** Reads `target`; `previous` are the CPU counters of the node's last poll (for the fallback). */
export async function readSnmp(target: PollTarget, previous: CpuCounters | undefined): Promise<SnmpReading> {
  const session = openSnmpSession(target.host, target.community, { port: target.port, version: target.snmp_version, timeoutMs: target.options.timeout_ms, retries: target.options.retries });
  try {
    const [up] = await snmpGet(session, [OID.sysUpTime]);
    if (!up) throw new Error("The agent did not return sysUpTime.");
    const optional = (p: Promise<Varbind[]>) => p.catch(() => [] as Varbind[]);
    const [loads, storage] = [await optional(snmpWalk(session, OID.hrProcessorLoad)), await optional(snmpWalk(session, OID.hrStorageEntry))];
    const counters = cpuCounters(await optional(snmpGet(session, Object.values(CPU_RAW))));
    const cpu = averageLoad(loads) ?? (previous && counters ? cpuPercentBetween(previous, counters) : null);
    return { reading: { uptime_s: uptimeSeconds(up.value), cpu_pct: cpu, ...storagePercents(storageRows(storage)) }, counters };
  } finally {
    session.close();
  }
}
