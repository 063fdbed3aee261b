// A real Debian snmpd for tests, on a loopback address: found on PATH or /usr/sbin (a missing package
// fails the test saying so), configured in a temp dir, ready once it answers sysName (bounded), killed
// and cleaned up by stop().
import { type ChildProcess, spawn } from "node:child_process";
import { createSocket } from "node:dgram";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openSnmpSession, snmpGet } from "../../net/snmp-session.ts";
import { findDebianCommand } from "./debian-command.ts";

export const findSnmpd = (): string => findDebianCommand("snmpd", "snmpd");

/** A UDP port free on `host` now. */
export async function freeUdpPort(host = "127.0.0.1"): Promise<number> {
  const socket = createSocket("udp4");
  await new Promise<void>((resolve) => socket.bind(0, host, resolve));
  const { port } = socket.address();
  await new Promise<void>((resolve) => socket.close(() => resolve()));
  return port;
}

export interface Snmpd {
  process: ChildProcess;
  stop(): void;
}

/** snmpd on `address`:`port` with a read-only `community` and the extra snmpd.conf `lines`. */
export async function startSnmpd(opts: { address: string; port: number; community: string; lines?: string[] }): Promise<Snmpd> {
  const dir = mkdtempSync(join(tmpdir(), "snmpd-"));
  const conf = join(dir, "snmpd.conf");
  writeFileSync(
    conf,
    [`agentAddress udp:${opts.address}:${opts.port}`, `rocommunity ${opts.community} 127.0.0.0/8`, ...(opts.lines ?? []), ""].join("\n"),
  );
  const child = spawn(findSnmpd(), ["-f", "-Lo", "-C", "-c", conf], {
    env: { ...process.env, SNMP_PERSISTENT_DIR: dir, MIBS: "" },
    stdio: "ignore",
  });
  const stop = () => {
    child.kill("SIGKILL");
    rmSync(dir, { recursive: true, force: true });
  };
  for (let i = 0; i < 50; i++) {
    const session = openSnmpSession(opts.address, opts.community, { port: opts.port, version: "2c", timeoutMs: 200, retries: 0 });
    const up = await snmpGet(session, ["1.3.6.1.2.1.1.5.0"]).then(
      () => true,
      () => false,
    );
    session.close();
    if (up) return { process: child, stop };
    await new Promise((r) => setTimeout(r, 100));
  }
  stop();
  throw new Error(`snmpd on ${opts.address}:${opts.port} did not answer within 5 s`);
}
