// Issue 11's agent scenario through the reference agent as an operator runs it (`npm run agent -- --server
// URL`) against the product started as the README says: it fetches and pins the server key, enrolls and
// prints its pairing code; an administrator looks the code up and approves; the agent links and its real
// telemetry is readable through GET /agents/{id}/telemetry; a tcp and an http probe against loopback
// targets come back through GET /agents/{id}/probes; a revoke cuts the link and the agent exits 3.
import { createServer as createHttpServer, type Server } from "node:http";
import { createServer as createTcpServer, type Server as TcpServer } from "node:net";
import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Product } from "../helpers.ts";
import {
  type Admin,
  type AgentProcess,
  requestProbe,
  spawnAgent,
  tempDir,
  TEST_GRANTS,
  type TestDatabase,
  until,
  productFixture,
} from "./support.ts";

let db: TestDatabase;
let p: Product;
let admin: Admin;
let tcp: TcpServer;
let http: Server;
const state = tempDir("agent-e2e-");
let agent: AgentProcess;
let agentId = 0;

const fixture = productFixture();

beforeAll(async () => {
  ({ db, p, admin } = await fixture.start());
  tcp = createTcpServer((s) => s.end());
  http = createHttpServer((_req, res) => res.end("probe target"));
  await Promise.all([new Promise<void>((r) => tcp.listen(0, "127.0.0.1", r)), new Promise<void>((r) => http.listen(0, "127.0.0.1", r))]);
}, 90_000);

afterAll(async () => {
  await fixture.stop();
  http?.closeAllConnections();
  tcp?.close();
  http?.close();
  state.remove();
});

describe("the reference agent against the product", () => {
  it("enrolls with a pairing code an administrator approves, then links", async () => {
    agent = spawnAgent(["--server", p.url, "--state-dir", state.dir, "--log-level", "info"]);
    const code = await until(
      "the pairing code",
      () => /PAIRING CODE:\s+([0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4})/.exec(agent.output())?.[1],
      30_000,
      agent.output,
    );
    expect(agent.output()).toMatch(/fingerprint [0-9a-f]{32}/);
    const key = statSync(join(state.dir, "device.key"));
    expect(key.mode & 0o777).toBe(0o600);
    expect(readFileSync(join(state.dir, "device.key"), "utf8").trim()).toMatch(/^[0-9a-f]{64}$/);

    const found = await admin.call<{ agent_id: number; fingerprint: string }>("POST", "agents/pairing/lookup", { code });
    agentId = found.agent_id;
    const pending = await admin.call<{ status: string }>("GET", `agents/${agentId}`);
    expect(pending.status).toBe("pending");
    await admin.call("POST", `agents/${agentId}/approve`, { host_link_action: "create", capabilities: TEST_GRANTS });
    await until("the link", () => (agent.output().includes(`linked as agent ${agentId}`) ? true : undefined), 20_000, agent.output);
    const trust = JSON.parse(readFileSync(join(state.dir, "server.json"), "utf8")) as { status: string; agent_id: number };
    expect(trust).toMatchObject({ status: "active", agent_id: agentId });
  }, 60_000);

  it("sends this machine's telemetry, readable through the API", async () => {
    const t = await until(
      "telemetry",
      async () => {
        const r = await admin.call<{
          latest: null | { sample_id: string; status: string; summary: Record<string, number | null>; payload: Record<string, unknown> };
        }>("GET", `agents/${agentId}/telemetry`);
        return r.latest ?? undefined;
      },
      20_000,
      agent.output,
    );
    expect(t.sample_id).toMatch(/^[0-9a-f]{32}$/);
    expect(t.status).toBe("healthy");
    expect(t.summary.mem_pct).toBeGreaterThan(0);
    expect(t.summary.uptime_s).toBeGreaterThan(0);
    expect(t.summary.root_disk_pct).toBeGreaterThan(0);
    expect((t.payload.interfaces as { name: string }[]).map((i) => i.name)).toContain("lo");
    const presence = await admin.call<{ online: boolean }>("GET", `agents/${agentId}`);
    expect(presence.online).toBe(true);
  }, 30_000);

  it("runs a tcp and an http probe against loopback targets", async () => {
    const tcpPort = (tcp.address() as { port: number }).port;
    const httpPort = (http.address() as { port: number }).port;
    const tcpRun = await requestProbe(db, agentId, { check_type: "tcp", host: "127.0.0.1", config: { port: tcpPort }, timeout_s: 10 });
    const httpRun = await requestProbe(db, agentId, {
      check_type: "http",
      host: "127.0.0.1",
      config: { url: `http://127.0.0.1:${httpPort}/` },
      timeout_s: 10,
    });
    type Runs = { recent_runs: { run_id: string; state: string; up: boolean | null; msg: string | null }[] };
    const finished = await until(
      "both probe results",
      async () => {
        const r = await admin.call<Runs>("GET", `agents/${agentId}/probes`);
        const runs = r.recent_runs.filter((x) => [tcpRun, httpRun].includes(x.run_id) && x.up !== null);
        return runs.length === 2 ? runs : undefined;
      },
      20_000,
      agent.output,
    );
    for (const run of finished) expect(run.up, JSON.stringify(run)).toBe(true);
    expect(finished.find((r) => r.run_id === httpRun)!.msg).toBe("HTTP 200");
  }, 30_000);

  it("a revoke cuts the link and the agent exits with 3, and will not come back", async () => {
    await admin.call("POST", `agents/${agentId}/revoke`, { reason: "e2e revoke" });
    const exit = await Promise.race([agent.exited, new Promise<"timeout">((r) => setTimeout(() => r("timeout"), 15_000))]);
    expect(exit, agent.output()).toEqual({ code: 3, signal: null });
    expect(agent.output()).toMatch(/revoked/);
    // A restart refuses at once from its state, without a connection.
    const again = spawnAgent(["--server", p.url, "--state-dir", state.dir], false);
    expect(await again.exited).toEqual({ code: 3, signal: null });
    expect(existsSync(join(state.dir, "server.json"))).toBe(true);
  }, 30_000);

  it("SIGTERM while waiting for approval stops the agent cleanly (exit 0)", async () => {
    const other = tempDir("agent-e2e-sigterm-");
    try {
      const waiting = spawnAgent(["--server", p.url, "--state-dir", other.dir, "--name", "stopped-while-pending"], false);
      await until("the pairing code", () => (/PAIRING CODE/.test(waiting.output()) ? true : undefined), 30_000, waiting.output);
      waiting.signal("SIGTERM");
      expect(await waiting.exited, waiting.output()).toEqual({ code: 0, signal: null });
    } finally {
      other.remove();
    }
  }, 40_000);

  it("the installer's `enroll --config FILE` exits 0 once approved, using the key the file pins", async () => {
    const other = tempDir("agent-e2e-config-");
    try {
      const key = /^SERVER_STATIC_PK='([0-9a-f]{64})'$/m.exec(await (await p.fetch("/install-agent.sh")).text())![1]!;
      const config = join(other.dir, "agent.toml");
      writeFileSync(
        config,
        `server_url = "${p.url}"\nserver_static_pk = "${key}"\nlog_level = "info"\nspool_cap_bytes = 67108864\nstate_dir = "${other.dir}/state"\n`,
      );
      const installing = spawnAgent(["enroll", "--config", config], false);
      const code = await until("the pairing code", () => /PAIRING CODE:\s+(\S+)/.exec(installing.output())?.[1], 30_000, installing.output);
      // The key came from the file: nothing was trusted on first use.
      expect(installing.output()).not.toMatch(/on first use/);
      const found = await admin.call<{ agent_id: number }>("POST", "agents/pairing/lookup", { code });
      await admin.call("POST", `agents/${found.agent_id}/approve`, { host_link_action: "create" });
      expect(await installing.exited, installing.output()).toEqual({ code: 0, signal: null });
      expect(JSON.parse(readFileSync(join(other.dir, "state", "server.json"), "utf8"))).toMatchObject({
        status: "active",
        current_pk: key,
      });
    } finally {
      other.remove();
    }
  }, 40_000);

  it("a rejected enrollment ends the agent with 4", async () => {
    const other = tempDir("agent-e2e-rejected-");
    try {
      const rejected = spawnAgent(["--server", p.url, "--state-dir", other.dir, "--name", "to-be-rejected"], false);
      const code = await until("the pairing code", () => /PAIRING CODE:\s+(\S+)/.exec(rejected.output())?.[1], 30_000, rejected.output);
      const found = await admin.call<{ agent_id: number }>("POST", "agents/pairing/lookup", { code });
      await admin.call("POST", `agents/${found.agent_id}/reject`);
      expect(await rejected.exited, rejected.output()).toEqual({ code: 4, signal: null });
      expect(rejected.output()).toMatch(/rejected/);
    } finally {
      other.remove();
    }
  }, 40_000);
});
