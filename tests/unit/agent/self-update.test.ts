// The agent's side of self-update (agent/update/, docs/adr/0431-*) on a temporary state directory: which
// offers it refuses and why, the bin/ steps (trial, rollback, prune) leaving what the sh guard expects,
// a trial ended by a link or rolled back at its deadline, the reports after a rollback, and a download
// bounded in size (from a loopback server of the test's own).
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { BinDir } from "../../../agent/update/bin-dir.ts";
import { buildUrl, downloadBuild } from "../../../agent/update/download.ts";
import { checkOffer, type OfferContext } from "../../../agent/update/offer.ts";
import { type UpdateStatus, Updater } from "../../../agent/update/updater.ts";
import { Agent, EXIT } from "../../../agent/agent.ts";
import { silentLog } from "../../../agent/log.ts";
import { AGENT_VERSION } from "../../../agent/payloads.ts";
import { formatMarker, parseMarker, versionedBinary } from "../../../shared/agents/update-layout.ts";

const SHA = "ab".repeat(32);
const KEY = "cd".repeat(32);
const CTX: OfferContext = { version: "1.0.0", os: "linux", arch: "amd64", releaseKey: KEY, installed: true, inProgress: undefined };
const OFFER = { version: "1.1.0", sha256: SHA, signature: "c2ln", os: "linux", arch: "amd64" };

describe("an update offer", () => {
  const refusal = (payload: Record<string, unknown>, ctx: Partial<OfferContext> = {}) => {
    const check = checkOffer(payload, { ...CTX, ...ctx });
    return check.ok ? "accepted" : `${check.version}: ${check.error}`;
  };

  it("is taken when this installed, keyed agent can verify and run it", () => {
    expect(checkOffer(OFFER, CTX)).toEqual({ ok: true, offer: OFFER });
  });

  it("is refused, saying why, for anything else", () => {
    expect(refusal({ ...OFFER, arch: "arm64" })).toBe("1.1.0: the build is for linux/arm64; this agent runs on linux/amd64");
    expect(refusal({ ...OFFER, os: undefined })).toBe("1.1.0: the build is for ?/amd64; this agent runs on linux/amd64");
    expect(refusal({ ...OFFER, version: "../../etc" })).toBe('../../etc: "../../etc" is not a version (letters, digits, . _ + -)');
    expect(refusal({ ...OFFER, version: 7 })).toBe('unknown: "unknown" is not a version (letters, digits, . _ + -)');
    expect(refusal({ ...OFFER, version: "1.0.0" })).toBe("1.0.0: this agent runs version 1.0.0 already");
    expect(refusal(OFFER, { inProgress: "1.0.5" })).toBe("1.1.0: an update to version 1.0.5 is in progress");
    expect(refusal({ ...OFFER, sha256: "XYZ" })).toBe("1.1.0: the offer's sha256 is not 64 lowercase hex characters");
    expect(refusal({ ...OFFER, signature: null })).toMatch(/^1\.1\.0: the offer carries no release signature/);
    expect(refusal(OFFER, { releaseKey: undefined })).toMatch(/built without a release public key/);
    expect(refusal(OFFER, { installed: false })).toBe("1.1.0: not installed by install-agent.sh; cannot replace itself");
  });
});

let root = "";
let state = "";
let bin: BinDir;
const file = (name: string) => join(state, "bin", name);
const link = (name: string) => readlinkSync(file(name));

/** The installer's layout: version `v` installed and current. */
function installed(...versions: string[]): void {
  mkdirSync(join(state, "bin"), { recursive: true });
  for (const v of versions) writeFileSync(file(versionedBinary(v)), `#!/bin/sh\necho ${v}\n`, { mode: 0o755 });
  symlinkSync(versionedBinary(versions[0]!), file("current"));
}

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "self-update-"));
  state = join(root, "state");
  bin = new BinDir(state);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe("bin/", () => {
  it("knows whether the agent runs from bin/current", () => {
    installed("1.0.0");
    expect(bin.runsFrom(file(versionedBinary("1.0.0")))).toBe(true);
    expect(bin.runsFrom(process.execPath)).toBe(false);
    expect(new BinDir(join(root, "elsewhere")).runsFrom(process.execPath)).toBe(false);
  });

  it("puts a new version on trial, rolls it back as the guard does, and prunes what nothing points at", () => {
    installed("1.0.0", "1.1.0", "0.9.0");
    writeFileSync(file("trial-starts"), "start\n");
    bin.startTrial("1.1.0", "1.0.0");
    expect([link("current"), link("previous")]).toEqual([versionedBinary("1.1.0"), versionedBinary("1.0.0")]);
    expect(parseMarker(readFileSync(file("trial"), "utf8"))).toEqual({ version: "1.1.0", from: "1.0.0" });
    expect(existsSync(file("trial-starts"))).toBe(false);
    expect(() => bin.startTrial("2.0.0", "1.1.0")).toThrow(/svc-agent-2\.0\.0 is missing/);

    bin.rollBack("1.1.0", "did not link within 5 s");
    expect(link("current")).toBe(versionedBinary("1.0.0"));
    expect(readFileSync(file("rolled-back"), "utf8")).toBe("version=1.1.0\nerror=did not link within 5 s\n");
    expect(existsSync(file("trial"))).toBe(false);

    writeFileSync(file(`${versionedBinary("1.2.0")}.download`), "partial");
    expect(bin.prune().sort()).toEqual([versionedBinary("0.9.0"), versionedBinary("1.1.0"), `${versionedBinary("1.2.0")}.download`]);
    expect(readdirSync(join(state, "bin")).sort()).toEqual(["current", "previous", "rolled-back", versionedBinary("1.0.0")]);
  });

  it("cannot roll back without a previous version", () => {
    installed("1.0.0");
    expect(() => bin.rollBack("1.0.0", "x")).toThrow(/no .*previous to restore/);
    expect(link("current")).toBe(versionedBinary("1.0.0"));
  });
});

describe("the updater", () => {
  let restarts: string[] = [];
  const updater = (version: string, linkDeadlineS = 60) =>
    new Updater({
      stateDir: state,
      serverUrl: "http://127.0.0.1:9",
      version,
      os: "linux",
      arch: "amd64",
      releaseKey: KEY,
      execPath: file(versionedBinary(version)),
      linkDeadlineS,
      log: silentLog,
      restart: (m) => restarts.push(m),
    });
  const sink = (up = true) => {
    const sent: UpdateStatus[] = [];
    return { sent, send: (s: UpdateStatus) => up && sent.push(s) > 0 };
  };
  beforeEach(() => {
    restarts = [];
  });

  it("ends a trial of its own version once linked, reports succeeded and prunes", () => {
    installed("1.0.0", "1.1.0", "0.9.0");
    bin.startTrial("1.1.0", "1.0.0");
    writeFileSync(file("trial-starts"), "start\n");
    const u = updater("1.1.0");
    u.start();
    // A link that drops before the report: it goes on the next one.
    const down = sink(false);
    u.linked(down.send);
    const up = sink();
    u.linked(up.send);
    u.stop();
    expect(up.sent).toEqual([{ version: "1.1.0", phase: "succeeded" }]);
    expect(readdirSync(join(state, "bin")).sort()).toEqual(["current", "previous", versionedBinary("1.0.0"), versionedBinary("1.1.0")]);
    expect(restarts).toEqual([]);
  });

  it("rolls itself back when it does not link within its deadline", async () => {
    installed("1.0.0", "1.1.0");
    bin.startTrial("1.1.0", "1.0.0");
    const u = updater("1.1.0", 1);
    u.start();
    await expect.poll(() => restarts, { timeout: 5000 }).toEqual(["rolled back: version 1.1.0 did not link within 1 s"]);
    expect(link("current")).toBe(versionedBinary("1.0.0"));
    expect(parseMarker(readFileSync(file("rolled-back"), "utf8"))).toEqual({ version: "1.1.0", error: "did not link within 1 s" });

    // The restored version reports it once linked, and ignores the offer of that version the server still had pending.
    const restored = updater("1.0.0");
    restored.start();
    const { sent, send } = sink();
    restored.linked(send);
    restored.offer({ ...OFFER }, send);
    expect(sent).toEqual([{ version: "1.1.0", phase: "rolled_back", error: "did not link within 1 s" }]);
    expect(existsSync(file("rolled-back"))).toBe(false);
    // Offered again, it is tried again (and fails here: nothing serves it).
    restored.offer({ ...OFFER }, send);
    await expect.poll(() => sent.length).toBe(3);
    expect(sent[1]).toEqual({ version: "1.1.0", phase: "started" });
    expect(sent[2]).toMatchObject({ version: "1.1.0", phase: "failed", error: expect.stringMatching(/cannot download http/) });
    expect(link("current")).toBe(versionedBinary("1.0.0"));
    expect(readdirSync(join(state, "bin")).filter((n) => n.endsWith(".download"))).toEqual([]);
  });

  it("leaves a trial that names another version alone", () => {
    installed("1.0.0");
    writeFileSync(file("trial"), formatMarker({ version: "2.0.0", from: "1.0.0" }));
    const u = updater("1.0.0");
    u.start();
    const { sent, send } = sink();
    u.linked(send);
    expect(sent).toEqual([]);
    expect(existsSync(file("trial"))).toBe(true);
    // And refuses another update while that trial is open.
    u.offer({ ...OFFER }, send);
    expect(sent).toEqual([{ version: "1.1.0", phase: "failed", error: "an update to version 2.0.0 is in progress" }]);
  });
});

describe("the agent on trial", () => {
  it("that cannot link by its deadline restores the previous version and exits 75 to be started again", async () => {
    installed("1.0.0", AGENT_VERSION);
    bin.startTrial(AGENT_VERSION, "1.0.0");
    // Nothing listens on port 9: it never links.
    const agent = new Agent({
      serverUrl: "http://127.0.0.1:9",
      serverKey: KEY,
      stateDir: state,
      updateLinkDeadlineS: 1,
      backoff: { minMs: 50, maxMs: 200 },
    });
    expect(await agent.run()).toEqual({
      code: EXIT.restart,
      reason: "restart",
      message: `rolled back: version ${AGENT_VERSION} did not link within 1 s`,
    });
    expect(EXIT.restart).toBe(75);
    expect(link("current")).toBe(versionedBinary("1.0.0"));
    expect(parseMarker(readFileSync(file("rolled-back"), "utf8"))).toEqual({ version: AGENT_VERSION, error: "did not link within 1 s" });
  });
});

describe("the download", () => {
  let server: Server;
  let url = "";
  let body: Buffer = Buffer.alloc(0);
  beforeEach(async () => {
    server = createServer((req, res) => {
      if (req.url?.startsWith("/api/v1/agents/binary/3.0.0/")) return res.writeHead(302, { location: "http://127.0.0.1:9/x" }).end();
      if (!req.url?.startsWith("/api/v1/agents/binary/1.1.0/linux/amd64")) return res.writeHead(404).end("not found");
      res.writeHead(200, { "content-type": "application/octet-stream" }).end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterEach(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("asks the server it talks to, by the build's path, with its segments encoded", () => {
    expect(buildUrl("https://cp.example:8443/ignored", { version: "1.1.0+b/1", os: "linux", arch: "amd64" }).toString()).toBe(
      "https://cp.example:8443/api/v1/agents/binary/1.1.0%2Bb%2F1/linux/amd64",
    );
  });

  it("writes the bytes to a file that is not executable, bounded in size", async () => {
    const dest = join(root, "dl");
    body = Buffer.alloc(4096, 7);
    expect(await downloadBuild(url, { version: "1.1.0", os: "linux", arch: "amd64" }, dest)).toBe(4096);
    expect(readFileSync(dest).equals(body)).toBe(true);
    expect(statSync(dest).mode & 0o777).toBe(0o600);
    await expect(downloadBuild(url, { version: "1.1.0", os: "linux", arch: "amd64" }, dest, { maxBytes: 1000 })).rejects.toThrow(
      /more than the 1000 (bytes )?accepted/,
    );
    expect(existsSync(dest)).toBe(false);
    await expect(downloadBuild(url, { version: "2.0.0", os: "linux", arch: "amd64" }, dest)).rejects.toThrow(/answered 404/);
    // A redirect would take it to another host: refused.
    await expect(downloadBuild(url, { version: "3.0.0", os: "linux", arch: "amd64" }, dest)).rejects.toThrow(/redirect/);
    expect(existsSync(dest)).toBe(false);
  });
});
