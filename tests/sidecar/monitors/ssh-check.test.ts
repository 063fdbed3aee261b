// The ssh check against Debian's real OpenSSH server on loopback (a host key made by ssh-keygen into a
// temp dir, sshd -D on a free port, killed after; it needs root, so the suite skips with the reason
// otherwise), a peer that speaks SSH-1.5, one that sends no banner in time, bad configs and the monitor
// policy's refusals.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCheck } from "../../../net/checks/run-check.ts";
import { closedPort } from "./peers.ts";
import { expectPolicyRefusals, metric, type SilentPeer, startSilentPeer } from "./net-peers.ts";

const SSHD = "/usr/sbin/sshd";
const skipReason = process.getuid?.() !== 0 ? "sshd needs root to start" : !existsSync(SSHD) ? `${SSHD} is missing (openssh-server)` : null;

const check = (config: Record<string, unknown>) => runCheck({ check_type: "ssh", host: "127.0.0.1", config });

/** The port sshd listens on once it has logged that it does. */
function waitForListening(child: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    let log = "";
    const timer = setTimeout(() => reject(new Error(`sshd did not start: ${log}`)), 10_000);
    child.stderr?.on("data", (c: Buffer) => {
      log += c.toString();
      if (/Server listening on/.test(log)) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`sshd exited ${code}: ${log}`));
    });
  });
}

describe.skipIf(skipReason !== null)(`ssh check${skipReason ? ` (skipped: ${skipReason})` : ""}`, () => {
  let dir: string;
  let sshd: ChildProcess;
  let sshdPort: number;
  let oldServer: Server;
  let oldPort: number;
  let silent: SilentPeer;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "mon-sshd-"));
    execFileSync("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", join(dir, "host_key")]);
    writeFileSync(join(dir, "sshd_config"), "UsePAM no\nPasswordAuthentication no\nKbdInteractiveAuthentication no\n");
    sshdPort = await closedPort();
    // sshd refuses to start without its privilege-separation directory.
    execFileSync("mkdir", ["-p", "/run/sshd"]);
    sshd = spawn(
      SSHD,
      [
        "-D",
        "-e",
        "-f",
        join(dir, "sshd_config"),
        "-p",
        String(sshdPort),
        "-o",
        "ListenAddress=127.0.0.1",
        "-h",
        join(dir, "host_key"),
        "-o",
        "PidFile=none",
      ],
      { stdio: ["ignore", "ignore", "pipe"] },
    );
    await waitForListening(sshd);
    oldServer = createServer((s) => {
      s.on("error", () => {});
      s.end("a greeting line first\r\nSSH-1.5-OldServer_1.0\r\n");
    });
    await new Promise<void>((resolve) => oldServer.listen(0, "127.0.0.1", resolve));
    oldPort = (oldServer.address() as { port: number }).port;
    silent = await startSilentPeer();
  });
  afterAll(async () => {
    sshd?.kill();
    await Promise.all([new Promise((resolve) => oldServer?.close(resolve)), silent?.close()]);
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("is up on OpenSSH, naming its software version, and checks expected_banner", async () => {
    const r = await check({ port: sshdPort });
    expect(r.up, r.msg).toBe(true);
    expect(r.msg).toMatch(/^SSH 2\.0, OpenSSH_\d+\.\d+/);
    expect(metric(r.samples, "latency_ms")).toBeGreaterThanOrEqual(0);
    expect((await check({ port: sshdPort, expected_banner: "OpenSSH" })).up).toBe(true);
    const wrong = await check({ port: sshdPort, expected_banner: "Dropbear" });
    expect(wrong.up).toBe(false);
    expect(wrong.msg).toMatch(/^banner "SSH-2\.0-OpenSSH_[^"]+" does not contain "Dropbear"$/);
  });

  it("is down on SSH protocol 1, on a closed port, and on a silent peer within its timeout", async () => {
    expect((await check({ port: oldPort })).msg).toBe("SSH protocol 1.5, not 2.0 (OldServer_1.0)");
    const closed = await closedPort();
    expect((await check({ port: closed })).msg).toBe(`connect to port ${closed} failed: ECONNREFUSED`);
    const r = await check({ port: silent.port, timeout: 0.3 });
    expect(r.up).toBe(false);
    expect(r.msg).toBe("no SSH identification: timeout");
  });

  it("answers a bad config as invalid", async () => {
    for (const config of [{ port: 70000 }, { port: sshdPort, expected_banner: 5 }]) {
      const r = await check(config);
      expect(r.invalid_config).toBe(true);
      expect(r.msg).toMatch(/^invalid config: /);
    }
  });

  it("honours the monitor policy: a refused address and a name resolving to one", async () => {
    await expectPolicyRefusals("ssh", { port: silent.port, timeout: 1 }, silent);
  });
});
