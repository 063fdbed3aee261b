// Agent builds under AGENT_BINARY_DIR: GET /agents/binary/{version}/{os_name}/{arch} (public),
// POST /agents/{id}/update (only signed builds, only with a release key), and what GET /capabilities says about them.
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testReleaseKey } from "../../helpers/release-key.ts";
import { type AgentActors, createAgentActors, eventually } from "./support.ts";

let a: AgentActors;
let dir: string;
const builds: Record<string, Uint8Array> = {};
const releaseKey = testReleaseKey();
const signatures: Record<string, string> = {};

function build(version: string, os: string, arch: string, file = "svc-agent"): void {
  const bytes = new TextEncoder().encode(`#!agent ${version} ${os}/${arch}\n${"x".repeat(1000)}`);
  mkdirSync(join(dir, version, os, arch), { recursive: true });
  writeFileSync(join(dir, version, os, arch, file), bytes);
  builds[`${version}/${os}/${arch}`] = bytes;
  signatures[`${version}/${os}/${arch}`] = releaseKey.signBuild(dir, version, os, arch, file);
}
const sha = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "agent-builds-"));
  build("1.2.0", "linux", "amd64");
  build("1.10.0", "linux", "amd64");
  build("1.10.0", "linux", "arm64", "agent-arm64");
  writeFileSync(join(dir, "1.10.0", "linux", "amd64", "svc-agent.sha256"), "ignored companion");
  // Two candidates: ambiguous, so not a build.
  build("1.11.0", "linux", "amd64", "one");
  writeFileSync(join(dir, "1.11.0", "linux", "amd64", "two"), "second file");
  releaseKey.publish(dir);
  a = await createAgentActors({ AGENT_BINARY_DIR: dir });
});
afterAll(async () => {
  await a.t.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("GET /agents/binary/{version}/{os_name}/{arch}", () => {
  it("streams the build to anyone, with its SHA-256 in the headers", async () => {
    const res = await a.req("GET", "agents/binary/1.10.0/linux/arm64");
    expect(res.status).toBe(200);
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect(bytes).toEqual(builds["1.10.0/linux/arm64"]);
    const hex = sha(bytes);
    expect(res.headers.get("content-type")).toBe("application/octet-stream");
    expect(res.headers.get("content-length")).toBe(String(bytes.length));
    expect(res.headers.get("x-checksum-sha256")).toBe(hex);
    expect(res.headers.get("repr-digest")).toBe(`sha-256=:${Buffer.from(hex, "hex").toString("base64")}:`);
    expect(res.headers.get("etag")).toBe(`"${hex}"`);
  });

  it("404 'Binary not found' for a missing or ambiguous build; 422 for segments that are not names", async () => {
    for (const path of ["9.9.9/linux/amd64", "1.2.0/linux/arm64", "1.2.0/darwin/amd64", "1.11.0/linux/amd64"]) {
      const res = await a.req("GET", `agents/binary/${path}`);
      expect(res.status, path).toBe(404);
      expect((await res.json()).detail, path).toMatch(/^Binary not found/);
    }
    for (const path of [
      "..%2F..%2Fetc/linux/amd64",
      "1.2.0/..%2F..%2F/amd64",
      "1.2.0/linux/amd64%2F..",
      "1..2/linux/amd64",
      "1.2.0/Linux/amd64",
    ]) {
      const res = await a.req("GET", `agents/binary/${path}`);
      expect(res.status, path).toBe(422);
      expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    }
  });

  it("an instance without AGENT_BINARY_DIR serves none (404 saying so)", async () => {
    const source = a.t.runtime.deps.agentBinaries;
    delete a.t.runtime.deps.agentBinaries;
    try {
      const res = await a.req("GET", "agents/binary/1.10.0/linux/amd64");
      expect(res.status).toBe(404);
      expect((await res.json()).detail).toMatch(/AGENT_BINARY_DIR is not set/);
    } finally {
      a.t.runtime.deps.agentBinaries = source;
    }
  });
});

describe("POST /agents/{id}/update", () => {
  it("queues the newest build for the agent's platform (numeric version order) and tells the sidecar", async () => {
    const id = await a.agent({ status: "active", arch: "amd64", agent_version: "1.2.0" });
    const control = await a.listen("agent_control");
    const res = await a.req("POST", `agents/${id}/update`, a.admin);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: "queued", version: "1.10.0" });
    const [row] = await a.t.sql`select pending_update from agents where id = ${id}`;
    expect(row!.pending_update).toEqual({
      version: "1.10.0",
      sha256: sha(builds["1.10.0/linux/amd64"]!),
      signature: signatures["1.10.0/linux/amd64"],
      os: "linux",
      arch: "amd64",
      queued_at: a.clock.now().toISOString(),
    });
    const [ev] = await a.t.sql`select detail from agent_events where agent_id = ${id} and event_type = 'update_queued'`;
    expect(ev!.detail).toMatchObject({ version: "1.10.0", from_version: "1.2.0" });
    await eventually(() => control.payloads.length > 0);
    expect(control.payloads).toEqual([{ agent_id: id, action: "update" }]);
    await control.stop();

    const pinned = await a.req("POST", `agents/${id}/update`, a.admin, { version: "1.2.0" });
    expect(await pinned.json()).toEqual({ status: "queued", version: "1.2.0" });
  });

  it("404 without a build for the version or platform, 409 unless active, 400 when no builds are served", async () => {
    const id = await a.agent({ status: "active", arch: "riscv64" });
    const none = await a.req("POST", `agents/${id}/update`, a.admin);
    expect(none.status).toBe(404);
    expect((await none.json()).detail).toBe("No agent build for linux/riscv64 on this instance.");
    const amd = await a.agent({ status: "active" });
    expect((await a.req("POST", `agents/${amd}/update`, a.admin, { version: "7.0.0" })).status).toBe(404);
    expect((await a.req("POST", `agents/${amd}/update`, a.admin, { version: "../x" })).status).toBe(422);
    const pending = await a.agent();
    expect((await a.req("POST", `agents/${pending}/update`, a.admin)).status).toBe(409);

    const source = a.t.runtime.deps.agentBinaries;
    delete a.t.runtime.deps.agentBinaries;
    try {
      const res = await a.req("POST", `agents/${amd}/update`, a.admin);
      expect(res.status).toBe(400);
      expect((await res.json()).detail).toMatch(/^No agent binaries available on this instance/);
    } finally {
      a.t.runtime.deps.agentBinaries = source;
    }
    expect(await a.t.sql`select 1 from agents where id in ${a.t.sql([id, amd, pending])} and pending_update is not null`).toHaveLength(0);
  });

  it("400 without a release key to verify builds with, or for an unsigned build; nothing is queued", async () => {
    const id = await a.agent({ status: "active", arch: "amd64" });
    const pub = join(dir, "release-key.pub");
    renameSync(pub, `${pub}.away`);
    try {
      const res = await a.req("POST", `agents/${id}/update`, a.admin);
      expect(res.status).toBe(400);
      expect((await res.json()).detail).toMatch(
        /^No agent release key is configured on this instance: agents install only builds signed by the release key, so no update is offered\. Set AGENT_RELEASE_PUBLIC_KEY/,
      );
    } finally {
      renameSync(`${pub}.away`, pub);
    }
    const sig = join(dir, "1.2.0", "linux", "amd64", "svc-agent.sig");
    // Moved to a dot file: another file beside the build would make the directory ambiguous.
    const away = join(dir, "1.2.0", "linux", "amd64", ".svc-agent.sig.away");
    renameSync(sig, away);
    try {
      const res = await a.req("POST", `agents/${id}/update`, a.admin, { version: "1.2.0" });
      expect(res.status).toBe(400);
      expect((await res.json()).detail).toMatch(/^Agent build 1\.2\.0 for linux\/amd64 is not signed \(no svc-agent\.sig beside it\)/);
    } finally {
      renameSync(away, sig);
    }
    expect(await a.t.sql`select 1 from agents where id = ${id} and pending_update is not null`).toHaveLength(0);
  });

  it("administrators only", async () => {
    const id = await a.agent({ status: "active" });
    expect((await a.req("POST", `agents/${id}/update`)).status).toBe(401);
    for (const token of [a.viewer, a.editor]) expect((await a.req("POST", `agents/${id}/update`, token)).status).toBe(403);
  });
});

describe("GET /capabilities", () => {
  it("names the versions and platforms served, enrollment and the vault's state", async () => {
    const caps = await (await a.req("GET", "capabilities", a.viewer)).json();
    expect(caps.agents).toEqual({
      enrollment: true,
      binaries_served: true,
      versions: ["1.10.0", "1.2.0"],
      platforms: ["linux/amd64", "linux/arm64"],
      capabilities: ["host_telemetry", "remote_probe", "local_discovery"],
    });
    expect(caps.vault).toEqual({ status: "healthy", key_source: "environment" });
    expect(caps).toMatchObject({ database: "postgres", edge: false });
  });
});
