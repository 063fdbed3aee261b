// Is this address a live host? ICMP echo, TCP connects and (when chosen) an SNMP GET, all under the
// host's clock and the shared socket budget. A refused connect proves the host is up as much as an
// open port. Like nmap's host discovery, a few discovery ports are tried with the ping first: when
// neither they nor the ping answered, the host counts as down and its other ports are not tried, so a
// sweep of mostly empty address space costs a few sockets per address, not the whole port list.
import { emptyFinding, type HostFinding, type OpenPort } from "../../../shared/domain/discovery/finding.ts";
import type { PingResult } from "../../../net/ping.ts";
import { snmpSystem, type SnmpSystem } from "../../../net/snmp-system.ts";
import { SocketBudget } from "../../../net/socket-budget.ts";
import { type ProbeResult, tcpProbe } from "../../../net/tcp-connect.ts";
import { type EngineContext, type HostClock, slot } from "./context.ts";
import { has } from "./plan.ts";

const DISCOVERY_PREFERENCE = [80, 443, 22];
const DISCOVERY_PORTS = 3;
const SNMP_CAP_MS = 1500;

/** The ports tried with the ping: 80, 443, 22 when in the list, then the list's first ones. */
export function discoveryPorts(ports: number[]): number[] {
  const preferred = DISCOVERY_PREFERENCE.filter((p) => ports.includes(p));
  return [...new Set([...preferred, ...ports])].slice(0, DISCOVERY_PORTS);
}

const NO_PING: PingResult = { alive: false, rtt_ms: null, fault: null };
const ABORTED: ProbeResult = { state: "aborted", ms: null, code: "ABORTED" };

async function pingHost(ctx: EngineContext, ip: string, clock: HostClock): Promise<PingResult> {
  let release: () => void;
  try {
    release = await ctx.pings.acquire(clock.signal);
  } catch {
    return NO_PING;
  }
  try {
    const r = await slot(ctx, clock.signal, NO_PING, () => ctx.pinger.ping(ip, clock.signal));
    if (!r.alive && r.fault) ctx.warnOnce("ping", "icmp", `ICMP sweep unavailable: ${r.fault}; hosts are found by the other methods only`);
    return r;
  } finally {
    release();
  }
}

/**
 * Connects to `ports`, at most `perHost` at once: each host gets its fair share of the socket budget, so
 * its ports do not queue behind every other host's and its timeout measures the host, not the queue.
 */
function connectAll(ctx: EngineContext, ip: string, ports: number[], clock: HostClock, perHost: SocketBudget): Promise<[number, ProbeResult][]> {
  return Promise.all(
    ports.map(async (port): Promise<[number, ProbeResult]> => {
      let release: () => void;
      try {
        release = await perHost.acquire(clock.signal);
      } catch {
        return [port, ABORTED];
      }
      try {
        return [port, await slot(ctx, clock.signal, ABORTED, () => tcpProbe(ip, port, { timeoutMs: clock.budget(ctx.connectTimeoutMs), signal: clock.signal }))];
      } finally {
        release();
      }
    }),
  );
}

const answered = (r: ProbeResult) => r.state === "open" || r.state === "closed";

/** True as soon as one of the checks is true; false once all are false. */
function anyTrue(checks: Promise<boolean>[]): Promise<boolean> {
  return new Promise((resolve) => {
    let pending = checks.length;
    for (const c of checks) void c.then((yes) => (yes ? resolve(true) : --pending === 0 && resolve(false)));
  });
}

/** The finding of a live host (open ports sorted, rtt, sources), or null when nothing answered. */
export async function probeHost(ctx: EngineContext, ip: string, clock: HostClock): Promise<HostFinding | null> {
  const { plan } = ctx;
  const useTcp = has(plan, "tcp") && plan.tcp_ports.length > 0;
  const first = useTcp ? discoveryPorts(plan.tcp_ports) : [];
  const snmpWanted = has(plan, "snmp") && plan.snmp !== null;
  const pingDone = has(plan, "icmp") ? pingHost(ctx, ip, clock) : Promise.resolve(NO_PING);
  const perHost = new SocketBudget(Math.max(2, Math.ceil(plan.max_sockets / Math.max(1, plan.max_concurrent_hosts))));
  const firstDone = connectAll(ctx, ip, first, clock, perHost);
  const snmpDone = snmpWanted
    ? slot<SnmpSystem | null>(ctx, clock.signal, null, () => snmpSystem(ip, { ...plan.snmp!, timeoutMs: clock.budget(SNMP_CAP_MS), signal: clock.signal }))
    : Promise.resolve(null);
  // The first answer that proves the host is up starts the other ports; the slower methods finish alongside.
  if (!(await anyTrue([pingDone.then((r) => r.alive), firstDone.then((rs) => rs.some(([, r]) => answered(r))), snmpDone.then((r) => r !== null)]))) return null;
  const rest = useTcp ? plan.tcp_ports.filter((p) => !first.includes(p)) : [];
  const [pinged, firstResults, snmp, restResults] = await Promise.all([pingDone, firstDone, snmpDone, connectAll(ctx, ip, rest, clock, perHost)]);
  const results = [...firstResults, ...restResults];

  const f = emptyFinding(ip);
  f.open_ports = results
    .filter(([, r]) => r.state === "open")
    .map(([port]): OpenPort => ({ port, protocol: "tcp", service: null, banner: null }))
    .sort((a, b) => a.port - b.port);
  const tcpTimes = results.filter(([, r]) => answered(r) && r.ms !== null).map(([, r]) => r.ms!);
  f.rtt_ms = pinged.alive ? pinged.rtt_ms : tcpTimes.length ? Math.min(...tcpTimes) : null;
  if (pinged.alive) f.sources.push("icmp");
  if (results.some(([, r]) => answered(r))) f.sources.push("tcp");
  if (snmp) {
    f.snmp_sys_name = snmp.sys_name;
    f.snmp_sys_descr = snmp.sys_descr;
    f.sources.push("snmp");
  }
  return f;
}
