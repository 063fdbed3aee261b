// Provider configs (/integrations/{provider}/config*, spec/catalogue.tsv, group integrations) against the fake Docker
// engine on its unix socket and the fake Proxmox VE API on 127.0.44.x: CRUD, the sealed credential, the
// URL checks (422 naming the field, nothing stored), the provider's 400, test with latency, and scopes.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Actors, createActors } from "../../helpers/actors.ts";
import { type FakeDocker, startFakeDocker } from "../../helpers/fake-docker.ts";
import { FAKE_PVE_TOKEN, type FakePve, startFakePve } from "../../helpers/fake-pve.ts";

let a: Actors;
let docker: FakeDocker;
let pve: FakePve;

const configCount = async () => Number((await a.t.sql`select count(*)::int as n from integration_configs`)[0]!.n);

beforeAll(async () => {
  a = await createActors();
  docker = await startFakeDocker();
  pve = await startFakePve({ host: "127.0.44.5" });
});
afterAll(async () => {
  await docker?.close();
  await pve?.close();
  await a?.t.close();
});

describe("provider configs", () => {
  it("creates, reads, lists, changes and deletes a docker config; the credential is sealed and never returned", async () => {
    const created = await a.req("POST", "integrations/docker/config", a.admin, {
      name: "engine",
      config_url: `unix://${docker.socketPath}`,
      credential_value: "{}",
      sync_interval_s: 600,
    });
    expect(created.status).toBe(200);
    const body = await created.json();
    expect(body).toMatchObject({
      type: "docker",
      name: "engine",
      config_url: `unix://${docker.socketPath}`,
      credential_type: "api_key",
      credential_id: null,
      credential_set: true,
      auto_sync: true,
      sync_interval_s: 600,
      last_sync_status: null,
      extra_config: {},
    });
    expect(JSON.stringify(body)).not.toContain("credential_value");
    const [row] = await a.t.sql`select credential, next_sync_at from integration_configs where id = ${body.id}`;
    expect(row!.credential).toMatch(/^vault:v1:/);
    expect(row!.next_sync_at).not.toBeNull();

    const list = await (await a.req("GET", "integrations/docker/config", a.viewer)).json();
    expect(list.map((c: { id: number }) => c.id)).toEqual([body.id]);
    expect(await (await a.req("GET", "integrations/hv/config", a.viewer)).json()).toEqual([]);
    expect((await a.req("GET", `integrations/docker/config/${body.id}`, a.viewer)).status).toBe(200);
    // Another provider's id is not found under this one.
    const other = await a.req("GET", `integrations/hv/config/${body.id}`, a.viewer);
    expect(other.status).toBe(404);
    expect((await other.json()).detail).toBe("Integration config not found");

    const put = await a.req("PUT", `integrations/docker/config/${body.id}`, a.admin, {
      name: "engine 2",
      credential_value: null,
      auto_sync: false,
    });
    expect(put.status).toBe(200);
    expect(await put.json()).toMatchObject({ name: "engine 2", credential_set: false, auto_sync: false, sync_interval_s: 600 });
    expect((await a.t.sql`select next_sync_at from integration_configs where id = ${body.id}`)[0]!.next_sync_at).toBeNull();

    const del = await a.req("DELETE", `integrations/docker/config/${body.id}`, a.admin);
    expect(del.status).toBe(200);
    expect(await del.json()).toEqual({ detail: "deleted" });
    expect((await a.req("GET", `integrations/docker/config/${body.id}`, a.viewer)).status).toBe(404);
    const audit = await a.t
      .sql`select action from audit_log where entity_type = 'integration_config' and entity_id = ${String(body.id)} order by id`;
    expect(audit.map((r) => r.action)).toEqual([
      "integrations.docker.config.created",
      "integrations.docker.config.updated",
      "integrations.docker.config.deleted",
    ]);
  });

  it("an unknown provider is the reference's 400", async () => {
    for (const [method, path] of [
      ["GET", "integrations/proxmox/config"],
      ["POST", "integrations/vmware/config"],
      ["GET", "integrations/x/config/1"],
    ] as const) {
      const res = await a.req(method, path, a.admin, method === "POST" ? { name: "n", config_url: "https://h" } : undefined);
      expect(res.status, path).toBe(400);
      expect((await res.json()).detail).toMatch(/^Invalid provider '(proxmox|vmware|x)'\. Must be one of: \[hv, docker\]$/);
    }
  });

  it("bad input is a 422 naming the field and stores nothing", async () => {
    const before = await configCount();
    const cases: [string, Record<string, unknown>, string][] = [
      ["docker", { name: "d", config_url: "http://host:2375" }, "config_url"],
      ["docker", { name: "d", config_url: "unix://relative.sock" }, "config_url"],
      ["docker", { name: "d", config_url: "tcp://169.254.169.254:2376" }, "config_url"],
      ["hv", { name: "p", config_url: "https://169.254.169.254:8006" }, "config_url"],
      ["hv", { name: "p", config_url: "ftp://pve" }, "config_url"],
      ["hv", { name: "p", config_url: "https://pve", credential_value: "no-token-format" }, "credential_value"],
      ["docker", { name: "d", config_url: "unix:///x.sock", sync_interval_s: 10 }, "sync_interval_s"],
      ["docker", { name: "d", config_url: "unix:///x.sock", sync_interval_s: 86_401 }, "sync_interval_s"],
      ["docker", { name: "", config_url: "unix:///x.sock" }, "name"],
      ["docker", { name: "d", config_url: "unix:///x.sock", ca_cert: "not a pem" }, "ca_cert"],
      ["docker", { name: "d", config_url: "unix:///x.sock", credential_type: "password" }, "credential_type"],
      ["docker", { name: "d", config_url: "unix:///x.sock", surprise: 1 }, "surprise"],
    ];
    for (const [provider, body, field] of cases) {
      const res = await a.req("POST", `integrations/${provider}/config`, a.admin, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      const err = await res.json();
      expect(Object.keys(err.fields), JSON.stringify(body)).toContain(field);
    }
    expect(await configCount()).toBe(before);
  });

  it("test answers ok with the latency from the docker engine and the hypervisor, error when it cannot connect", async () => {
    const d = await (
      await a.req("POST", "integrations/docker/config", a.admin, { name: "sock", config_url: `unix://${docker.socketPath}` })
    ).json();
    const ok = await a.req("POST", `integrations/docker/config/${d.id}/test`, a.admin);
    expect(ok.status).toBe(200);
    const out = await ok.json();
    expect(out).toMatchObject({ status: "ok", message: "Docker 24.0.7 (API 1.43)" });
    expect(out.latency_ms).toBeGreaterThanOrEqual(0);

    const gone = await (
      await a.req("POST", "integrations/docker/config", a.admin, { name: "gone", config_url: "unix:///tmp/no-such-docker-g2.sock" })
    ).json();
    const err = await (await a.req("POST", `integrations/docker/config/${gone.id}/test`, a.admin)).json();
    expect(err.status).toBe("error");
    expect(err.message.length).toBeGreaterThan(0);

    const hv = await (
      await a.req("POST", "integrations/hv/config", a.admin, {
        name: "pve",
        config_url: pve.url,
        credential_value: FAKE_PVE_TOKEN,
        verify_ssl: false,
      })
    ).json();
    expect(hv).toMatchObject({ type: "hv", credential_type: "proxmox_api", credential_set: true, config_url: pve.url });
    const hvOk = await (await a.req("POST", `integrations/hv/config/${hv.id}/test`, a.admin)).json();
    expect(hvOk).toMatchObject({ status: "ok" });
    expect(hvOk.message).toContain(pve.state.version.version);
    expect(JSON.stringify(hvOk)).not.toContain(FAKE_PVE_TOKEN.split("=")[1]);
  });

  it("401 without a token, 403 for a viewer or editor writing, 404 for a missing config", async () => {
    expect((await a.req("GET", "integrations/docker/config")).status).toBe(401);
    expect((await a.req("POST", "integrations/docker/config", a.viewer, { name: "v", config_url: "unix:///x.sock" })).status).toBe(403);
    expect((await a.req("POST", "integrations/docker/config", a.editor, { name: "e", config_url: "unix:///x.sock" })).status).toBe(403);
    expect((await a.req("DELETE", "integrations/docker/config/999999", a.admin)).status).toBe(404);
    expect((await a.req("PUT", "integrations/docker/config/999999", a.admin, { name: "x" })).status).toBe(404);
    expect((await a.req("POST", "integrations/docker/config/999999/test", a.admin)).status).toBe(404);
  });
});
