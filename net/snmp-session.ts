// The SNMP session primitives (v1 or v2c through net-snmp): one GET, one subtree walk, one session. The
// telemetry poll (sidecar/telemetry/snmp-read.ts), the LLDP walk and the discovery's sysName read share them.
import snmp, { type Session, type Varbind } from "net-snmp";

export const DEFAULT_TIMEOUT_MS = 3000;
export const DEFAULT_RETRIES = 1;

/** GET of `oids` (varbind errors such as noSuchObject dropped). */
export function snmpGet(session: Session, oids: string[]): Promise<Varbind[]> {
  return new Promise((resolve, reject) =>
    session.get(oids, (error, varbinds) => (error ? reject(error) : resolve(varbinds.filter((vb) => !snmp.isVarbindError(vb))))),
  );
}

/** Every varbind under `oid` (GETBULK, 20 repetitions a request). */
export function snmpWalk(session: Session, oid: string): Promise<Varbind[]> {
  return new Promise((resolve, reject) => {
    const out: Varbind[] = [];
    session.subtree(
      oid,
      20,
      (varbinds) => void out.push(...varbinds.filter((vb) => !snmp.isVarbindError(vb))),
      (error) => (error ? reject(error) : resolve(out)),
    );
  });
}

/** A v1 or v2c session to `host` (the caller closes it); the discovery's LLDP walk shares it. */
export function openSnmpSession(
  host: string,
  community: string,
  options: { port: number; version: string; timeoutMs?: number | undefined; retries?: number | undefined; transport?: "udp4" | "udp6" },
): Session {
  const session = snmp.createSession(host, community, {
    port: options.port,
    version: options.version === "v1" || options.version === "1" ? snmp.Version1 : snmp.Version2c,
    timeout: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    retries: options.retries ?? DEFAULT_RETRIES,
    // An IPv6 address needs a udp6 socket (net-snmp's default is udp4).
    ...(options.transport ? { transport: options.transport } : {}),
  });
  // An undecodable datagram is emitted as "error"; unheard, it would crash the process.
  session.on("error", () => {});
  return session;
}
