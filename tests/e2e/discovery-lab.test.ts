// Issue 13's lab through the product as users run it (`npm start` on a test database, HTTP and the
// /discovery/stream WebSocket only): fake hosts are TCP listeners of this test on 127.0.0.x addresses.
// 1. POST /discovery/scan of a loopback range -> the sidecar's discovery worker runs it; the stream
//    carries the job's job_update events from queued through running to completed, and
//    /discovery/jobs/{id}/results lists each listening host with its open port and banner.
// 2. The reference agent (`node bin/agent.ts`), enrolled and approved with a local_discovery grant
//    reaching 127.0.0.0/24, runs an agent_connect scan of the same range sent to it as discovery.request;
//    its discovery.finding frames become results carrying its agent id, and the job completes; DELETE
//    stops a running agent scan within a second; an agent killed mid-scan fails its job agent_offline;
//    a scan queued while the agent is offline waits for it (waiting_for_agent) and runs when it links.
import { createServer, type Server } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { jsonBody, killAll, type Product, SETUP_TOKEN } from "./helpers.ts";
import { createTestDatabase, spawnAgent, startOn, stopAgents, tempDir, TEST_GRANTS, type TestDatabase, until } from "./agents/support.ts";

let db: TestDatabase;
let p: Product;
let token = "";
const servers: Server[] = [];
let port = 0;
const state = tempDir("discovery-agent-");

async function listen(host: string, at: number, banner: string): Promise<number> {
  const server = createServer((s) => {
    s.on("error", () => {});
    s.end(banner);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(at, host, resolve);
  });
  servers.push(server);
  return (server.address() as { port: number }).port;
}

async function call<T>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> {
  const init: RequestInit = body === undefined ? { method } : { ...jsonBody(body), method };
  init.headers = { ...(init.headers as Record<string, string>), authorization: `Bearer ${token}` };
  const r = await p.fetch(`/api/v1/${path}`, init);
  return { status: r.status, body: (r.status === 204 ? {} : await r.json()) as T };
}

interface Job {
  id: number;
  status: string;
  hosts_found: number;
  scan_agent_id: number | null;
  error_reason: string | null;
}
interface Result {
  ip_address: string;
  open_ports: { port: number; banner?: string | null }[];
  discovery_agent_id: number | null;
}

beforeAll(async () => {
  db = await createTestDatabase();
  p = await startOn(db);
  const res = await p.fetch(
    "/api/v1/bootstrap/initialize",
    jsonBody({ email: "lab@example.com", password: "a long discovery lab password", setup_token: SETUP_TOKEN }),
  );
  token = ((await res.json()) as { token: string }).token;
  // Five scans within a minute: the relaxed profile allows five (normal allows one).
  const profile = await call("PUT", "settings", { rate_limit_profile: "relaxed" });
  if (profile.status !== 200) throw new Error(`settings: ${profile.status} ${JSON.stringify(profile.body)}`);
  await new Promise((r) => setTimeout(r, 5_500)); // the limiter reads the profile through a 5 s cache
  port = await listen("127.0.0.2", 0, "SSH-2.0-OpenSSH_9.6\r\n");
  await listen("127.0.0.3", port, "SSH-2.0-OpenSSH_9.6\r\n");
  await listen("127.0.0.4", port, "SSH-2.0-OpenSSH_9.6\r\n");
}, 90_000);

afterAll(async () => {
  stopAgents();
  await killAll();
  for (const s of servers) s.close();
  await db?.drop();
  state.remove();
});

/** The discovery stream's events, collected from the moment it opens. */
async function openStream(): Promise<{ events: Record<string, unknown>[]; close(): void }> {
  const ws = new WebSocket(`${p.url.replace("http", "ws")}/api/v1/discovery/stream`, { headers: { authorization: `Bearer ${token}` } });
  const events: Record<string, unknown>[] = [];
  ws.on("message", (data) => {
    try {
      const m = JSON.parse(String(data)) as Record<string, unknown>;
      // The event itself, or wrapped by the stream ({data} / {payload}).
      const inner = (typeof m.type === "string" && m.type !== "event" ? m : (m.data ?? m.payload ?? m)) as Record<string, unknown>;
      events.push(inner);
    } catch {
      // not JSON: ignored
    }
  });
  await new Promise<void>((resolve, reject) => {
    ws.once("open", () => resolve());
    ws.once("error", reject);
  });
  return { events, close: () => ws.close() };
}

/** The job as its latest job_update on the stream shows it (the UI's view; no polling of the rate-limited API). */
const latestJob = (events: Record<string, unknown>[], id: number): Job | undefined =>
  events
    .filter((e) => e.type === "job_update" && (e.job as Job | undefined)?.id === id)
    .map((e) => e.job as Job)
    .at(-1);

const jobUpdates = (events: Record<string, unknown>[], id: number) =>
  events.filter((e) => e.type === "job_update" && (e.job as Job | undefined)?.id === id).map((e) => (e.job as Job).status);

describe("discovery lab", () => {
  it("scans loopback hosts from the sidecar, streaming the job to completed, and lists their open ports", async () => {
    const stream = await openStream();
    try {
      const created = await call<Job>("POST", "discovery/scan", {
        targets: ["127.0.0.2-127.0.0.6"],
        scan_types: ["tcp", "banner"],
        tcp_ports: [port],
        label: "lab",
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const id = created.body.id;
      await until(
        "completed on the stream",
        () => (jobUpdates(stream.events, id).includes("completed") ? true : undefined),
        30_000,
        () => JSON.stringify(stream.events.slice(-5)),
      );
      const statuses = jobUpdates(stream.events, id);
      expect(statuses).toContain("running");
      expect(statuses.indexOf("running")).toBeLessThan(statuses.indexOf("completed"));
    } finally {
      stream.close();
    }
    const jobs = await call<{ items?: Job[] } | Job[]>("GET", "discovery/jobs");
    const list = Array.isArray(jobs.body) ? jobs.body : (jobs.body.items ?? []);
    const job = list.find((j) => j.status === "completed")!;
    const results = await call<Result[] | { items: Result[] }>("GET", `discovery/jobs/${job.id}/results`);
    const rows = Array.isArray(results.body) ? results.body : results.body.items;
    const listening = rows
      .filter((r) => r.open_ports.some((o) => o.port === port))
      .map((r) => r.ip_address)
      .sort();
    expect(listening).toEqual(["127.0.0.2", "127.0.0.3", "127.0.0.4"]);
    const banner = rows.find((r) => r.ip_address === "127.0.0.2")!.open_ports.find((o) => o.port === port)!.banner;
    expect(banner).toContain("SSH-2.0-OpenSSH_9.6");
  }, 60_000);

  it("runs an agent_connect scan through a real enrolled agent and records its findings with the agent's id", async () => {
    const stream = await openStream();
    const jobWhen = (what: string, id: number, ok: (j: Job) => boolean, ms = 30_000, detail = () => "") =>
      until(
        what,
        () => {
          const j = latestJob(stream.events, id);
          return j && ok(j) ? j : undefined;
        },
        ms,
        detail,
      );
    const agent = spawnAgent(["--server", p.url, "--state-dir", state.dir, "--log-level", "info"], false);
    const code = await until(
      "the pairing code",
      () => /PAIRING CODE:\s+([0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4})/.exec(agent.output())?.[1],
      30_000,
      agent.output,
    );
    const lookup = await call<{ agent_id: number }>("POST", "agents/pairing/lookup", { code });
    const agentId = lookup.body.agent_id;
    const grants = {
      ...TEST_GRANTS,
      local_discovery: { enabled: true, config: { additional_cidrs: ["127.0.0.0/23"], host_timeout_ms: 500, max_concurrent_hosts: 1 } },
    };
    const approved = await call("POST", `agents/${agentId}/approve`, { host_link_action: "create", capabilities: grants });
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    await until("the link", () => (agent.output().includes(`linked as agent ${agentId}`) ? true : undefined), 20_000, agent.output);

    const eligible = await call<{ agent_id: number; eligible: boolean; reason: string | null; in_scope: boolean | null }[]>(
      "GET",
      "discovery/eligible-agents?cidr=127.0.0.0/29",
    );
    expect(eligible.body.find((a) => a.agent_id === agentId)).toMatchObject({ eligible: true, reason: null, in_scope: true });

    const created = await call<Job>("POST", "discovery/scan", {
      targets: ["127.0.0.2-127.0.0.6"],
      scan_types: ["agent_connect"],
      tcp_ports: [port],
      scan_agent_id: agentId,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.id;
    const done = await jobWhen(
      "the agent's scan completed",
      id,
      (j) => j.status === "completed" || j.status === "failed",
      30_000,
      agent.output,
    );
    expect(done.status, JSON.stringify(done)).toBe("completed");
    const results = await call<Result[] | { items: Result[] }>("GET", `discovery/jobs/${id}/results`);
    const rows = Array.isArray(results.body) ? results.body : results.body.items;
    const listening = rows.filter((r) => r.open_ports.some((o) => o.port === port));
    expect(listening.map((r) => r.ip_address).sort()).toEqual(["127.0.0.2", "127.0.0.3", "127.0.0.4"]);
    for (const r of rows) expect(r.discovery_agent_id).toBe(agentId);
    expect(done.hosts_found).toBe(rows.length);

    const view = await call<{ agent_id: number; recent_jobs: Job[]; paused: boolean }>("GET", `agents/${agentId}/discovery`);
    expect(view.body.recent_jobs.map((j) => j.id)).toContain(id);
    expect(view.body.paused).toBe(false);

    // DELETE of a running agent scan: discovery.cancel reaches the agent, which stops within a second;
    // nothing it sends after is recorded.
    const slow = await call<Job>("POST", "discovery/scan", {
      targets: ["127.0.1.0/24"],
      scan_types: ["agent_connect"],
      tcp_ports: Array.from({ length: 500 }, (_, i) => 30_000 + i),
      scan_agent_id: agentId,
    });
    expect(slow.status, JSON.stringify(slow.body)).toBe(201);
    await jobWhen(
      "the slow scan running with results",
      slow.body.id,
      (j) => j.status === "running" && j.hosts_found > 0,
      30_000,
      agent.output,
    );
    const before = agent.output().length;
    const t0 = Date.now();
    const cancelled = await call<{ cancelled: boolean }>("DELETE", `discovery/jobs/${slow.body.id}`);
    expect(cancelled.body).toEqual({ cancelled: true });
    await until(
      "the agent stopped the scan",
      () => (/discovery [0-9a-f]{32}: cancelled/.test(agent.output().slice(before)) ? true : undefined),
      5_000,
      agent.output,
    );
    expect(Date.now() - t0).toBeLessThan(1_000);
    const count = async () => {
      const r = await call<Result[] | { items: Result[] }>("GET", `discovery/jobs/${slow.body.id}/results?limit=1000`);
      return (Array.isArray(r.body) ? r.body : r.body.items).length;
    };
    const after = await count();
    await new Promise((r) => setTimeout(r, 1_000));
    expect(await count()).toBe(after);
    expect(latestJob(stream.events, slow.body.id)?.status).toBe("cancelled");

    // The agent dies mid-scan: its link ends, and the job fails at once with reason agent_offline.
    const orphan = await call<Job>("POST", "discovery/scan", {
      targets: ["127.0.1.0/24"],
      scan_types: ["agent_connect"],
      tcp_ports: Array.from({ length: 500 }, (_, i) => 31_000 + i),
      scan_agent_id: agentId,
    });
    expect(orphan.status, JSON.stringify(orphan.body)).toBe(201);
    await jobWhen("the orphan scan running", orphan.body.id, (j) => j.status === "running", 30_000, agent.output);
    agent.kill();
    const ended = await jobWhen("the orphan failed", orphan.body.id, (j) => j.status !== "running", 10_000);
    expect([ended.status, ended.error_reason]).toEqual(["failed", "agent_offline"]);

    // A scan for the agent while it is offline waits (queued, waiting_for_agent) and goes out when it links again.
    const waiting = await call<Job>("POST", "discovery/scan", {
      targets: ["127.0.0.2-127.0.0.4"],
      scan_types: ["agent_connect"],
      tcp_ports: [port],
      scan_agent_id: agentId,
    });
    expect(waiting.status, JSON.stringify(waiting.body)).toBe(201);
    await jobWhen("waiting_for_agent", waiting.body.id, (j) => j.status === "queued" && j.error_reason === "waiting_for_agent", 15_000);
    const again = spawnAgent(["--server", p.url, "--state-dir", state.dir, "--log-level", "info"], false);
    const back = await jobWhen(
      "the waiting scan completed",
      waiting.body.id,
      (j) => j.status !== "queued" && j.status !== "running",
      30_000,
      again.output,
    );
    expect([back.status, back.hosts_found]).toEqual(["completed", 3]);
    stream.close();
  }, 120_000);
});
