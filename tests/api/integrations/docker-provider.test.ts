// The Docker provider (issue 14 item 4) against the fake Docker Engine API: on its unix socket, and on
// TCP with TLS at 127.0.0.1 (a self-signed certificate given as the config's CA). The provider's sync is
// the discovery's Docker sync (same rows, same external_refs source for a socket); an engine that cannot
// be read (no socket, an untrusted certificate, an address the outbound policy refuses) records the
// reason on the config and changes no inventory row.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dockerClient } from "../../../net/docker/docker-client.ts";
import { DEFAULT_OUTBOUND_POLICY } from "../../../shared/domain/net/outbound-policy.ts";
import { syncDocker } from "../../../shared/verbs/discovery/docker/sync-docker.ts";
import { parseDockerCredential, parseDockerUrl } from "../../../shared/verbs/integrations/docker/endpoint.ts";
import { dockerProviderVersion } from "../../../shared/verbs/integrations/docker/provider-client.ts";
import { syncDockerProvider } from "../../../shared/verbs/integrations/docker/sync-provider.ts";
import { INTEGRATION_CONFIG_CREDENTIAL, sealSecret } from "../../../shared/verbs/vault/secret-columns.ts";
import { systemContext } from "../../../shared/verbs/verb-context.ts";
import { type FakeDocker, type FakeDockerTcp, startFakeDocker, startFakeDockerTcp } from "../../helpers/fake-docker.ts";
import { selfSignedCert } from "../../sidecar/monitors/peers.ts";
import { type AgentActors, createAgentActors } from "../agents/support.ts";

let a: AgentActors;
let fake: FakeDocker;
let tls: FakeDockerTcp;
/** An engine run with --tlsverify: it accepts only clients whose certificate `client` is. */
let verify: FakeDockerTcp;
let cert: { key: string; cert: string };
let client: { key: string; cert: string };
const LAB_POLICY = { ...DEFAULT_OUTBOUND_POLICY, allow_loopback: true };

const ctx = () =>
  systemContext({
    db: a.t.runtime.database.db,
    clock: a.clock,
    random: a.t.runtime.deps.random,
    outbound: a.t.runtime.deps.outbound,
    vault: a.t.runtime.deps.vault,
  });

async function setPolicy(policy: typeof LAB_POLICY): Promise<void> {
  await a.t
    .sql`insert into app_settings (key, value) values ('outbound_policy', ${a.t.sql.json(policy)}) on conflict (key) do update set value = excluded.value`;
}

async function dockerConfig(config_url: string, fields: { verify_ssl?: boolean; ca_cert?: string | null } = {}): Promise<number> {
  const [row] = await a.t.sql<{ id: number }[]>`
    insert into integration_configs (type, name, config_url, credential_type, verify_ssl, ca_cert)
    values ('docker', ${`docker ${config_url}`}, ${config_url}, 'api_key', ${fields.verify_ssl ?? true}, ${fields.ca_cert ?? null}) returning id`;
  return row!.id;
}

const inventoryCount = async () =>
  Number(
    (
      await a.t
        .sql`select (select count(*) from compute_units) + (select count(*) from services) + (select count(*) from networks) + (select count(*) from external_refs) as n`
    )[0]!.n,
  );
const configRow = async (id: number) =>
  (await a.t.sql`select last_sync_status, last_sync_error, last_sync_at from integration_configs where id = ${id}`)[0]!;

beforeAll(async () => {
  a = await createAgentActors();
  fake = await startFakeDocker();
  cert = selfSignedCert();
  tls = await startFakeDockerTcp({ host: "127.0.0.1", tls: cert });
  client = selfSignedCert();
  verify = await startFakeDockerTcp({ host: "127.0.0.1", tls: { ...cert, clientCa: client.cert } });
  await setPolicy(LAB_POLICY);
});
afterAll(async () => {
  await fake?.close();
  await tls?.close();
  await verify?.close();
  await a?.t.close();
});

describe("Docker provider endpoints", () => {
  it("parses unix:// and tcp:// URLs (TLS unless extra_config.tls is false) and refuses anything else", () => {
    expect(parseDockerUrl("unix:///var/run/docker.sock")).toEqual({
      ok: true,
      value: { kind: "unix", socketPath: "/var/run/docker.sock", source: "docker:/var/run/docker.sock", key: "/var/run/docker.sock" },
    });
    expect(parseDockerUrl("tcp://dockerhost:2376")).toEqual({
      ok: true,
      value: {
        kind: "tcp",
        baseUrl: "https://dockerhost:2376",
        tls: true,
        source: "docker:tcp://dockerhost:2376",
        key: "tcp://dockerhost:2376",
      },
    });
    expect(parseDockerUrl("tcp://dockerhost", { tls: false })).toMatchObject({
      ok: true,
      value: { baseUrl: "http://dockerhost:2375", tls: false },
    });
    expect(parseDockerUrl("https://dockerhost:2376/", { tls: false })).toMatchObject({
      ok: true,
      value: { baseUrl: "https://dockerhost:2376", tls: true, source: "docker:tcp://dockerhost:2376" },
    });
    for (const bad of [
      "unix://relative.sock",
      "unix:///run/../etc/x.sock",
      "tcp://user:pw@host:2376",
      "tcp://host:2376/v1.43",
      "https://host:2376/api",
      "http://host:2375",
      "ssh://host",
      "",
    ])
      expect(parseDockerUrl(bad).ok, bad).toBe(false);
    expect(parseDockerCredential(null)).toEqual({ ok: true, value: null });
    expect(parseDockerCredential("not json").ok).toBe(false);
    expect(parseDockerCredential(JSON.stringify({ cert: cert.cert })).ok).toBe(false);
  });

  it("dockerProviderVersion answers the engine's version and the round trip, over the socket and over TLS with the config's CA", async () => {
    const unix = await dockerProviderVersion(a.t.runtime.deps.outbound, {
      config_url: `unix://${fake.socketPath}`,
      verify_ssl: true,
      ca_cert: null,
      credential: null,
      policy: LAB_POLICY,
    });
    expect(unix.version).toMatchObject({ Version: "24.0.7", ApiVersion: "1.43" });
    expect(unix.latency_ms).toBeGreaterThanOrEqual(0);
    const overTls = await dockerProviderVersion(a.t.runtime.deps.outbound, {
      config_url: tls.url,
      verify_ssl: true,
      ca_cert: cert.cert,
      credential: null,
      policy: LAB_POLICY,
    });
    expect(overTls.version.Version).toBe("24.0.7");
    await expect(
      dockerProviderVersion(a.t.runtime.deps.outbound, {
        config_url: tls.url,
        verify_ssl: true,
        ca_cert: null,
        credential: null,
        policy: LAB_POLICY,
      }),
    ).rejects.toMatchObject({ code: "tls" });
    await expect(
      dockerProviderVersion(a.t.runtime.deps.outbound, {
        config_url: tls.url,
        verify_ssl: true,
        ca_cert: cert.cert,
        credential: null,
        policy: DEFAULT_OUTBOUND_POLICY,
      }),
    ).rejects.toMatchObject({ code: "refused" });
    // An engine with --tlsverify: refused without the client certificate, answered with it.
    await expect(
      dockerProviderVersion(a.t.runtime.deps.outbound, {
        config_url: verify.url,
        verify_ssl: true,
        ca_cert: cert.cert,
        credential: null,
        policy: LAB_POLICY,
      }),
    ).rejects.toBeTruthy();
    const mutual = await dockerProviderVersion(a.t.runtime.deps.outbound, {
      config_url: verify.url,
      verify_ssl: true,
      ca_cert: cert.cert,
      credential: JSON.stringify(client),
      policy: LAB_POLICY,
    });
    expect(mutual.version.Version).toBe("24.0.7");
    // A client certificate means nothing on the socket: refused, not silently unused.
    await expect(
      dockerProviderVersion(a.t.runtime.deps.outbound, {
        config_url: `unix://${fake.socketPath}`,
        verify_ssl: true,
        ca_cert: null,
        credential: JSON.stringify(client),
        policy: LAB_POLICY,
      }),
    ).rejects.toThrow(/unix socket takes none/);
  });
});

describe("syncDockerProvider", () => {
  it("an engine that cannot be read records the reason on the config and changes no inventory row", async () => {
    const before = await inventoryCount();
    const missing = await dockerConfig("unix:///nonexistent/docker.sock");
    const out = await syncDockerProvider(ctx(), missing);
    expect(out).toMatchObject({ ok: false, error: expect.stringContaining("unix:///nonexistent/docker.sock unavailable") });
    expect(await configRow(missing)).toMatchObject({
      last_sync_status: "error",
      last_sync_error: out.error,
      last_sync_at: expect.any(Date),
    });

    const untrusted = await dockerConfig(tls.url);
    const refused = await syncDockerProvider(ctx(), untrusted);
    expect(refused.ok).toBe(false);
    expect(refused.error).toMatch(/certificate|TLS/i);
    expect((await configRow(untrusted)).last_sync_status).toBe("error");

    await setPolicy(DEFAULT_OUTBOUND_POLICY);
    const trusted = await dockerConfig(tls.url, { ca_cert: cert.cert });
    const blocked = await syncDockerProvider(ctx(), trusted);
    await setPolicy(LAB_POLICY);
    expect(blocked.ok).toBe(false);
    expect(blocked.error).toContain("allow_loopback");
    expect(await inventoryCount()).toBe(before);
    expect(tls.requests).toEqual(["/version"]); // only the trusted version probe above reached the engine
  });

  it("syncs the engine on the unix socket into the same rows the discovery scan of that socket keeps", async () => {
    const id = await dockerConfig(`unix://${fake.socketPath}`);
    const out = await syncDockerProvider(ctx(), id);
    expect(out).toEqual({
      ok: true,
      error: null,
      source: `docker:${fake.socketPath}`,
      containers: 3,
      networks: 2,
      services: 2,
      created: 7,
      updated: 0,
      removed: 0,
    });
    expect(await configRow(id)).toMatchObject({ last_sync_status: "ok", last_sync_error: null });
    const units = await a.t
      .sql`select c.name, c.kind, c.status from compute_units c join external_refs r on r.entity_type = 'compute_unit' and r.entity_id = c.id where r.source = ${`docker:${fake.socketPath}`} order by c.name`;
    expect(units).toEqual([
      { name: "backup-job", kind: "container", status: "stopped" },
      { name: "db", kind: "container", status: "running" },
      { name: "web", kind: "container", status: "running" },
    ]);
    const [audit] = await a.t.sql`select diff from audit_log where action = 'discovery.docker.sync' order by id desc limit 1`;
    expect(audit!.diff).toMatchObject({ source: `docker:${fake.socketPath}`, job_id: null, integration_config_id: id });

    // The discovery's scan of the same socket finds every row already there: one sync, not two copies.
    const snapshot = await dockerClient(fake.socketPath, { timeoutMs: 2000 }).snapshot();
    const scan = await syncDocker({ ctx: ctx(), input: { socket_path: fake.socketPath, snapshot } });
    expect([scan.created, scan.updated, scan.removed]).toEqual([[], [], []]);

    // The engine changes: a container goes away, another changes state; the provider updates in place.
    const web = fake.state.containers.find((c) => c.Names[0] === "/web")!;
    fake.state.containers = fake.state.containers.filter((c) => c.Names[0] !== "/db");
    const state = { ...web, State: "exited" };
    fake.state.containers = fake.state.containers.map((c) => (c.Id === web.Id ? state : c));
    const inspect = fake.state.inspects.get(web.Id)!;
    fake.state.inspects.set(web.Id, { ...inspect, State: { ...inspect.State, Status: "exited", Running: false } } as typeof inspect);
    const again = await syncDockerProvider(ctx(), id);
    expect(again).toMatchObject({ ok: true, containers: 2, created: 0, removed: 2 }); // db and its service
    expect(again.updated).toBeGreaterThan(0);
    const after = await a.t.sql`select name, status from compute_units order by name`;
    expect(after).toEqual([
      { name: "backup-job", status: "stopped" },
      { name: "db", status: "removed" },
      { name: "web", status: "stopped" },
    ]);
  });

  it("syncs an engine over TCP with TLS (the config's CA) under its own source", async () => {
    const id = await dockerConfig(tls.url, { ca_cert: cert.cert });
    const out = await syncDockerProvider(ctx(), id);
    expect(out).toMatchObject({ ok: true, source: `docker:${tls.url}`, containers: 3, created: 7 });
    const sources = await a.t.sql`select source, count(*)::int as n from external_refs group by source order by source`;
    expect(sources).toEqual([
      { source: `docker:${fake.socketPath}`, n: 7 },
      { source: `docker:${tls.url}`, n: 7 },
    ]);
  });

  it("syncs an engine that requires a client certificate with the one sealed in the credential, and never repeats it", async () => {
    const id = await dockerConfig(verify.url, { ca_cert: cert.cert });
    const without = await syncDockerProvider(ctx(), id);
    expect(without.ok).toBe(false);
    const sealed = await sealSecret(a.t.runtime.deps.vault, INTEGRATION_CONFIG_CREDENTIAL, id, JSON.stringify(client));
    await a.t.sql`update integration_configs set credential = ${sealed} where id = ${id}`;
    const out = await syncDockerProvider(ctx(), id);
    expect(out).toMatchObject({ ok: true, source: `docker:${verify.url}`, containers: 3 });
    const row = await configRow(id);
    expect(row).toMatchObject({ last_sync_status: "ok", last_sync_error: null });
    expect(JSON.stringify(row)).not.toContain("PRIVATE KEY");
  });

  it("answers 404 for a config that is not a Docker one", async () => {
    const [hv] = await a.t.sql<
      { id: number }[]
    >`insert into integration_configs (type, name, config_url) values ('hv', 'pve', 'https://pve.lab:8006') returning id`;
    await expect(syncDockerProvider(ctx(), hv!.id)).rejects.toMatchObject({ status: 404, detail: "Integration config not found" });
    await expect(syncDockerProvider(ctx(), 987654)).rejects.toMatchObject({ status: 404 });
  });
});
