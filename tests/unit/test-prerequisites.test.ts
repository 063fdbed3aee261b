// scripts/test-prerequisites.sh, which `npm test` runs before any test (its pretest): a list whose
// commands are all found passes quietly and installs nothing; run by a user other than root with
// packages missing, it fails with one line naming them and the command, before anything else. (As root
// it runs apt-get, which a test does not do to the machine.) And the list itself, which .ci/run no
// longer repeats.
import { spawnSync } from "node:child_process";
import { chmodSync, copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "../..");
const SCRIPT = join(ROOT, "scripts/test-prerequisites.sh");
const NOBODY = 65534;
const asRoot = process.getuid?.() === 0;
// Found on the runner's PATH once: the script itself may run under a PATH without it.
const SETPRIV = asRoot ? spawnSync("sh", ["-c", "command -v setpriv"], { encoding: "utf8" }).stdout.trim() : "";

// A directory every user can read: the script runs as `nobody` below.
const dir = mkdtempSync(join(tmpdir(), "test-prerequisites-"));
chmodSync(dir, 0o755);
copyFileSync(SCRIPT, join(dir, "test-prerequisites.sh"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function list(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text, { mode: 0o644 });
  return path;
}

/** Runs the script on `listPath` as a user other than root (setpriv to nobody when the runner is root). */
function runAsUser(listPath: string, env: NodeJS.ProcessEnv = { PATH: process.env.PATH }) {
  const argv = [join(dir, "test-prerequisites.sh"), listPath];
  const r = asRoot
    ? spawnSync(SETPRIV, [`--reuid=${NOBODY}`, `--regid=${NOBODY}`, "--clear-groups", "/bin/bash", ...argv], {
        env,
        encoding: "utf8",
        timeout: 20_000,
      })
    : spawnSync("/bin/bash", argv, { env, encoding: "utf8", timeout: 20_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr, error: r.error };
}

const MISSING = [
  "# a comment, and a blank line",
  "",
  "cp-test-missing-a   cp-test-no-such-command",
  "cp-test-missing-a   cp-test-no-such-command-either",
  "bash  /bin/bash",
  "coreutils  ls",
  "cp-test-missing-b   /nonexistent/cp-test-tool",
].join("\n");

describe("scripts/test-prerequisites.sh", () => {
  it("passes quietly when every command of the list is found (nothing to install)", () => {
    const r = runAsUser(list("present.txt", "bash bash\ncoreutils /bin/ls\n"));
    expect(r.error).toBeUndefined();
    expect(r).toMatchObject({ status: 0, stdout: "", stderr: "" });
  });

  it("as another user than root, fails with one line naming each missing package once and the command", () => {
    const r = runAsUser(list("missing.txt", MISSING));
    expect(r.status).toBe(1);
    expect(r.stdout).toBe("");
    const lines = r.stderr.trimEnd().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain("missing: cp-test-missing-a cp-test-missing-b.");
    expect(lines[0]).toContain(
      "sudo apt-get update && sudo apt-get install -y --no-install-recommends cp-test-missing-a cp-test-missing-b",
    );
    expect(lines[0]).not.toMatch(/bash|coreutils/);
  });

  it("needs nothing on PATH to say so (bash builtins only)", () => {
    const r = runAsUser(list("missing-no-path.txt", MISSING), { PATH: "/nonexistent" });
    expect(r.status).toBe(1);
    // ls is not found without a PATH; /bin/bash, named by its path, is.
    expect(r.stderr.trimEnd().split("\n")).toEqual([expect.stringContaining("missing: cp-test-missing-a coreutils cp-test-missing-b.")]);
  });

  it("fails, saying so, when the list cannot be read", () => {
    const r = runAsUser(join(dir, "no-such-list.txt"));
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/cannot read .*no-such-list\.txt/);
  });
});

describe("scripts/test-packages.txt and who reads it", () => {
  const entries = readFileSync(join(ROOT, "scripts/test-packages.txt"), "utf8")
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith("#"))
    .map((l) => l.split(/\s+/));

  it("gives each package with the command it provides", () => {
    for (const e of entries) expect(e, e.join(" ")).toHaveLength(2);
    const commands = Object.fromEntries(entries.map(([p, c]) => [c!, p!]));
    expect(commands).toMatchObject({
      promtool: "prometheus",
      snmpd: "snmpd",
      ping: "iputils-ping",
      nmap: "nmap",
      python3: "python3",
      pebble: "pebble",
      "pebble-challtestsrv": "pebble",
      named: "bind9",
      "/usr/bin/chromium": "chromium",
      ip: "iproute2",
    });
  });

  it("is what npm test checks first, and .ci/run only calls npm test", () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> };
    expect(pkg.scripts.pretest).toMatch(/^bash scripts\/test-prerequisites\.sh && /);
    const ci = readFileSync(join(ROOT, ".ci/run"), "utf8");
    expect(ci).not.toMatch(/apt-get|command -v/);
    expect(ci).toMatch(/^\. scripts\/node24\.sh && npm ci --no-audit --no-fund && npm test$/m);
  });
});
