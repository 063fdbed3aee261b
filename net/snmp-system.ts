// SNMP identification of one host: sysName.0 and sysDescr.0 in one GET (v1 or v2c, through net-snmp as
// the telemetry poller does). An answer also proves the host is up when it drops pings and TCP.
import type { Varbind } from "net-snmp";
import { openSnmpSession, snmpGet } from "./snmp-session.ts";
import { settleOnce } from "./settle.ts";

export const SYS_DESCR = "1.3.6.1.2.1.1.1.0";
export const SYS_NAME = "1.3.6.1.2.1.1.5.0";

export interface SnmpSystemOptions {
  community: string;
  port: number;
  /** "1"/"v1" or "2c"/"v2c". */
  version: string;
  timeoutMs: number;
  signal?: AbortSignal;
}

export interface SnmpSystem {
  sys_name: string | null;
  sys_descr: string | null;
}

const text = (vb: Varbind | undefined): string | null => {
  if (!vb) return null;
  const v = Buffer.isBuffer(vb.value) ? vb.value.toString("utf8") : typeof vb.value === "string" ? vb.value : null;
  return v?.replace(CONTROL_CHARACTERS, " ").trim().slice(0, 500) || null;
};

/** Null when the agent did not answer in time (wrong community, no agent, filtered) or the signal aborted. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what printable() strips
const CONTROL_CHARACTERS = /[\x00-\x1f\x7f]+/g;

export function snmpSystem(ip: string, options: SnmpSystemOptions): Promise<SnmpSystem | null> {
  return new Promise((resolve) => {
    if (options.signal?.aborted) return resolve(null);
    const session = openSnmpSession(ip, options.community, {
      port: options.port,
      version: options.version,
      timeoutMs: Math.max(50, options.timeoutMs),
      retries: 0,
    });
    const finish = settleOnce<SnmpSystem | null>(resolve, { fallback: null, signal: options.signal, release: () => session.close() });
    snmpGet(session, [SYS_NAME, SYS_DESCR]).then(
      (ok) => finish({ sys_name: text(ok.find((vb) => vb.oid === SYS_NAME)), sys_descr: text(ok.find((vb) => vb.oid === SYS_DESCR)) }),
      () => finish(null),
    );
  });
}
