// The snmp scan type against a real snmpd (Debian's) on 127.0.14.2: sysName and sysDescr in the finding,
// an SNMP answer alone proving the host is up, and a wrong community finding nothing.
import { type ChildProcess, spawn } from "node:child_process";
import { createSocket } from "node:dgram";
import { accessSync, constants, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { HostFinding } from "../../../shared/domain/discovery/finding.ts";
import { parseTargets } from "../../../shared/domain/discovery/targets.ts";
import { snmpSystem } from "../../../net/snmp-system.ts";
import { runScan } from "../../../sidecar/discovery/engine/run-scan.ts";
import { sleep } from "./support.ts";

const HOST = "127.0.14.2";
const COMMUNITY = "lab-ro-community";
const snmpdPath = ["/usr/sbin/snmpd", "/usr/bin/snmpd", "/sbin/snmpd"].find((p) => {
  try {
    accessSync(p, constants.X_OK);
    return true;
  } catch {
    return false;
  }
});

let dir: string;
let snmpd: ChildProcess | undefined;
let port: number;

async function freeUdpPort(): Promise<number> {
  const socket = createSocket("udp4");
  await new Promise<void>((resolve) => socket.bind(0, HOST, resolve));
  const p = socket.address().port;
  await new Promise<void>((resolve) => socket.close(() => resolve()));
  return p;
}

const ask = (community: string) => snmpSystem(HOST, { community, port, version: "2c", timeoutMs: 300 });

beforeAll(async () => {
  if (!snmpdPath) return;
  dir = mkdtempSync(join(tmpdir(), "scan-snmpd-"));
  port = await freeUdpPort();
  const conf = join(dir, "snmpd.conf");
  writeFileSync(
    conf,
    `agentAddress udp:${HOST}:${port}\nrocommunity ${COMMUNITY} 127.0.0.0/8\nsysName lab-switch-01\nsysDescr Lab switch firmware 1.2\n`,
  );
  snmpd = spawn(snmpdPath, ["-f", "-Lo", "-C", "-c", conf], {
    env: { ...process.env, SNMP_PERSISTENT_DIR: dir, MIBS: "" },
    stdio: "ignore",
  });
  for (let i = 0; i < 50 && !(await ask(COMMUNITY)); i++) await sleep(100);
});
afterAll(() => {
  snmpd?.kill("SIGKILL");
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!snmpdPath)("snmp scan type", () => {
  it("reads sysName and sysDescr; a wrong community gets no answer", async () => {
    expect(await ask(COMMUNITY)).toEqual({ sys_name: "lab-switch-01", sys_descr: "Lab switch firmware 1.2" });
    expect(await ask("wrong")).toBeNull();
  });

  it("finds the agent's host by SNMP alone, and nothing where no agent answers", async () => {
    const t = parseTargets({ targets: [`${HOST}-3`] });
    if (!t.ok) throw new Error(t.message);
    const hosts: HostFinding[] = [];
    const outcome = await runScan(
      {
        targets: t.value,
        scan_types: ["snmp"],
        tcp_ports: [],
        host_timeout_ms: 1000,
        max_sockets: 8,
        max_concurrent_hosts: 2,
        nmap_arguments: null,
        snmp: { community: COMMUNITY, port, version: "2c" },
      },
      { signal: new AbortController().signal, onHost: (f) => void hosts.push(f), onProgress: () => {}, onLog: () => {} },
    );
    expect(outcome).toEqual({ addresses_scanned: 2, hosts_found: 1, cancelled: false });
    expect(hosts).toEqual([
      expect.objectContaining({
        ip_address: HOST,
        snmp_sys_name: "lab-switch-01",
        snmp_sys_descr: "Lab switch firmware 1.2",
        open_ports: [],
        sources: ["snmp"],
      }),
    ]);
  });
});
