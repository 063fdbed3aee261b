// Is this address a live host, and which of its ports are open? Two phases, each under its own clock of
// host_timeout_ms and the shared socket budget:
// - discovery: ICMP echo, a few discovery ports and (when chosen) an SNMP GET. Like nmap's host
//   discovery, when neither the ping nor those ports answered the host counts as down and its other
//   ports are never tried, so empty address space costs a few sockets per address, not the port list.
//   A refused connect proves the host is up as much as an open port.
// - ports: a live host's other ports all at once (a firewalled host's silent ports then cost one connect
//   timeout, not one per port). Hosts enter this phase through a gate sized so that their ports fit the
//   socket budget together; the wait at the gate is the scan's, not the host's, so the clock starts after it.
import { emptyFinding, type HostFinding, type OpenPort } from "../../../shared/domain/discovery/finding.ts";
import type { PingResult } from "../../../net/ping.ts";
import { snmpSystem, type SnmpSystem } from "../../../net/snmp-system.ts";
import { type ProbeResult, tcpProbe } from "../../../net/tcp-connect.ts";
import { type EngineContext, type HostClock, hostClock, slot } from "./context.ts";
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

function connectAll(ctx: EngineContext, ip: string, ports: number[], clock: HostClock): Promise<[number, ProbeResult][]> {
  return Promise.all(
    ports.map(
      async (port): Promise<[number, ProbeResult]> => [
        port,
        await slot(ctx, clock.signal, ABORTED, () =>
          tcpProbe(ip, port, { timeoutMs: clock.budget(ctx.connectTimeoutMs), signal: clock.signal }),
        ),
      ],
    ),
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

/** The other ports of a live host, all at once, once the gate lets it in; its clock starts then. */
async function portsPhase(
  ctx: EngineContext,
  ip: string,
  ports: number[],
): Promise<{ results: [number, ProbeResult][]; clock: HostClock }> {
  if (ports.length === 0) return { results: [], clock: hostClock(ctx.signal, ctx.plan.host_timeout_ms) };
  let release: () => void;
  try {
    release = await ctx.portGate.acquire(ctx.signal);
  } catch {
    return { results: [], clock: hostClock(ctx.signal, ctx.plan.host_timeout_ms) };
  }
  try {
    const clock = hostClock(ctx.signal, ctx.plan.host_timeout_ms);
    return { results: await connectAll(ctx, ip, ports, clock), clock };
  } finally {
    release();
  }
}

/**
 * The finding of a live host (open ports sorted, rtt, sources) and the clock its enrichment continues
 * under, or null when nothing answered.
 */
export async function probeHost(
  ctx: EngineContext,
  ip: string,
  clock: HostClock,
): Promise<{ finding: HostFinding; clock: HostClock } | null> {
  const { plan } = ctx;
  const useTcp = has(plan, "tcp") && plan.tcp_ports.length > 0;
  const first = useTcp ? discoveryPorts(plan.tcp_ports) : [];
  const snmpWanted = has(plan, "snmp") && plan.snmp !== null;
  const pingDone = has(plan, "icmp") ? pingHost(ctx, ip, clock) : Promise.resolve(NO_PING);
  const firstDone = connectAll(ctx, ip, first, clock);
  const snmpDone = snmpWanted
    ? slot<SnmpSystem | null>(ctx, clock.signal, null, () =>
        snmpSystem(ip, { ...plan.snmp!, timeoutMs: clock.budget(SNMP_CAP_MS), signal: clock.signal }),
      )
    : Promise.resolve(null);
  // The first answer that proves the host is up starts the other ports; the slower methods finish alongside.
  if (
    !(await anyTrue([
      pingDone.then((r) => r.alive),
      firstDone.then((rs) => rs.some(([, r]) => answered(r))),
      snmpDone.then((r) => r !== null),
    ]))
  )
    return null;
  const rest = useTcp ? plan.tcp_ports.filter((p) => !first.includes(p)) : [];
  const [pinged, firstResults, snmp, ports] = await Promise.all([pingDone, firstDone, snmpDone, portsPhase(ctx, ip, rest)]);
  const results = [...firstResults, ...ports.results];

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
  return { finding: f, clock: ports.clock };
}
