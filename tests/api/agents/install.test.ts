// The agent installer: the script itself (valid POSIX sh, public material only), GET /install-agent.sh,
// GET /agents/install-command, and a run of the served script against the server over loopback (with
// its paths moved into a temporary directory by SVC_AGENT_ROOT and `id`/`chown`/`runuser`/`systemctl`
// shimmed, so nothing needs root): it installs only a build whose release signature openssl verifies and
// whose SHA-256 matches.
import { execFile, execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readlinkSync, renameSync, rmSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type ServerType, serve } from "@hono/node-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AgentBinary } from "../../../shared/verbs/agents/binaries.ts";
import { installCommand, installScript, scriptSha256 } from "../../../shared/verbs/agents/install-script.ts";
import { agentCapabilities, PROBE_CAPABILITIES } from "../../../shared/agents/probe-capabilities.ts";
import { releaseKeyPem } from "../../../shared/agents/release.ts";
import { testReleaseKey } from "../../helpers/release-key.ts";
import { type AgentActors, createAgentActors } from "./support.ts";

const PK = "ab".repeat(32);
const sha = (bytes: string | Uint8Array) => createHash("sha256").update(bytes).digest("hex");
const fake = (version: string, os: string, arch: string): AgentBinary => ({
  version,
  os,
  arch,
  file_name: "svc-agent",
  size: 1,
  sha256: sha(`${version}${os}${arch}`),
});

/** `sh -n` (dash here) and `bash -n --posix` both parse it. */
function parses(script: string): void {
  for (const [shell, args] of [
    ["sh", ["-n"]],
    ["bash", ["--posix", "-n"]],
  ] as const)
    execFileSync(shell, [...args], { input: script, stdio: ["pipe", "pipe", "pipe"] });
}

describe("the script", () => {
  it("parses as POSIX sh and carries the server URL, its key and the SHA-256 of each Linux build", () => {
    const builds = [
      fake("2.0.0", "linux", "amd64"),
      fake("2.0.0", "darwin", "arm64"),
      fake("1.9.0", "linux", "arm64"),
      fake("1.0.0", "linux", "amd64"),
    ];
    const script = installScript({ serverUrl: "https://cp.example.net", serverPublicKey: PK, builds });
    parses(script);
    const lines = script.split("\n");
    expect(lines).toContain("SERVER_URL='https://cp.example.net'");
    expect(lines).toContain(`SERVER_STATIC_PK='${PK}'`);
    expect(lines).toContain(`  amd64) VERSION='2.0.0'; SHA256='${builds[0]!.sha256}'; SIGNATURE='' ;;`);
    expect(lines).toContain(`  arm64) VERSION='1.9.0'; SHA256='${builds[2]!.sha256}'; SIGNATURE='' ;;`);
    expect(lines).toContain("RELEASE_KEY_SPKI=''");
    expect(script).not.toContain(builds[1]!.sha256);
    expect(script).not.toContain(builds[3]!.sha256);
    expect(script).toContain("/api/v1/agents/binary/$VERSION/linux/$ARCH");
  });

  it("carries the release key (the PEM body openssl reads) and each build's signature", () => {
    const key = testReleaseKey();
    const b = fake("2.0.0", "linux", "amd64");
    const signature = key.signEntry("2.0.0", "linux", "amd64", b.sha256);
    const script = installScript({
      serverUrl: "https://cp.example.net",
      serverPublicKey: PK,
      builds: [{ ...b, signature }],
      releaseKey: key.hex,
    });
    parses(script);
    expect(script.split("\n")).toContain(`RELEASE_KEY_SPKI='${releaseKeyPem(key.hex).split("\n")[1]}'`);
    expect(script.split("\n")).toContain(`  amd64) VERSION='2.0.0'; SHA256='${b.sha256}'; SIGNATURE='${signature}' ;;`);
    // A signature that is not 64 bytes of base64 is not embedded (the script then refuses the build).
    expect(
      installScript({
        serverUrl: "https://cp.example.net",
        serverPublicKey: PK,
        builds: [{ ...b, signature: "x'; rm -rf /" }],
        releaseKey: key.hex,
      }),
    ).toContain("SIGNATURE=''");
  });

  it("parses without any build too (it then stops with a clear message), and refuses what it cannot quote", () => {
    parses(installScript({ serverUrl: "http://[fd00::1]:8080", serverPublicKey: PK, builds: [] }));
    expect(() => installScript({ serverUrl: "https://x.example/'; rm -rf /", serverPublicKey: PK, builds: [] })).toThrow();
    expect(() => installScript({ serverUrl: "https://x.example", serverPublicKey: "nothex", builds: [] })).toThrow();
  });

  it("carries a TLS pin only when the server gives one, and grants the service only what the agent's probes need", () => {
    const pin = `sha256/${"A".repeat(43)}=`;
    const withPin = installScript({ serverUrl: "https://cp.example.net", serverPublicKey: PK, builds: [], tlsPin: pin });
    parses(withPin);
    expect(withPin.split("\n")).toContain(`TLS_PIN='${pin}'`);
    expect(installScript({ serverUrl: "https://cp.example.net", serverPublicKey: PK, builds: [] }).split("\n")).toContain("TLS_PIN=''");
    expect(() => installScript({ serverUrl: "https://cp.example.net", serverPublicKey: PK, builds: [], tlsPin: "x'; rm -rf /" })).toThrow();
    // icmp, the one check type that needs a capability (CAP_NET_RAW), is run by the sidecar, not the agent.
    expect(PROBE_CAPABILITIES.icmp).toEqual(["CAP_NET_RAW"]);
    expect(agentCapabilities()).toEqual([]);
    expect(withPin.split("\n")).toContain("CAPABILITIES=''");
  });

  it("the command pipes to sh behind a public certificate, else checks the checksum first", () => {
    expect(installCommand("https://cp.example.net", "public", "f".repeat(64))).toBe(
      "curl -fsSLg 'https://cp.example.net/install-agent.sh' | sudo sh",
    );
    const selfSigned = installCommand("https://10.0.0.2:8443", "self_signed", "f".repeat(64));
    expect(selfSigned).toBe(
      `curl -fsSLgk 'https://10.0.0.2:8443/install-agent.sh' -o /tmp/svc-agent-install.sh && echo "${"f".repeat(64)}  /tmp/svc-agent-install.sh" | sha256sum -c - && sudo env SVC_AGENT_INSECURE_TLS=1 sh /tmp/svc-agent-install.sh`,
    );
    expect(installCommand("http://10.0.0.2:8080", "none", "e".repeat(64))).toMatch(
      /^curl -fsSLg 'http:\/\/10\.0\.0\.2:8080\/install-agent\.sh' -o .* \| sha256sum -c - && sudo sh \/tmp\/svc-agent-install\.sh$/,
    );
  });
});

describe("over HTTP", () => {
  let a: AgentActors;
  let dir: string;
  let server: ServerType;
  let base: string;
  const arch = process.arch === "arm64" ? "arm64" : "amd64";
  const agentStub = '#!/bin/sh\necho "$@" > "$(dirname "$0")/enroll-called"\n';
  const releaseKey = testReleaseKey();

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "agent-install-"));
    mkdirSync(join(dir, "builds", "3.1.0", "linux", arch), { recursive: true });
    writeFileSync(join(dir, "builds", "3.1.0", "linux", arch, "svc-agent"), agentStub);
    releaseKey.signBuild(join(dir, "builds"), "3.1.0", "linux", arch);
    releaseKey.publish(join(dir, "builds"));
    a = await createAgentActors({ AGENT_BINARY_DIR: join(dir, "builds") });
    server = serve({ fetch: a.t.app.fetch, port: 0, hostname: "127.0.0.1" });
    await new Promise((r) => server.once("listening", r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((r) => server.close(r));
    await a.t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("GET /install-agent.sh is public, never cached, and carries the current server key", async () => {
    const res = await a.req("GET", "/install-agent.sh");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/x-shellscript/);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const script = await res.text();
    expect(res.headers.get("x-checksum-sha256")).toBe(sha(script));
    parses(script);
    const status = await (await a.req("GET", "agents/server-key/status", a.admin)).json();
    expect(script.split("\n")).toContain(`SERVER_STATIC_PK='${status.public_key}'`);
    expect(script.split("\n")).toContain("SERVER_URL='http://localhost'");
    expect(script).toContain(`SHA256='${sha(agentStub)}'`);
    const openapi = await (await a.req("GET", "/api/openapi.json")).json();
    expect(Object.keys(openapi.paths).some((p) => p.includes("install-agent"))).toBe(false);
  });

  it("GET /agents/install-command answers the command and the checksum of the script served", async () => {
    const res = await a.req("GET", `agents/install-command?endpoint=${encodeURIComponent(base)}`, a.admin);
    expect(res.status).toBe(200);
    const body = await res.json();
    const served = await (await fetch(`${base}/install-agent.sh`)).text();
    expect(body).toEqual({
      tls_mode: "none",
      server_url: base,
      script_sha256: sha(served),
      command: installCommand(base, "none", sha(served)),
    });
    expect(scriptSha256(served)).toBe(body.script_sha256);

    const https = await (await a.req("GET", "agents/install-command?endpoint=https://cp.example.net/", a.admin)).json();
    expect(https).toMatchObject({
      tls_mode: "public",
      server_url: "https://cp.example.net",
      command: "curl -fsSLg 'https://cp.example.net/install-agent.sh' | sudo sh",
    });
    const selfSigned = await (
      await a.req("GET", "agents/install-command?endpoint=https://10.0.0.9:8443&tls_mode=self_signed", a.admin)
    ).json();
    expect(selfSigned.command).toContain("SVC_AGENT_INSECURE_TLS=1");
  });

  it("install-command refuses a bad endpoint or mode (422) and non-administrators (401/403)", async () => {
    for (const q of [
      "endpoint=ftp://x",
      "endpoint=https://x.example/?a=1",
      "endpoint=http://x.example&tls_mode=public",
      "tls_mode=lenient",
    ])
      expect((await a.req("GET", `agents/install-command?${q}`, a.admin)).status, q).toBe(422);
    expect((await a.req("GET", "agents/install-command")).status).toBe(401);
    for (const token of [a.viewer, a.editor]) expect((await a.req("GET", "agents/install-command", token)).status).toBe(403);
  });

  it("PUBLIC_URL, when set, is the URL the script carries", async () => {
    const other = await createAgentActors({ PUBLIC_URL: "https://agents.example.net/" });
    try {
      const script = await (await other.req("GET", "/install-agent.sh")).text();
      expect(script.split("\n")).toContain("SERVER_URL='https://agents.example.net'");
    } finally {
      await other.t.close();
    }
  });

  /**
   * Runs the served script as the install command would, with every path under `root` (SVC_AGENT_ROOT)
   * and the root-only tools shimmed: `id` says root (and that the agent's user exists), `chown` does
   * nothing, `runuser` runs the command as is, `systemctl` records its calls (systemd "runs": the root
   * has run/systemd/system). tests/e2e/agents/install-script.test.ts runs it for real, as root.
   */
  function runInstaller(script: string, root: string, args: string[] = []): Promise<{ code: number; stdout: string; stderr: string }> {
    const shims = join(root, "shims");
    mkdirSync(shims, { recursive: true });
    mkdirSync(join(root, "run", "systemd", "system"), { recursive: true });
    writeFileSync(join(shims, "id"), "#!/bin/sh\necho 0\n");
    writeFileSync(join(shims, "chown"), "#!/bin/sh\n");
    writeFileSync(join(shims, "runuser"), '#!/bin/sh\nwhile [ "$1" != -- ]; do shift; done\nshift\nexec "$@"\n');
    writeFileSync(join(shims, "systemctl"), `#!/bin/sh\necho "$@" >> "${join(root, "systemctl-calls")}"\n`);
    for (const f of ["id", "chown", "runuser", "systemctl"]) chmodSync(join(shims, f), 0o755);
    writeFileSync(join(root, "install.sh"), script);
    const env = { PATH: `${shims}:${process.env.PATH}`, SVC_AGENT_ROOT: root };
    return new Promise((resolve) => {
      execFile("sh", [join(root, "install.sh"), ...args], { env, timeout: 20_000 }, (err, stdout, stderr) =>
        resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
      );
    });
  }
  const installed = (root: string) => existsSync(join(root, "var", "lib", "svc-agent", "bin"));

  it("the served script downloads the build, checks it, lays it out, writes the config and the unit, and enrolls", async () => {
    const script = await (await fetch(`${base}/install-agent.sh`)).text();
    expect(script.split("\n")).toContain(`SERVER_URL='${base}'`);
    const root = mkdtempSync(join(dir, "host-"));
    const run = await runInstaller(script, root);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const bin = join(root, "var", "lib", "svc-agent", "bin");
    expect(readFileSync(join(bin, "svc-agent-3.1.0"), "utf8")).toBe(agentStub);
    expect(readlinkSync(join(bin, "current"))).toBe("svc-agent-3.1.0");
    expect(readlinkSync(join(root, "usr", "local", "bin", "svc-agent"))).toBe(join(bin, "current"));
    const pk = (await (await a.req("GET", "agents/server-key/status", a.admin)).json()).public_key;
    const config = join(root, "etc", "svc-agent", "agent.toml");
    expect(readFileSync(config, "utf8")).toBe(
      "# Written by install-agent.sh; a rerun rewrites it, keeping log_level, spool_cap_bytes and name.\n" +
        `server_url = "${base}"\nserver_static_pk = "${pk}"\nstate_dir = "${join(root, "var", "lib", "svc-agent")}"\n` +
        'log_level = "info"\nspool_cap_bytes = 67108864\n',
    );
    expect(readFileSync(join(bin, "enroll-called"), "utf8")).toBe(`enroll --config ${config}\n`);
    expect(readFileSync(join(root, "etc", "systemd", "system", "svc-agent.service"), "utf8")).toContain(
      `ExecStart=${bin}/current run --config ${config}\n`,
    );
    expect(readFileSync(join(root, "systemctl-calls"), "utf8")).toBe(
      "daemon-reload\nenable svc-agent.service\nrestart svc-agent.service\n",
    );
    expect(run.stdout).toContain("install-agent: service manager: systemd;");
  });

  it("refuses a download whose SHA-256 is not the script's, installing nothing", async () => {
    const script = await (await fetch(`${base}/install-agent.sh`)).text();
    const file = join(dir, "builds", "3.1.0", "linux", arch, "svc-agent");
    writeFileSync(file, "#!/bin/sh\necho tampered\n");
    try {
      const root = mkdtempSync(join(dir, "host-"));
      const run = await runInstaller(script, root);
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/^install-agent: the download's SHA-256 is [0-9a-f]{64}, expected [0-9a-f]{64}: not installed\n$/);
      expect(installed(root)).toBe(false);
      expect(existsSync(join(root, "etc", "svc-agent"))).toBe(false);
    } finally {
      writeFileSync(file, agentStub);
    }
  });
  it("refuses a build whose release signature is not the release key's, installing nothing", async () => {
    const sig = join(dir, "builds", "3.1.0", "linux", arch, "svc-agent.sig");
    const good = readFileSync(sig, "utf8");
    const other = testReleaseKey();
    writeFileSync(sig, other.signEntry("3.1.0", "linux", arch, sha(agentStub)));
    try {
      const script = await (await fetch(`${base}/install-agent.sh`)).text();
      const root = mkdtempSync(join(dir, "host-"));
      const run = await runInstaller(script, root);
      expect(run.code).toBe(1);
      expect(run.stderr).toBe(
        `install-agent: the release signature of agent 3.1.0 for linux/${arch} does not verify under the release key: not installed\n`,
      );
      expect(installed(root)).toBe(false);
      expect(existsSync(join(root, "etc", "svc-agent"))).toBe(false);
    } finally {
      writeFileSync(sig, good);
    }
  });

  it("without a release key on the server it refuses, unless told --insecure-skip-signature", async () => {
    const pub = join(dir, "builds", "release-key.pub");
    renameSync(pub, `${pub}.away`);
    try {
      const script = await (await fetch(`${base}/install-agent.sh`)).text();
      expect(script.split("\n")).toContain("RELEASE_KEY_SPKI=''");
      const refused = mkdtempSync(join(dir, "host-"));
      const run = await runInstaller(script, refused);
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(
        /^install-agent: this server has no agent release key \(AGENT_RELEASE_PUBLIC_KEY\), so the build cannot be verified: not installed/,
      );
      expect(installed(refused)).toBe(false);
      const skipped = mkdtempSync(join(dir, "host-"));
      const insecure = await runInstaller(script, skipped, ["--insecure-skip-signature"]);
      expect(insecure.code).toBe(0);
      expect(insecure.stderr).toMatch(/WARNING: --insecure-skip-signature/);
      expect(readFileSync(join(skipped, "var", "lib", "svc-agent", "bin", "svc-agent-3.1.0"), "utf8")).toBe(agentStub);
      expect((await runInstaller(script, mkdtempSync(join(dir, "host-")), ["--bogus"])).code).toBe(2);
    } finally {
      renameSync(`${pub}.away`, pub);
    }
  });
});
