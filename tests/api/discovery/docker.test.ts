// The Docker discovery against a fake Docker Engine API on a unix socket replaying recorded answers
// (tests/fixtures/docker/, shaped like the v1.43 documentation): the sync route queues a docker job, the
// runner reads the engine and the sync verb writes compute units, services and networks keyed by
// external_refs in one audited transaction; a second sync updates in place and marks what disappeared.
// Not tested here: a real dockerd (none on this machine), TLS/TCP engines (not supported: unix socket only).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jsonLogger } from "../../../shared/logger.ts";
import { systemContext } from "../../../shared/verbs/verb-context.ts";
import { dockerClient } from "../../../net/docker/docker-client.ts";
import { openJobRun } from "../../../sidecar/discovery/job-run.ts";
import { runDockerJob } from "../../../sidecar/discovery/docker/run-docker-job.ts";
import { discoveryWorker } from "../../../sidecar/discovery/discovery-worker.ts";
import { type FakeDocker, recordedDockerState, startFakeDocker } from "../../helpers/fake-docker.ts";
import { type AgentActors, createAgentActors } from "../agents/support.ts";

let a: AgentActors;
let fake: FakeDocker;

beforeAll(async () => {
  a = await createAgentActors();
  fake = await startFakeDocker();
});
afterAll(async () => {
  await fake?.close();
  await a?.t.close();
});

const WEB = "8dfafdbc3a40a1f5c2e1d6b7a9f0c3e4d5b6a7f8e9d0c1b2a3f4e5d6c7b8a9f0";
const DB = "3c1a9e6f2b4d8a0c7e5f1b3d9a7c5e2f4b6d8a0c2e4f6b8d0a2c4e6f8b0d2a4c";

/** Runs job `id` the way the discovery worker does (its JobRun outlets, the system context). */
async function runJob(id: number): Promise<string[]> {
  const [job] = await a.t.sql`select * from scan_jobs where id = ${id}`;
  const ctx = systemContext({ db: a.t.runtime.database.db, clock: a.clock, random: a.t.runtime.deps.random });
  const row = (await ctx.db.query.scanJobs.findFirst({ where: (j, { eq }) => eq(j.id, job!.id) }))!;
  const handle = openJobRun(
    { ctx, vault: a.t.runtime.deps.vault, logger: jsonLogger("error", () => {}) },
    row,
    new AbortController().signal,
    { progressMs: 50, heartbeatMs: 1000, logsMs: 50, logsBatch: 100 },
  );
  try {
    await runDockerJob(handle.run);
  } finally {
    await handle.close();
  }
  return (await a.t.sql<{ message: string }[]>`select message from scan_logs where scan_job_id = ${id} order by id`).map((r) => r.message);
}

async function sync(): Promise<number> {
  const res = await a.req("POST", "discovery/docker/sync", a.admin, { socket_path: fake.socketPath });
  expect(res.status, await res.clone().text()).toBe(200);
  const body = await res.json();
  expect(body).toEqual({ status: "sync_started", socket_path: fake.socketPath, job_id: expect.any(Number) });
  return body.job_id;
}

const containers = () =>
  a.t
    .sql`select c.id, c.name, c.kind, c.status, c.ip_address, c.memory_mb, c.cpu_cores, r.external_id from compute_units c join external_refs r on r.entity_type = 'compute_unit' and r.entity_id = c.id order by c.name`;

describe("Docker Engine API client", () => {
  it("reads version, containers with their inspect, and networks over the unix socket", async () => {
    const snap = await dockerClient(fake.socketPath, { timeoutMs: 2000 }).snapshot();
    expect(snap.version.ApiVersion).toBe("1.43");
    expect(snap.containers.map((c) => c.summary.Names[0])).toEqual(["/web", "/db", "/backup-job"]);
    expect(snap.containers[0]!.inspect!.HostConfig!.Memory).toBe(268435456);
    expect(snap.networks.map((n) => n.Name)).toEqual(["bridge", "shop_backend", "host", "none"]);
    expect(fake.requests).toContain("/containers/json");
  });

  it("fails with the socket's error code when nothing listens, and stops on abort", async () => {
    await expect(dockerClient("/nonexistent/docker.sock", { timeoutMs: 500 }).version()).rejects.toMatchObject({ code: "ENOENT" });
    const ac = new AbortController();
    ac.abort();
    await expect(dockerClient(fake.socketPath, { signal: ac.signal }).version()).rejects.toMatchObject({ code: "ABORTED" });
  });
});

describe("POST /discovery/docker/sync and the docker job", () => {
  it("refuses a relative or dotted socket path with 422 naming socket_path, and a viewer with 403", async () => {
    for (const socket_path of ["var/run/docker.sock", "/var/run/../../etc/docker.sock", ""]) {
      const res = await a.req("POST", "discovery/docker/sync", a.admin, { socket_path });
      expect(res.status, socket_path).toBe(422);
      expect(JSON.stringify((await res.json()).detail)).toContain("socket_path");
    }
    expect((await a.req("POST", "discovery/docker/sync", a.viewer, {})).status).toBe(403);
    expect(Number((await a.t.sql`select count(*)::int as n from scan_jobs`)[0]!.n)).toBe(0);
  });

  it("queues one docker job per socket (409 while it is open) and its run syncs the inventory", async () => {
    const events = await a.listen("inventory");
    const id = await sync();
    const [job] = await a.t.sql`select status, scan_types, options from scan_jobs where id = ${id}`;
    expect(job).toMatchObject({ status: "queued", scan_types: ["docker"], options: { docker_socket_path: fake.socketPath } });
    const again = await a.req("POST", "discovery/docker/sync", a.admin, { socket_path: fake.socketPath });
    expect(again.status).toBe(409);
    expect((await again.json()).detail).toContain(`job ${id}`);

    const logs = await runJob(id);
    expect(logs.join("\n")).toContain("Synced 3 containers (2 running), 2 with published ports, 2 networks: 7 created");

    expect(await containers()).toEqual([
      {
        id: expect.any(Number),
        name: "backup-job",
        kind: "container",
        status: "stopped",
        ip_address: null,
        memory_mb: null,
        cpu_cores: null,
        external_id: expect.stringMatching(/^b7e2/),
      },
      {
        id: expect.any(Number),
        name: "db",
        kind: "container",
        status: "running",
        ip_address: "172.20.0.3",
        memory_mb: 1024,
        cpu_cores: 2,
        external_id: DB,
      },
      {
        id: expect.any(Number),
        name: "web",
        kind: "container",
        status: "running",
        ip_address: "172.17.0.2",
        memory_mb: 256,
        cpu_cores: 0.5,
        external_id: WEB,
      },
    ]);
    const svcs = await a.t
      .sql`select s.name, s.status, s.ports, c.name as container from services s join compute_units c on c.id = s.compute_id order by s.name`;
    expect(svcs).toEqual([
      { name: "db", status: "running", container: "db", ports: [{ ip: "127.0.0.1", port: 15432, protocol: "tcp", label: "db 5432/tcp" }] },
      {
        name: "web",
        status: "running",
        container: "web",
        ports: [
          { ip: null, port: 8080, protocol: "tcp", label: "web 80/tcp" },
          { ip: null, port: 8443, protocol: "tcp", label: "web 443/tcp" },
        ],
      },
    ]);
    const nets = await a.t
      .sql`select n.name, n.cidr, n.gateway, r.attributes->>'docker_driver' as driver from networks n join external_refs r on r.entity_type = 'network' and r.entity_id = n.id order by n.name`;
    expect(nets).toEqual([
      { name: "bridge", cidr: "172.17.0.0/16", gateway: "172.17.0.1", driver: "bridge" },
      { name: "shop_backend", cidr: "172.20.0.0/16", gateway: "172.20.0.1", driver: "bridge" },
    ]);
    const members = await a.t
      .sql`select n.name as network, c.name as container, m.ip_address from network_members m join networks n on n.id = m.network_id join compute_units c on c.id = m.compute_id order by c.name`;
    expect(members).toEqual([
      { network: "shop_backend", container: "db", ip_address: "172.20.0.3" },
      { network: "bridge", container: "web", ip_address: "172.17.0.2" },
    ]);
    const refs = await a.t.sql`select distinct source from external_refs`;
    expect(refs).toEqual([{ source: `docker:${fake.socketPath}` }]);

    const [audit] = await a.t.sql`select action, category, diff from audit_log where action = 'discovery.docker.sync'`;
    expect(audit!.diff.created).toHaveLength(7);
    for (let i = 0; i < 50 && events.payloads.length < 7; i++) await new Promise((r) => setTimeout(r, 20));
    expect(
      events.payloads
        .filter((p) => p.action === "create")
        .map((p) => p.entity)
        .sort(),
    ).toEqual(["compute_unit", "compute_unit", "compute_unit", "network", "network", "service", "service"]);
    await events.stop();
  });

  it("GET /discovery/docker/status and /networks answer what the sync recorded", async () => {
    const status = await a.req("GET", `discovery/docker/status?socket_path=${encodeURIComponent(fake.socketPath)}`, a.viewer);
    expect(status.status).toBe(200);
    expect(await status.json()).toMatchObject({
      socket_path: fake.socketPath,
      available: true,
      engine_version: "24.0.7",
      api_version: "1.43",
      container_count: 3,
      running_count: 2,
      network_count: 2,
      service_count: 2,
      last_sync: expect.any(String),
      last_job: { status: "queued" },
    });
    const nets = await a.req("GET", "discovery/docker/networks", a.viewer);
    expect(nets.status).toBe(200);
    expect(
      (await nets.json()).map((n: Record<string, unknown>) => [n.name, n.docker_driver, n.cidr, n.gateway, n.socket_path, n.removed_at]),
    ).toEqual([
      ["bridge", "bridge", "172.17.0.0/16", "172.17.0.1", fake.socketPath, null],
      ["shop_backend", "bridge", "172.20.0.0/16", "172.20.0.1", fake.socketPath, null],
    ]);
    const before = await a.req("GET", "discovery/docker/status?socket_path=/var/run/other.sock", a.viewer);
    expect(await before.json()).toMatchObject({ available: null, container_count: 0, last_sync: null, last_job: null });
  });

  it("a second sync updates rows in place, keeps an operator's edits, and marks vanished containers without deleting them", async () => {
    await a.t.sql`update scan_jobs set status = 'completed'`;
    const [web] = await a.t.sql`select id from compute_units where name = 'web'`;
    await a.t.sql`update compute_units set notes = 'frontend, owned by shop team' where id = ${web!.id}`;
    fake.state.containers = fake.state.containers
      .filter((c) => c.Id !== DB)
      .map((c) => (c.Id === WEB ? { ...c, State: "exited", Status: "Exited (0) 1 minute ago" } : c));
    const webInspect = fake.state.inspects.get(WEB)!;
    fake.state.inspects.set(WEB, { ...webInspect, State: { ...webInspect.State, Status: "exited", Running: false } });

    await runJob(await sync());
    const rows = await a.t.sql`select name, status, notes, version from compute_units order by name`;
    expect(rows).toEqual([
      { name: "backup-job", status: "stopped", notes: null, version: 1 },
      { name: "db", status: "removed", notes: null, version: 2 },
      { name: "web", status: "stopped", notes: "frontend, owned by shop team", version: 2 },
    ]);
    expect(await a.t.sql`select name, status from services order by name`).toEqual([
      { name: "db", status: "stopped" },
      { name: "web", status: "stopped" },
    ]);
    const [removedRef] = await a.t.sql`select attributes from external_refs where external_id = ${DB}`;
    expect(removedRef!.attributes.removed_at).toEqual(expect.any(String));
    const [audit] = await a.t.sql`select diff from audit_log where action = 'discovery.docker.sync' order by id desc limit 1`;
    expect(audit!.diff.created).toEqual([]);
    expect(audit!.diff.removed.map((r: { name: string }) => r.name).sort()).toEqual(["db", "db"]);
    expect(audit!.diff.updated.map((r: { name: string }) => r.name).sort()).toEqual(["web", "web"]);

    // Unchanged engine: nothing written, nothing marked twice.
    await a.t.sql`update scan_jobs set status = 'completed'`;
    await runJob(await sync());
    const [last] = await a.t.sql`select diff from audit_log where action = 'discovery.docker.sync' order by id desc limit 1`;
    expect([last!.diff.created, last!.diff.updated, last!.diff.removed]).toEqual([[], [], []]);
    expect(Number((await a.t.sql`select count(*)::int as n from compute_units`)[0]!.n)).toBe(3);
  });

  it("a socket that is not there fails the run with the reason", async () => {
    await a.t.sql`update scan_jobs set status = 'completed'`;
    const res = await a.req("POST", "discovery/docker/sync", a.admin, { socket_path: "/nonexistent/docker.sock" });
    const { job_id } = await res.json();
    await expect(runJob(job_id)).rejects.toThrow(/unavailable: .*ENOENT.*no such socket/);
  });
});

describe("a socket that is not a Docker engine", () => {
  it("is refused without copying its answer into the error", async () => {
    const { createServer } = await import("node:http");
    const { mkdtempSync, rmSync } = await import("node:fs");
    const { tmpdir } = await import("node:os");
    const { join } = await import("node:path");
    const dir = mkdtempSync(join(tmpdir(), "not-docker-"));
    const socketPath = join(dir, "other.sock");
    const server = createServer((req, res) => {
      if (req.url === "/version") res.end("secret-token=hunter2");
      else res.writeHead(500).end("secret-token=hunter2");
    });
    await new Promise<void>((resolve) => server.listen(socketPath, resolve));
    try {
      const client = dockerClient(socketPath, { timeoutMs: 1000 });
      const e1 = await client.version().catch((e: Error) => e);
      const e2 = await client.networks().catch((e: Error) => e);
      expect(e1).toMatchObject({ code: "EPROTO" });
      expect(e2).toMatchObject({ code: 500 });
      expect(`${(e1 as Error).message} ${(e2 as Error).message}`).not.toContain("hunter2");
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("the OpenAPI document", () => {
  it("lists the Docker, LLDP, ip-check and IPAM scan routes with their errors", async () => {
    const doc = await (await a.t.app.request("/api/openapi.json")).json();
    const ops: [string, string, string[]][] = [
      ["/api/v1/discovery/docker/status", "get", ["401", "403"]],
      ["/api/v1/discovery/docker/sync", "post", ["409", "422"]],
      ["/api/v1/discovery/docker/networks", "get", ["401"]],
      ["/api/v1/discovery/lldp-enrich", "post", ["400", "422"]],
      ["/api/v1/discovery/lldp-jobs/{job_id}/results", "get", ["404"]],
      ["/api/v1/discovery/lldp-jobs/{job_id}/apply", "post", ["404", "422"]],
      ["/api/v1/ip-check", "post", ["422", "429"]],
      ["/api/v1/ipam/scan/{network_id}", "post", ["409", "422"]],
    ];
    for (const [path, method, errors] of ops) {
      const op = doc.paths[path]?.[method];
      expect(op, `${method} ${path}`).toBeDefined();
      for (const status of errors) expect(op.responses[status], `${method} ${path} ${status}`).toBeDefined();
    }
  });
});

describe("through the sidecar's discovery worker", () => {
  it("a sync queued over HTTP is claimed, run against the engine and completed; the status says so", async () => {
    await a.t.sql`update scan_jobs set status = 'completed' where status in ('queued', 'running')`;
    Object.assign(fake.state, recordedDockerState());
    const worker = discoveryWorker(a.t.runtime, { pollMs: 100, progressMs: 50, logsMs: 50, readinessMs: 3_600_000, recoverMs: 3_600_000 });
    await worker.start();
    try {
      const id = await sync();
      let job: Record<string, any> | undefined;
      for (let i = 0; i < 200; i++) {
        [job] = await a.t.sql`select status, error_text, claimed_by from scan_jobs where id = ${id}`;
        if (job!.status === "completed" || job!.status === "failed") break;
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(job).toMatchObject({ status: "completed", error_text: null });
      expect(await a.t.sql`select name, status from compute_units where name = 'db'`).toEqual([{ name: "db", status: "running" }]);
      const status = await (
        await a.req("GET", `discovery/docker/status?socket_path=${encodeURIComponent(fake.socketPath)}`, a.viewer)
      ).json();
      expect(status).toMatchObject({ available: true, container_count: 3, running_count: 2, last_job: { id, status: "completed" } });
    } finally {
      await worker.stop();
    }
  });
});
