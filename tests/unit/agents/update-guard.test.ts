// The self-update rollback scripts (shared/agents/update-layout.ts) run by /bin/sh on a temporary state
// directory whose "versions" are small sh programs that record that they ran: the guard counts a trial
// version's starts and restores the previous one after MAX_TRIAL_STARTS; the runner restarts the agent
// the way the systemd unit does and stops on a final exit code. Both pass shellcheck.
import { execFileSync, spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  BIN_DIR,
  EXIT_RESTART,
  formatMarker,
  guardScript,
  MAX_TRIAL_STARTS,
  parseMarker,
  runnerScript,
  versionedBinary,
} from "../../../shared/agents/update-layout.ts";

let root = "";
let state = "";
let bin = "";
let guard = "";
let runner = "";

/** A fake version: appends its name to runs.log, then exits with `code`. */
function version(name: string, code: number): void {
  const file = join(bin, versionedBinary(name));
  writeFileSync(file, `#!/bin/sh\necho ${name} >>"${root}/runs.log"\nexit ${code}\n`);
  chmodSync(file, 0o755);
}
const runs = () => (existsSync(join(root, "runs.log")) ? readFileSync(join(root, "runs.log"), "utf8").trim().split("\n") : []);
const runGuard = () => execFileSync("/bin/sh", [guard, state], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "update-guard-"));
  state = join(root, "state");
  bin = join(state, BIN_DIR);
  mkdirSync(bin, { recursive: true });
  guard = join(root, "guard");
  runner = join(root, "run");
  writeFileSync(guard, guardScript(), { mode: 0o755 });
  writeFileSync(runner, runnerScript(), { mode: 0o755 });
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** Version `from` was running and `to` is on trial, as agent/update leaves it before restarting. */
function trial(from: string, to: string): void {
  symlinkSync(versionedBinary(from), join(bin, "previous"));
  symlinkSync(versionedBinary(to), join(bin, "current"));
  writeFileSync(join(bin, "trial"), formatMarker({ version: to, from }));
}

describe("the update guard", () => {
  it("does nothing outside a trial", () => {
    version("1.0.0", 0);
    symlinkSync(versionedBinary("1.0.0"), join(bin, "current"));
    runGuard();
    expect(readlinkSync(join(bin, "current"))).toBe(versionedBinary("1.0.0"));
    expect(existsSync(join(bin, "trial-starts"))).toBe(false);
  });

  it("lets a trial version start MAX_TRIAL_STARTS times, then restores the previous version", () => {
    trial("1.0.0", "1.1.0");
    for (let i = 1; i <= MAX_TRIAL_STARTS; i++) {
      runGuard();
      expect(readlinkSync(join(bin, "current"))).toBe(versionedBinary("1.1.0"));
      expect(readFileSync(join(bin, "trial-starts"), "utf8").trim().split("\n")).toHaveLength(i);
    }
    runGuard();
    expect(readlinkSync(join(bin, "current"))).toBe(versionedBinary("1.0.0"));
    expect(existsSync(join(bin, "trial"))).toBe(false);
    expect(existsSync(join(bin, "trial-starts"))).toBe(false);
    const marker = parseMarker(readFileSync(join(bin, "rolled-back"), "utf8"));
    expect(marker.version).toBe("1.1.0");
    expect(marker.error).toMatch(/exited 2 times without linking/);
  });

  it("ends a trial it cannot roll back (no previous version) without touching current", () => {
    symlinkSync(versionedBinary("1.1.0"), join(bin, "current"));
    writeFileSync(join(bin, "trial"), formatMarker({ version: "1.1.0", from: "" }));
    for (let i = 0; i <= MAX_TRIAL_STARTS; i++) runGuard();
    expect(readlinkSync(join(bin, "current"))).toBe(versionedBinary("1.1.0"));
    expect(existsSync(join(bin, "trial"))).toBe(false);
    expect(existsSync(join(bin, "rolled-back"))).toBe(false);
  });
});

describe("the runner", () => {
  const run = () =>
    spawnSync("/bin/sh", [runner, state, join(root, "agent.toml"), guard], {
      encoding: "utf8",
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", RESTART_SEC: "0" },
      timeout: 20_000,
    });

  it("starts a version that exits at once again until the guard restores the previous one", () => {
    version("1.0.0", 0); // the restored version runs, then stops (exit 0: the runner ends)
    version("1.1.0", 1); // the new version exits at once
    trial("1.0.0", "1.1.0");
    const r = run();
    expect(r.status).toBe(0);
    expect(runs()).toEqual([...Array(MAX_TRIAL_STARTS).fill("1.1.0"), "1.0.0"]);
    expect(parseMarker(readFileSync(join(bin, "rolled-back"), "utf8")).version).toBe("1.1.0");
  });

  it(`restarts at once after exit ${EXIT_RESTART} and stops after a final exit code`, () => {
    // 1.0.0 asks for a restart (as after swapping in an update), then is "revoked" (exit 3).
    const file = join(bin, versionedBinary("1.0.0"));
    writeFileSync(
      file,
      `#!/bin/sh\necho 1.0.0 >>"${root}/runs.log"\n[ -f "${root}/once" ] && exit 3\ntouch "${root}/once"\nexit ${EXIT_RESTART}\n`,
    );
    chmodSync(file, 0o755);
    symlinkSync(versionedBinary("1.0.0"), join(bin, "current"));
    const r = run();
    expect(r.status).toBe(3);
    expect(r.stderr).toMatch(/exited 3; not restarting/);
    expect(runs()).toEqual(["1.0.0", "1.0.0"]);
  });

  it("stops the agent and itself on SIGTERM", async () => {
    const file = join(bin, versionedBinary("1.0.0"));
    writeFileSync(file, `#!/bin/sh\necho 1.0.0 >>"${root}/runs.log"\ntrap 'exit 0' TERM\nwhile :; do sleep 0.05; done\n`);
    chmodSync(file, 0o755);
    symlinkSync(versionedBinary("1.0.0"), join(bin, "current"));
    const { spawn } = await import("node:child_process");
    const child = spawn("/bin/sh", [runner, state, join(root, "agent.toml"), guard], {
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin" },
    });
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    for (let i = 0; i < 200 && runs().length === 0; i++) await new Promise((r) => setTimeout(r, 25));
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
    expect(runs()).toEqual(["1.0.0"]);
  });
});

describe("shellcheck", () => {
  it.each([
    ["guard", guardScript],
    ["runner", runnerScript],
  ])("finds nothing in the %s", (_name, script) => {
    const r = spawnSync("shellcheck", ["--shell=sh", "-"], { input: script(), encoding: "utf8" });
    expect(r.error).toBeUndefined();
    expect(r.stdout).toBe("");
    expect(r.status).toBe(0);
  });
});
