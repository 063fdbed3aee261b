// Issue 35 item 3: the served install-agent.sh, run for real as root by /bin/sh against the product started
// as the README says, with a real signed linux-x64 build (scripts/build-agent.ts, one build for the whole
// file; the official Node binary comes from the build cache single-file.test.ts shares).
// Every path the script writes is under a temporary SVC_AGENT_ROOT; the system user it creates is real
// (SVC_AGENT_USER names one of the test's own) and is removed by --uninstall.
// Stand-ins: systemd cannot run here (PID 1 is not systemd) and OpenRC is not installed, so `systemctl`,
// `rc-service`, `rc-update` and `openrc-run` are recording stand-ins on PATH; the script chooses systemd
// when systemctl is on PATH and <root>/run/systemd/system exists (what sd_booted checks), OpenRC when
// openrc-run/rc-service is on PATH, else a foreground run. The unit is checked with the real
// `systemd-analyze verify`, and the agent is run as the service would run it: the script's --foreground
// runs the installed runner (guard, then bin/current) as the agent's user, which links after approval.
// Skipped unless the tests run as root (useradd, chown, runuser).
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { chmodSync, existsSync, lstatSync, mkdirSync, readFileSync, readlinkSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { guardScript, runnerScript } from "../../../shared/agents/update-layout.ts";
import { installScript } from "../../../shared/verbs/agents/install-script.ts";
import { testReleaseKey } from "../../helpers/release-key.ts";
import { killAll, type Product, REPO_ROOT } from "../helpers.ts";
import { type Admin, bootstrapAdmin, createTestDatabase, startOn, TEST_GRANTS, type TestDatabase, tempDir, until } from "./support.ts";

const VERSION = readFileSync(join(REPO_ROOT, "VERSION"), "utf8").trim();
const USER = "svc-agent-itest";
const IS_ROOT = process.getuid?.() === 0;
const PAIRING = /PAIRING CODE:\s+([0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4})/;

function userExists(): boolean {
  try {
    execFileSync("id", ["-u", USER], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}
const sha256Of = (file: string) => createHash("sha256").update(readFileSync(file)).digest("hex");
const idOf = (flag: "-u" | "-g") => Number(execFileSync("id", [flag, USER], { encoding: "utf8" }).trim());

describe.skipIf(!IS_ROOT)("install-agent.sh on a host (skipped unless the tests run as root)", () => {
  const work = tempDir("agent-install-");
  const builds = join(work.dir, "builds");
  const keyFile = join(work.dir, "keys", "release-key.pem");
  let db: TestDatabase;
  let p: Product;
  let admin: Admin;
  let script = "";
  let serverKey = "";
  const running: ChildProcess[] = [];

  beforeAll(async () => {
    const env = { ...process.env };
    delete env.NODE_OPTIONS;
    delete env.VITEST;
    delete env.AGENT_RELEASE_KEY;
    const build = (args: string[]) =>
      execFileSync(process.execPath, ["scripts/build-agent.ts", ...args], { cwd: REPO_ROOT, env, stdio: "ignore", timeout: 280_000 });
    build(["release-key", "--out", keyFile]);
    build(["--key", keyFile, "--out", builds, "--targets", "linux-x64"]);
    // The agent's user must reach its state directory under the temporary root.
    chmodSync(work.dir, 0o755);
    if (userExists()) execFileSync("userdel", [USER]);
    db = await createTestDatabase();
    p = await startOn(db, { AGENT_BINARY_DIR: builds });
    admin = await bootstrapAdmin(p);
    script = await (await p.fetch("/install-agent.sh")).text();
    serverKey = (await admin.call<{ public_key: string }>("GET", "agents/server-key/status")).public_key;
  }, 300_000);

  afterAll(async () => {
    for (const c of running) if (c.exitCode === null && c.pid) tryKill(-c.pid);
    await killAll();
    await db?.drop();
    if (userExists()) execFileSync("userdel", [USER]);
    work.remove();
  });

  function tryKill(pid: number): void {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // gone already
    }
  }

  /** A temporary root, and a folder of recording stand-ins for the service-manager commands named. */
  function host(name: string, standIns: string[], systemdRunning = false): { root: string; path: string; calls(): string } {
    const root = join(work.dir, name);
    const bin = join(work.dir, `${name}-stand-ins`);
    mkdirSync(bin, { recursive: true });
    if (systemdRunning) mkdirSync(join(root, "run", "systemd", "system"), { recursive: true });
    const log = join(work.dir, `${name}-calls`);
    writeFileSync(log, "");
    for (const cmd of standIns) {
      writeFileSync(join(bin, cmd), `#!/bin/sh\necho "$(basename "$0") $*" >> '${log}'\n`);
      chmodSync(join(bin, cmd), 0o755);
    }
    return { root, path: `${bin}:${process.env.PATH}`, calls: () => readFileSync(log, "utf8") };
  }

  interface Run {
    code: number | null;
    output: string;
  }

  /**
   * Runs the script as `curl ... | sudo sh` would (sh, as root, a bare environment), approving the
   * pairing code it prints. With `until`, resolves once the output matches it, leaving the run going.
   */
  function install(
    h: { root: string; path: string },
    args: string[] = [],
    text = script,
    opts: { until?: RegExp } = {},
  ): Promise<Run & { child: ChildProcess }> {
    const file = join(work.dir, `install-${Math.random().toString(36).slice(2)}.sh`);
    writeFileSync(file, text);
    const child = spawn("sh", [file, ...args], {
      env: { PATH: h.path, SVC_AGENT_ROOT: h.root, SVC_AGENT_USER: USER },
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    });
    running.push(child);
    let output = "";
    let approved = false;
    return new Promise((resolve) => {
      const onData = async (d: Buffer) => {
        output += d.toString();
        const code = PAIRING.exec(output)?.[1];
        if (code && !approved) {
          approved = true;
          const found = await admin.call<{ agent_id: number }>("POST", "agents/pairing/lookup", { code });
          await admin.call("POST", `agents/${found.agent_id}/approve`, { host_link_action: "create", capabilities: TEST_GRANTS });
        }
        if (opts.until?.test(output)) resolve({ code: null, output, child });
      };
      child.stdout!.on("data", onData);
      child.stderr!.on("data", onData);
      child.once("exit", (code) => resolve({ code, output, child }));
    });
  }

  const paths = (root: string) => ({
    state: join(root, "var/lib/svc-agent"),
    lib: join(root, "usr/local/lib/svc-agent"),
    link: join(root, "usr/local/bin/svc-agent"),
    config: join(root, "etc/svc-agent/agent.toml"),
    unit: join(root, "etc/systemd/system/svc-agent.service"),
    init: join(root, "etc/init.d/svc-agent"),
  });
  const ownerMode = (file: string) => {
    const s = lstatSync(file);
    return [s.uid, s.gid, s.mode & 0o7777];
  };
  const agentIdIn = (output: string) => Number(/enrolled as agent (\d+)/.exec(output)?.[1]);

  it("the served script, and one from a server without builds, pass shellcheck with no findings", () => {
    expect(script).toContain(`SERVER_URL='${p.url}'`);
    const none = installScript({ serverUrl: p.url, serverPublicKey: serverKey, builds: [] });
    for (const text of [script, none]) execFileSync("shellcheck", ["--shell=sh", "-"], { input: text, encoding: "utf8" });
  });

  it("refuses a tampered build and a wrong signature, installing nothing and creating no user", async () => {
    const file = join(builds, VERSION, "linux", "amd64", "svc-agent");
    const good = readFileSync(file);
    writeFileSync(file, Buffer.concat([good, Buffer.from("tampered")]));
    const tampered = host("tampered", ["systemctl"], true);
    let run: Run;
    try {
      run = await install(tampered);
    } finally {
      writeFileSync(file, good);
    }
    expect(run.code).toBe(1);
    expect(run.output).toMatch(/install-agent: the download's SHA-256 is [0-9a-f]{64}, expected [0-9a-f]{64}: not installed\n$/);

    const sha = /amd64\) VERSION='[^']+'; SHA256='([0-9a-f]{64})'/.exec(script)![1]!;
    const forged = testReleaseKey().signEntry(VERSION, "linux", "amd64", sha);
    const wrongKey = host("wrong-signature", ["systemctl"], true);
    run = await install(wrongKey, [], script.replace(/SIGNATURE='[^']+'/, `SIGNATURE='${forged}'`));
    expect(run.code).toBe(1);
    expect(run.output).toBe(
      `install-agent: the release signature of agent ${VERSION} for linux/amd64 does not verify under the release key: not installed\n`,
    );
    for (const h of [tampered, wrongKey]) for (const dir of ["var", "usr", "etc"]) expect(existsSync(join(h.root, dir)), dir).toBe(false);
    expect(userExists()).toBe(false);
  });

  describe("under systemd", () => {
    const h = host("systemd-host", ["systemctl"], true);
    const at = paths(h.root);
    let agentId = 0;
    let deviceKey = "";

    it("installs the layout, the hardened unit and the config, enrolls as the agent's user and starts the unit", async () => {
      const run = await install(h);
      expect(run.code, run.output).toBe(0);
      expect(run.output).toContain("service manager: systemd");
      expect(run.output).toMatch(PAIRING);
      agentId = agentIdIn(run.output);
      expect(agentId).toBeGreaterThan(0);
      const uid = idOf("-u");
      const gid = idOf("-g");

      // The layout of shared/agents/update-layout.ts.
      expect(ownerMode(at.state)).toEqual([uid, gid, 0o700]);
      expect(ownerMode(join(at.state, "bin"))).toEqual([uid, gid, 0o700]);
      expect(ownerMode(join(at.state, "bin", `svc-agent-${VERSION}`))).toEqual([uid, gid, 0o755]);
      expect(sha256Of(join(at.state, "bin", `svc-agent-${VERSION}`))).toBe(sha256Of(join(builds, VERSION, "linux", "amd64", "svc-agent")));
      expect(readlinkSync(join(at.state, "bin", "current"))).toBe(`svc-agent-${VERSION}`);
      expect(lstatSync(join(at.state, "bin", "current")).uid).toBe(uid);
      expect(existsSync(join(at.state, "bin", "previous"))).toBe(false);
      expect(readlinkSync(at.link)).toBe(join(at.state, "bin", "current"));
      expect(ownerMode(at.lib)).toEqual([0, 0, 0o755]);
      expect(ownerMode(join(at.lib, "guard"))).toEqual([0, 0, 0o755]);
      expect(ownerMode(join(at.lib, "run"))).toEqual([0, 0, 0o755]);
      expect(readFileSync(join(at.lib, "guard"), "utf8")).toBe(guardScript());
      expect(readFileSync(join(at.lib, "run"), "utf8")).toBe(runnerScript());
      // The enrollment ran as the agent's user: its key files are its own.
      expect(ownerMode(join(at.state, "device.key"))).toEqual([uid, gid, 0o600]);
      expect(JSON.parse(readFileSync(join(at.state, "server.json"), "utf8"))).toMatchObject({
        url: p.url,
        current_pk: serverKey,
        agent_id: agentId,
        status: "active",
      });
      deviceKey = readFileSync(join(at.state, "device.key"), "utf8");

      expect(ownerMode(join(h.root, "etc/svc-agent"))).toEqual([0, gid, 0o750]);
      expect(ownerMode(at.config)).toEqual([0, gid, 0o640]);
      const config = readFileSync(at.config, "utf8").split("\n");
      expect(config).toEqual(
        expect.arrayContaining([
          `server_url = "${p.url}"`,
          `server_static_pk = "${serverKey}"`,
          `state_dir = "${at.state}"`,
          'log_level = "info"',
          "spool_cap_bytes = 67108864",
        ]),
      );
      expect(config.some((l) => l.startsWith("tls_pin"))).toBe(false);

      const unit = readFileSync(at.unit, "utf8").split("\n");
      expect(unit).toEqual(
        expect.arrayContaining([
          `User=${USER}`,
          `Group=${USER}`,
          `ExecStartPre=${at.lib}/guard ${at.state}`,
          `ExecStart=${at.state}/bin/current run --config ${at.config}`,
          "Restart=always",
          "RestartSec=5",
          "RestartPreventExitStatus=2 3 4",
          `ReadWritePaths=${at.state}`,
          "NoNewPrivileges=yes",
          "ProtectSystem=strict",
          "ProtectHome=yes",
          "PrivateTmp=yes",
          "ProtectKernelTunables=yes",
          "ProtectKernelModules=yes",
          "ProtectControlGroups=yes",
          "RestrictSUIDSGID=yes",
          "LockPersonality=yes",
          "RestrictNamespaces=yes",
          "SystemCallArchitectures=native",
          // No probe the agent runs needs a capability (icmp is the sidecar's): it gets none.
          "CapabilityBoundingSet=",
          "AmbientCapabilities=",
        ]),
      );
      execFileSync("systemd-analyze", ["verify", "--man=no", at.unit], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
      expect(h.calls()).toBe("systemctl daemon-reload\nsystemctl enable svc-agent.service\nsystemctl restart svc-agent.service\n");
      const agent = await admin.call<{ status: string }>("GET", `agents/${agentId}`);
      expect(agent.status).toBe("active");
    }, 120_000);

    it("run again over an older version, upgrades in place: same device key, no new enrollment, the old build kept as previous", async () => {
      const bin = join(at.state, "bin");
      writeFileSync(join(bin, "svc-agent-0.0.1"), readFileSync(join(bin, `svc-agent-${VERSION}`)), { mode: 0o755 });
      execFileSync("ln", ["-sfn", "svc-agent-0.0.1", join(bin, "current")]);
      writeFileSync(at.config, `${readFileSync(at.config, "utf8").replace('log_level = "info"', 'log_level = "debug"')}`);
      const before = (await admin.call<{ items: unknown[] }>("GET", "agents")).items.length;
      const run = await install(h);
      expect(run.code, run.output).toBe(0);
      expect(run.output).toContain(`upgraded the agent from 0.0.1 to ${VERSION}`);
      expect(run.output).toContain(`already enrolled with ${p.url} as agent ${agentId}: kept its device key and enrollment`);
      expect(run.output).not.toMatch(PAIRING);
      expect(readFileSync(join(at.state, "device.key"), "utf8")).toBe(deviceKey);
      expect(readlinkSync(join(bin, "current"))).toBe(`svc-agent-${VERSION}`);
      expect(readlinkSync(join(bin, "previous"))).toBe("svc-agent-0.0.1");
      // The operator's log level survives the rewrite.
      expect(readFileSync(at.config, "utf8")).toContain('log_level = "debug"');
      expect((await admin.call<{ items: unknown[] }>("GET", "agents")).items.length).toBe(before);

      const again = await install(h);
      expect(again.code, again.output).toBe(0);
      expect(again.output).toContain(`agent ${VERSION} was installed already: reinstalled it in place`);
      expect(readFileSync(join(at.state, "device.key"), "utf8")).toBe(deviceKey);
    }, 120_000);

    it("--foreground runs the installed runner as the agent's user, and the agent links", async () => {
      const run = await install(h, ["--foreground"], script, { until: new RegExp(`linked as agent ${agentId}`) });
      expect(run.output).toContain("service manager: none (--foreground)");
      expect(run.output).toContain(`running the agent in the foreground: runuser -u ${USER} -- ${at.lib}/run ${at.state} ${at.config}`);
      await until("online", async () => ((await admin.call<{ online: boolean }>("GET", `agents/${agentId}`)).online ? true : undefined));
      const exited = new Promise((r) => run.child.once("exit", r));
      process.kill(-run.child.pid!, "SIGTERM");
      await exited;
    }, 60_000);

    it("--uninstall stops the unit, tells the server, and removes the files and the user", async () => {
      // The foreground agent's processes have left (userdel refuses a user with processes).
      await until("the agent's processes gone", () => {
        try {
          execFileSync("pgrep", ["-u", USER], { stdio: "ignore" });
          return undefined;
        } catch {
          return true;
        }
      });
      const run = await install(h, ["--uninstall"]);
      expect(run.code, run.output).toBe(0);
      expect(run.output).toContain(`told the server: agent ${agentId} is uninstalled (revoked)`);
      expect(h.calls()).toContain("systemctl disable --now svc-agent.service\n");
      expect(h.calls().endsWith("systemctl daemon-reload\n")).toBe(true);
      for (const f of Object.values(at)) expect(existsSync(f), f).toBe(false);
      expect(userExists()).toBe(false);
      const agent = await admin.call<{ status: string; revoke_reason: string | null }>("GET", `agents/${agentId}`);
      expect(agent).toMatchObject({ status: "revoked", revoke_reason: "uninstalled by the agent" });
    }, 60_000);
  });

  it("with OpenRC on PATH writes a supervise-daemon service; --uninstall removes it all when the server cannot be reached", async () => {
    const h = host("openrc-host", ["rc-service", "rc-update", "openrc-run"]);
    const at = paths(h.root);
    const run = await install(h);
    expect(run.code, run.output).toBe(0);
    expect(run.output).toContain("service manager: OpenRC");
    const agentId = agentIdIn(run.output);
    const init = readFileSync(at.init, "utf8").split("\n");
    expect(init[0]).toBe("#!/sbin/openrc-run");
    expect(init).toEqual(
      expect.arrayContaining([
        "supervisor=supervise-daemon",
        `command="${at.lib}/run"`,
        `command_args="${at.state} ${at.config}"`,
        `command_user="${USER}:${USER}"`,
      ]),
    );
    expect(statSync(at.init).mode & 0o777).toBe(0o755);
    expect(existsSync(at.unit)).toBe(false);
    expect(h.calls()).toBe("rc-update add svc-agent default\nrc-service svc-agent restart\n");

    // The server moves away: nothing listens where the agent would tell it.
    const gone = "http://127.0.0.1:9";
    for (const file of [at.config, join(at.state, "server.json")]) writeFileSync(file, readFileSync(file, "utf8").replaceAll(p.url, gone));
    const removed = await install(h, ["--uninstall"]);
    expect(removed.code, removed.output).toBe(0);
    expect(removed.output).toContain(
      `could not tell the server that this agent is uninstalled; removing it anyway (revoke agent ${agentId}`,
    );
    expect(h.calls()).toContain("rc-service svc-agent stop\nrc-update del svc-agent default\n");
    for (const f of Object.values(at)) expect(existsSync(f), f).toBe(false);
    expect(userExists()).toBe(false);
    expect((await admin.call<{ status: string }>("GET", `agents/${agentId}`)).status).toBe("active");
  }, 120_000);

  it("with neither systemd running nor OpenRC, says so and prints the foreground command", async () => {
    const h = host("plain-host", []);
    const at = paths(h.root);
    const run = await install(h);
    expect(run.code, run.output).toBe(0);
    expect(run.output).toContain("service manager: none found (no running systemd, no OpenRC)");
    expect(run.output).toContain(`install-agent:   runuser -u ${USER} -- ${at.lib}/run ${at.state} ${at.config}\n`);
    expect(existsSync(at.unit) || existsSync(at.init)).toBe(false);
    const removed = await install(h, ["--uninstall"]);
    expect(removed.code, removed.output).toBe(0);
    expect(userExists()).toBe(false);
  }, 120_000);
});
