// The SNMP session primitives (v1, v2c or v3 through net-snmp): one GET, one subtree walk, one session.
// The telemetry poll (sidecar/telemetry/snmp-read.ts), the LLDP walk, the discovery's sysName read and the
// snmp check share them.
import snmp, { type Session, type User, type Varbind } from "net-snmp";
import type { SnmpAuthProtocol, SnmpPrivProtocol, SnmpV3User } from "../shared/domain/monitors/snmp-v3-fields.ts";

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

const AUTH_PROTOCOL: Record<SnmpAuthProtocol, string> = {
  SHA: "sha",
  "SHA-224": "sha224",
  "SHA-256": "sha256",
  "SHA-384": "sha384",
  "SHA-512": "sha512",
};
const PRIV_PROTOCOL: Record<SnmpPrivProtocol, string> = { AES: "aes", "AES-256-B": "aes256b", "AES-256-R": "aes256r" };

/** net-snmp's user for `user` (its protocol codes). */
function usmUser(user: SnmpV3User): User {
  return {
    name: user.name,
    level: snmp.SecurityLevel[user.level]!,
    ...(user.auth ? { authProtocol: snmp.AuthProtocols[AUTH_PROTOCOL[user.auth.protocol]]!, authKey: user.auth.key } : {}),
    ...(user.priv ? { privProtocol: snmp.PrivProtocols[PRIV_PROTOCOL[user.priv.protocol]]!, privKey: user.priv.key } : {}),
  };
}

/**
 * A session to `host` (the caller closes it): `credentials` is a community, for `options.version` v1 or
 * v2c, or a v3 user (then the version is 3 whatever `options.version` says).
 */
export function openSnmpSession(
  host: string,
  credentials: string | SnmpV3User,
  options: { port: number; version?: string; timeoutMs?: number | undefined; retries?: number | undefined; transport?: "udp4" | "udp6" },
): Session {
  const common = {
    port: options.port,
    timeout: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    retries: options.retries ?? DEFAULT_RETRIES,
    // An IPv6 address needs a udp6 socket (net-snmp's default is udp4).
    ...(options.transport ? { transport: options.transport } : {}),
  };
  const session =
    typeof credentials === "string"
      ? snmp.createSession(host, credentials, {
          ...common,
          version: options.version === "v1" || options.version === "1" ? snmp.Version1 : snmp.Version2c,
        })
      : snmp.createV3Session(host, usmUser(credentials), common);
  // An undecodable datagram is emitted as "error"; unheard, it would crash the process.
  session.on("error", () => {});
  return session;
}
