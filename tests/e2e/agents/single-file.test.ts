// Issue 35 items 1-2: `npm run build:agent` (scripts/build-agent.ts) with a release key made for the test.
// The build lays out <version>/<os>/<arch>/svc-agent with SHA256SUMS (checked by `sha256sum -c`) and
// Ed25519 signatures (checked by openssl, as the install script does, and by verifyBuild); a second
// build of the same commit has the same bytes. Then the linux-x64 executable, copied to a temporary
// directory and run as a separate unprivileged user whose PATH has no `node`, enrolls against the product
// started as the README says, is approved, links and sends telemetry readable through the API.
// The official Node binaries are cached under node_modules/.cache, so only the first run downloads them.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { chmodSync, chownSync, copyFileSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifyBuild } from "../../../agent/release.ts";
import { releaseEntry, releaseKeyPem } from "../../../shared/agents/release.ts";
import { killAll, type Product, REPO_ROOT } from "../helpers.ts";
import { type Admin, bootstrapAdmin, createTestDatabase, startOn, TEST_GRANTS, type TestDatabase, tempDir, until } from "./support.ts";

const VERSION = readFileSync(join(REPO_ROOT, "VERSION"), "utf8").trim();
const AGENT_USER = "svc-agent-test";
const IS_ROOT = process.getuid?.() === 0;
const work = tempDir("agent-build-");
const out = join(work.dir, "builds");
const again = join(work.dir, "builds-again");
const keyFile = join(work.dir, "keys", "release-key.pem");
let publicKey = "";

function runBuild(args: string[]): string {
  const env = { ...process.env };
  delete env.NODE_OPTIONS;
  delete env.VITEST;
  delete env.AGENT_RELEASE_KEY;
  return execFileSync(process.execPath, ["scripts/build-agent.ts", ...args], {
    cwd: REPO_ROOT,
    env,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    timeout: 280_000,
  });
}

beforeAll(() => {
  runBuild(["release-key", "--out", keyFile]);
  publicKey = readFileSync(`${keyFile}.pub`, "utf8").trim();
  runBuild(["--key", keyFile, "--out", out]);
}, 300_000);

afterAll(() => work.remove());

describe("npm run build:agent", () => {
  it("makes the release key with mode 0600 and refuses to put one inside the repository", () => {
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    expect(publicKey).toMatch(/^[0-9a-f]{64}$/);
    expect(() => runBuild(["release-key", "--out", join(REPO_ROOT, ".tmp", "release-key.pem")])).toThrow(/inside the repository/);
    expect(() => runBuild(["release-key", "--out", keyFile])).toThrow(/exists: it is not replaced/);
  });

  it("lays out each target with its SHA-256 in SHA256SUMS and valid signatures", async () => {
    expect(readFileSync(join(out, "release-key.pub"), "utf8").trim()).toBe(publicKey);
    const sums = readFileSync(join(out, VERSION, "SHA256SUMS"), "utf8");
    const lines = sums.trimEnd().split("\n");
    expect(lines.map((l) => l.slice(66))).toEqual([`${VERSION}/linux/amd64/svc-agent`, `${VERSION}/linux/arm64/svc-agent`]);
    // The checksums are the files' (sha256sum -c, from the build directory as the entries' paths say).
    expect(execFileSync("sha256sum", ["-c", `${VERSION}/SHA256SUMS`], { cwd: out, encoding: "utf8" })).toBe(
      `${VERSION}/linux/amd64/svc-agent: OK\n${VERSION}/linux/arm64/svc-agent: OK\n`,
    );
    // openssl verifies the SHA256SUMS signature with the PEM the install script embeds.
    writeFileSync(join(work.dir, "release.pem"), releaseKeyPem(publicKey));
    writeFileSync(join(work.dir, "sums.sig"), Buffer.from(readFileSync(join(out, VERSION, "SHA256SUMS.sig"), "utf8"), "base64"));
    const openssl = [
      "pkeyutl",
      "-verify",
      "-pubin",
      "-inkey",
      join(work.dir, "release.pem"),
      "-rawin",
      "-in",
      join(out, VERSION, "SHA256SUMS"),
      "-sigfile",
      join(work.dir, "sums.sig"),
    ];
    expect(execFileSync("openssl", openssl, { encoding: "utf8" })).toMatch(/Signature Verified Successfully/);
    for (const line of lines) {
      const [sha256, path] = line.split("  ") as [string, string];
      const [, os, arch] = path.split("/") as [string, string, string];
      const file = join(out, path);
      expect(statSync(file).mode & 0o111).toBe(0o111);
      expect(releaseEntry({ version: VERSION, os, arch, sha256 })).toBe(`${line}\n`);
      await verifyBuild(file, sha256, readFileSync(`${file}.sig`, "utf8"), publicKey, { version: VERSION, os, arch });
    }
    // The release public key is embedded in each executable, and its version.
    for (const arch of ["amd64", "arm64"])
      expect(readFileSync(join(out, VERSION, "linux", arch, "svc-agent")).includes(`"${publicKey}"`), arch).toBe(true);
    // The x64 executable is an ELF for x86-64, the arm64 one for AArch64 (built here without running it).
    expect(readFileSync(join(out, VERSION, "linux", "amd64", "svc-agent")).readUInt16LE(18)).toBe(62);
    expect(readFileSync(join(out, VERSION, "linux", "arm64", "svc-agent")).readUInt16LE(18)).toBe(183);
  });

  it("is reproducible: the same commit builds the same bytes", () => {
    runBuild(["--key", keyFile, "--out", again]);
    expect(readFileSync(join(again, VERSION, "SHA256SUMS"), "utf8")).toBe(readFileSync(join(out, VERSION, "SHA256SUMS"), "utf8"));
    // Ed25519 signatures are deterministic too.
    expect(readFileSync(join(again, VERSION, "SHA256SUMS.sig"), "utf8")).toBe(readFileSync(join(out, VERSION, "SHA256SUMS.sig"), "utf8"));
  }, 280_000);
});

describe.skipIf(!IS_ROOT)(
  `the linux-x64 executable as user ${AGENT_USER}, no node on its PATH (skipped unless the tests run as root: it needs useradd and runuser)`,
  () => {
    let db: TestDatabase;
    let p: Product;
    let admin: Admin;
    let child: ChildProcess | undefined;
    let output = "";
    const host = join(work.dir, "host");

    beforeAll(async () => {
      db = await createTestDatabase();
      p = await startOn(db);
      admin = await bootstrapAdmin(p);
      try {
        execFileSync("id", ["-u", AGENT_USER], { stdio: "ignore" });
      } catch {
        execFileSync("useradd", ["--system", "--no-create-home", "--shell", "/usr/sbin/nologin", AGENT_USER]);
      }
    }, 90_000);

    afterAll(async () => {
      if (child?.pid && child.exitCode === null) {
        try {
          process.kill(-child.pid, "SIGKILL");
        } catch {
          // gone already
        }
      }
      await killAll();
      await db?.drop();
    });

    it("enrolls with a pairing code, links once approved and sends telemetry", async () => {
      // A directory of its own, and an empty one as its whole PATH.
      mkdirSync(join(host, "empty-path"), { recursive: true });
      copyFileSync(join(out, VERSION, "linux", "amd64", "svc-agent"), join(host, "svc-agent"));
      chmodSync(join(host, "svc-agent"), 0o755);
      const uid = Number(execFileSync("id", ["-u", AGENT_USER], { encoding: "utf8" }).trim());
      const gid = Number(execFileSync("id", ["-g", AGENT_USER], { encoding: "utf8" }).trim());
      chmodSync(work.dir, 0o755);
      chownSync(host, uid, gid);
      const path = join(host, "empty-path");
      expect(existsSync(join(path, "node"))).toBe(false);
      const args = [
        "-u",
        AGENT_USER,
        "--",
        "/usr/bin/env",
        "-i",
        `PATH=${path}`,
        `HOME=${host}`,
        join(host, "svc-agent"),
        "--server",
        p.url,
        "--state-dir",
        join(host, "state"),
        "--name",
        "single-file",
      ];
      child = spawn("/usr/sbin/runuser", args, { cwd: host, detached: true, stdio: ["ignore", "pipe", "pipe"] });
      child.stdout!.on("data", (d: Buffer) => (output += d.toString()));
      child.stderr!.on("data", (d: Buffer) => (output += d.toString()));
      const log = () => output;

      const code = await until(
        "the pairing code",
        () => /PAIRING CODE:\s+([0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4})/.exec(output)?.[1],
        30_000,
        log,
        100,
      );
      // The state it wrote belongs to the agent's user, the device key readable by it alone.
      const key = statSync(join(host, "state", "device.key"));
      expect([key.uid, key.mode & 0o777]).toEqual([uid, 0o600]);
      const found = await admin.call<{ agent_id: number }>("POST", "agents/pairing/lookup", { code });
      await admin.call("POST", `agents/${found.agent_id}/approve`, { host_link_action: "create", capabilities: TEST_GRANTS });
      await until("the link", () => (output.includes(`linked as agent ${found.agent_id}`) ? true : undefined), 20_000, log, 100);

      type Telemetry = { latest: null | { sample_id: string; status: string; summary: Record<string, number | null> } };
      const t = await until(
        "telemetry",
        async () => (await admin.call<Telemetry>("GET", `agents/${found.agent_id}/telemetry`)).latest ?? undefined,
        20_000,
        log,
        250,
      );
      expect(t.sample_id).toMatch(/^[0-9a-f]{32}$/);
      expect(t.summary.mem_pct).toBeGreaterThan(0);
      // It reports the version it was built as, and the architecture in the layout's names.
      const agent = await admin.call<{ online: boolean; arch: string | null; agent_version: string | null }>(
        "GET",
        `agents/${found.agent_id}`,
      );
      expect(agent).toMatchObject({ online: true, arch: "amd64", agent_version: VERSION });
      expect(output).not.toMatch(/ExperimentalWarning|single executable/i);
    }, 90_000);
  },
);
