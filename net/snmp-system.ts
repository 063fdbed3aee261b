// SNMP identification of one host: sysName.0 and sysDescr.0 in one GET (v1 or v2c, through net-snmp as
// the telemetry poller does). An answer also proves the host is up when it drops pings and TCP.
import snmp, { type Varbind } from "net-snmp";

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
  return v?.replace(/[\x00-\x1f\x7f]+/g, " ").trim().slice(0, 500) || null;
};

/** Null when the agent did not answer in time (wrong community, no agent, filtered) or the signal aborted. */
export function snmpSystem(ip: string, options: SnmpSystemOptions): Promise<SnmpSystem | null> {
  return new Promise((resolve) => {
    if (options.signal?.aborted) return resolve(null);
    const session = snmp.createSession(ip, options.community, {
      port: options.port,
      version: /^v?1$/.test(options.version) ? snmp.Version1 : snmp.Version2c,
      timeout: Math.max(50, options.timeoutMs),
      retries: 0,
    });
    // An undecodable datagram is emitted as "error"; unheard, it would crash the process.
    session.on("error", () => {});
    let settled = false;
    const finish = (r: SnmpSystem | null) => {
      if (settled) return;
      settled = true;
      options.signal?.removeEventListener("abort", onAbort);
      session.close();
      resolve(r);
    };
    const onAbort = () => finish(null);
    options.signal?.addEventListener("abort", onAbort, { once: true });
    session.get([SYS_NAME, SYS_DESCR], (error, varbinds) => {
      if (error) return finish(null);
      const ok = varbinds.filter((vb) => !snmp.isVarbindError(vb));
      finish({ sys_name: text(ok.find((vb) => vb.oid === SYS_NAME)), sys_descr: text(ok.find((vb) => vb.oid === SYS_DESCR)) });
    });
  });
}
