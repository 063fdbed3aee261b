// The hypervisor routes (/integrations/hv*, spec/catalogue.tsv, group hypervisor integration) against the fake Proxmox VE API
// (tests/helpers/fake-pve.ts, a recorded 3-node cluster on 127.0.44.x over HTTPS with a self-signed
// certificate): configs, test (ok, refused token, malformed token, untrusted certificate, the CA given),
// status, the cluster overview and its 90 s cache, guest actions behind the confirmation headers.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Actors, createActors } from "../../helpers/actors.ts";
import { FAKE_PVE_CERT, FAKE_PVE_TOKEN, type FakePve, startFakePve } from "../../helpers/fake-pve.ts";

let a: Actors;
let pve: FakePve;

const SECRET = FAKE_PVE_TOKEN.split("=")[1]!;

async function addHv(fields: Record<string, unknown> = {}): Promise<{ id: number } & Record<string, unknown>> {
  const res = await a.req("POST", "integrations/hv", a.admin, {
    name: "homelab",
    config_url: pve.url,
    api_token: FAKE_PVE_TOKEN,
    verify_ssl: false,
    ...fields,
  });
  expect(res.status).toBe(200);
  return res.json();
}

const confirm = (action: string, key: string) => ({ "x-svc-confirmation": `hv-guest-${action}`, "idempotency-key": key });

beforeAll(async () => {
  a = await createActors();
  pve = await startFakePve({ host: "127.0.44.6" });
});
afterAll(async () => {
  await pve?.close();
  await a?.t.close();
});

describe("hypervisor configs", () => {
  it("creates, reads, changes and deletes; the token is sealed and never returned; delete drops only its external_refs", async () => {
    const hv = await addHv({ config_url: `${pve.url}/` });
    expect(hv).toMatchObject({
      type: "hv",
      name: "homelab",
      config_url: pve.url,
      auto_sync: true,
      sync_interval_s: 300,
      verify_ssl: false,
      api_token_set: true,
      last_sync_status: null,
    });
    expect(JSON.stringify(hv)).not.toContain(SECRET);
    const [row] = await a.t.sql`select credential, credential_type from integration_configs where id = ${hv.id}`;
    expect(row).toMatchObject({ credential_type: "proxmox_api" });
    expect(row!.credential).toMatch(/^vault:v1:/);

    const list = await (await a.req("GET", "integrations/hv", a.viewer)).json();
    expect(list.map((c: { id: number }) => c.id)).toContain(hv.id);
    const one = await (await a.req("GET", `integrations/hv/${hv.id}`, a.viewer)).json();
    expect(one).toEqual(hv);
    const put = await (await a.req("PUT", `integrations/hv/${hv.id}`, a.admin, { name: "renamed", sync_interval_s: 3600 })).json();
    expect(put).toMatchObject({ name: "renamed", sync_interval_s: 3600, api_token_set: true });

    await a.t
      .sql`insert into external_refs (source, external_id, entity_type, entity_id) values (${`hv:${hv.id}`}, 'qemu/101', 'compute_unit', 424242), ('docker:/x.sock', 'abc', 'compute_unit', 434343)`;
    const del = await a.req("DELETE", `integrations/hv/${hv.id}`, a.admin);
    expect(del.status).toBe(200);
    expect(await del.json()).toEqual({ ok: true });
    expect((await a.req("GET", `integrations/hv/${hv.id}`, a.viewer)).status).toBe(404);
    const refs = await a.t.sql`select source from external_refs where entity_id in (424242, 434343)`;
    expect(refs.map((r) => r.source)).toEqual(["docker:/x.sock"]);
  });

  it("bad input is a 422 naming the field and stores nothing", async () => {
    const before = Number((await a.t.sql`select count(*)::int as n from integration_configs`)[0]!.n);
    for (const [body, field] of [
      [{ name: "x", config_url: pve.url, api_token: "root@pam:secret" }, "api_token"],
      [{ name: "x", config_url: "https://169.254.169.254", api_token: FAKE_PVE_TOKEN }, "config_url"],
      [{ name: "x", config_url: "https://pve/some/path", api_token: FAKE_PVE_TOKEN }, "config_url"],
      [{ name: "x", config_url: pve.url, api_token: FAKE_PVE_TOKEN, sync_interval_s: 5 }, "sync_interval_s"],
      [{ name: "x", config_url: pve.url }, "api_token"],
    ] as const) {
      const res = await a.req("POST", "integrations/hv", a.admin, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(Object.keys((await res.json()).fields)).toContain(field);
    }
    expect(Number((await a.t.sql`select count(*)::int as n from integration_configs`)[0]!.n)).toBe(before);
  });
});

describe("hypervisor test", () => {
  it("answers version, release and cluster name; a refused token or an untrusted certificate is ok=false; the CA given is trusted", async () => {
    const hv = await addHv();
    const ok = await a.req("POST", `integrations/hv/${hv.id}/test`, a.admin);
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ ok: true, version: "8.2.4", release: "8.2", cluster_name: "homelab", error: null });

    const wrong = await addHv({ api_token: "root@pam!inventory=wrong-secret" });
    const refused = await (await a.req("POST", `integrations/hv/${wrong.id}/test`, a.admin)).json();
    expect(refused).toMatchObject({ ok: false, version: null });
    expect(refused.error).toMatch(/401/);
    expect(refused.error).not.toContain("wrong-secret");

    const strict = await addHv({ verify_ssl: true });
    const untrusted = await (await a.req("POST", `integrations/hv/${strict.id}/test`, a.admin)).json();
    expect(untrusted.ok).toBe(false);
    expect(untrusted.error).toMatch(/certificate/i);
    await a.req("PUT", `integrations/hv/${strict.id}`, a.admin, { ca_cert: FAKE_PVE_CERT });
    expect((await (await a.req("POST", `integrations/hv/${strict.id}/test`, a.admin)).json()).ok).toBe(true);
  });

  it("a stored token that is missing or malformed is the reference's 400", async () => {
    const hv = await addHv();
    // The provider route may clear the credential; the hypervisor route then has no token to use.
    expect((await a.req("PUT", `integrations/hv/config/${hv.id}`, a.admin, { credential_value: null })).status).toBe(200);
    const res = await a.req("POST", `integrations/hv/${hv.id}/test`, a.admin);
    expect(res.status).toBe(400);
    expect((await res.json()).detail).toBe("Invalid Proxmox API token format. Expected: user@realm!tokenname=secret");
  });
});

describe("hypervisor discover", () => {
  it("imports the cluster through the route, records the run, and status follows it; delete keeps the imported rows", async () => {
    const hv = await addHv();
    const res = await a.req("POST", `integrations/hv/${hv.id}/discover`, a.admin);
    expect(res.status).toBe(200);
    const out = await res.json();
    expect(out).toMatchObject({
      ok: true,
      cluster_name: "homelab",
      nodes_imported: 3,
      vms_imported: 3,
      cts_imported: 3,
      results_queued: 0,
      review_job_id: null,
      errors: [],
    });
    expect(out.rows_written).toBeGreaterThan(0);
    const run = await (await a.req("GET", `discovery/proxmox-runs/${out.run_id}`, a.viewer)).json();
    expect(run).toMatchObject({
      id: out.run_id,
      integration_id: hv.id,
      status: "completed",
      trigger: "manual",
      triggered_by: "admin@example.com",
    });
    const status = await (await a.req("GET", `integrations/hv/${hv.id}/status`, a.viewer)).json();
    expect(status).toMatchObject({
      integration_id: hv.id,
      cluster_name: "homelab",
      nodes_count: 3,
      vms_count: 3,
      cts_count: 3,
      storage_count: out.storage_imported,
    });

    const refs = Number((await a.t.sql`select count(*)::int as n from external_refs where source = ${`hv:${hv.id}`}`)[0]!.n);
    expect(refs).toBeGreaterThan(0);
    const units = Number((await a.t.sql`select count(*)::int as n from compute_units`)[0]!.n);
    expect((await a.req("DELETE", `integrations/hv/${hv.id}`, a.admin)).status).toBe(200);
    expect(Number((await a.t.sql`select count(*)::int as n from external_refs where source = ${`hv:${hv.id}`}`)[0]!.n)).toBe(0);
    expect(Number((await a.t.sql`select count(*)::int as n from compute_units`)[0]!.n)).toBe(units);
    expect((await a.req("GET", `discovery/proxmox-runs/${out.run_id}`, a.viewer)).status).toBe(200);
  });

  it("a malformed stored token is the reference's 400 and records no run; a missing config 404; a viewer 403", async () => {
    const hv = await addHv();
    await a.req("PUT", `integrations/hv/config/${hv.id}`, a.admin, { credential_value: null });
    const runs = async () => Number((await a.t.sql`select count(*)::int as n from hv_discover_runs`)[0]!.n);
    const before = await runs();
    const res = await a.req("POST", `integrations/hv/${hv.id}/discover`, a.admin);
    expect(res.status).toBe(400);
    expect((await res.json()).detail).toBe("Invalid Proxmox API token format. Expected: user@realm!tokenname=secret");
    expect(await runs()).toBe(before);
    const missing = await a.req("POST", "integrations/hv/999999/discover", a.admin);
    expect(missing.status).toBe(404);
    expect((await missing.json()).detail).toBe("Integration not found");
    expect((await a.req("POST", `integrations/hv/${hv.id}/discover`, a.viewer)).status).toBe(403);
  });
});

describe("hypervisor status and overview", () => {
  it("status counts the newest completed discover run", async () => {
    const hv = await addHv();
    expect(await (await a.req("GET", `integrations/hv/${hv.id}/status`, a.viewer)).json()).toEqual({
      integration_id: hv.id,
      last_sync_at: null,
      last_sync_status: null,
      cluster_name: null,
      nodes_count: 0,
      vms_count: 0,
      cts_count: 0,
      storage_count: 0,
    });
    await a.t
      .sql`insert into hv_discover_runs (integration_id, status, cluster_name, nodes_imported, vms_imported, cts_imported, storage_imported) values (${hv.id}, 'completed', 'homelab', 3, 3, 3, 7), (${hv.id}, 'failed', null, 0, 0, 0, 0)`;
    expect(await (await a.req("GET", `integrations/hv/${hv.id}/status`, a.viewer)).json()).toMatchObject({
      cluster_name: "homelab",
      nodes_count: 3,
      vms_count: 3,
      cts_count: 3,
      storage_count: 7,
    });
  });

  it("the overview has the reference's shape and a second call within 90 s does not ask the cluster", async () => {
    const hv = await addHv();
    const before = pve.requests.length;
    const res = await a.req("GET", `integrations/hv/cluster-overview?integration_id=${hv.id}`, a.viewer);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.cluster).toEqual({
      name: "homelab",
      quorum: true,
      nodes_online: 3,
      nodes_total: 3,
      vms: 3,
      lxcs: 3,
      uptime: expect.any(Number),
    });
    expect(body.storage).toHaveLength(7); // the shared nas-nfs once
    expect(body.storage.find((s: { name: string }) => s.name === "nas-nfs")).toEqual({
      name: "nas-nfs",
      used_gb: 1024,
      total_gb: 4096,
      content: expect.any(String),
    });
    expect(body.problems.some((p: { problem: string }) => p.problem.includes("job errors"))).toBe(true);
    expect(body.time_series.cpu.pve1.length).toBeGreaterThan(0);
    expect(Object.keys(body.time_series)).toEqual(["cpu", "memory", "network_in", "network_out"]);
    const asked = pve.requests.length;
    expect(asked).toBeGreaterThan(before);
    expect(await (await a.req("GET", `integrations/hv/cluster-overview?integration_id=${hv.id}`, a.viewer)).json()).toEqual(body);
    expect(pve.requests.length).toBe(asked);

    expect((await a.req("GET", "integrations/hv/cluster-overview", a.viewer)).status).toBe(422);
    // A cluster that cannot be reached: a 400 with the reason, and a guest action answers ok=false.
    const down = await addHv({ config_url: "https://127.0.44.7:1" });
    const unreachable = await a.req("GET", `integrations/hv/cluster-overview?integration_id=${down.id}`, a.viewer);
    expect(unreachable.status).toBe(400);
    expect((await unreachable.json()).detail).toMatch(/^Cluster overview unavailable: .*127\.0\.44\.7/);
    const action = await a.req(
      "POST",
      `integrations/hv/${down.id}/nodes/pve1/qemu/101/action`,
      a.admin,
      { action: "start" },
      confirm("start", "g2-down-start-key"),
    );
    expect(action.status).toBe(200);
    expect(await action.json()).toMatchObject({ ok: false, error: expect.stringContaining("127.0.44.7") });
    expect((await a.req("GET", "integrations/hv/cluster-overview?integration_id=999999", a.viewer)).status).toBe(404);
  });
});

describe("guest actions", () => {
  it("need the confirmation headers, answer {ok, upid}, replay an idempotency key, and are audited", async () => {
    const hv = await addHv();
    const path = `integrations/hv/${hv.id}/nodes/pve1/qemu/101/action`;
    const bare = await a.req("POST", path, a.admin, { action: "stop" });
    expect(bare.status).toBe(428);
    expect(pve.actions).toHaveLength(0);

    const res = await a.req("POST", path, a.admin, { action: "stop" }, confirm("stop", "g2-stop-101-key"));
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.ok).toBe(true);
    expect(body.upid).toMatch(/^UPID:pve1:/);
    expect(pve.actions).toEqual([{ node: "pve1", type: "qemu", vmid: 101, action: "stop" }]);
    const replay = await a.req("POST", path, a.admin, { action: "stop" }, confirm("stop", "g2-stop-101-key"));
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(pve.actions).toHaveLength(1);

    // What Proxmox refuses is a 200 with ok=false (reset is qemu-only), still audited.
    const refused = await a.req(
      "POST",
      `integrations/hv/${hv.id}/nodes/pve1/lxc/200/action`,
      a.admin,
      { action: "reset" },
      confirm("reset", "g2-reset-200-key"),
    );
    expect(refused.status).toBe(200);
    const r = await refused.json();
    expect(r.ok).toBe(false);
    expect(r.error).toMatch(/501/);
    const audit = await a.t
      .sql`select action, level from audit_log where action like 'integrations.hv.guest.%' and entity_id = ${String(hv.id)} order by id`;
    expect(audit.map((x) => [x.action, x.level])).toEqual([
      ["integrations.hv.guest.stop", "info"],
      ["integrations.hv.guest.reset", "warning"],
    ]);
  });

  it("a wrong vm_type is 400, a wrong action 422, a viewer 403, anonymous 401, a missing config 404", async () => {
    const hv = await addHv();
    const bad = await a.req(
      "POST",
      `integrations/hv/${hv.id}/nodes/pve1/kvm/101/action`,
      a.admin,
      { action: "start" },
      confirm("start", "g2-vmtype-key-1"),
    );
    expect(bad.status).toBe(400);
    const wrongAction = await a.req(
      "POST",
      `integrations/hv/${hv.id}/nodes/pve1/qemu/101/action`,
      a.admin,
      { action: "explode" },
      confirm("explode", "g2-action-key-1"),
    );
    expect(wrongAction.status).toBe(422);
    expect(Object.keys((await wrongAction.json()).fields)).toContain("action");
    expect(
      (
        await a.req(
          "POST",
          `integrations/hv/${hv.id}/nodes/pve1/qemu/101/action`,
          a.viewer,
          { action: "start" },
          confirm("start", "g2-viewer-key-1"),
        )
      ).status,
    ).toBe(403);
    expect(
      (
        await a.req(
          "POST",
          `integrations/hv/${hv.id}/nodes/pve1/qemu/101/action`,
          undefined,
          { action: "start" },
          confirm("start", "g2-anon-key-1"),
        )
      ).status,
    ).toBe(401);
    expect(
      (
        await a.req(
          "POST",
          "integrations/hv/999999/nodes/pve1/qemu/101/action",
          a.admin,
          { action: "start" },
          confirm("start", "g2-missing-key-1"),
        )
      ).status,
    ).toBe(404);
    expect((await a.req("POST", "integrations/hv", a.editor, { name: "e", config_url: pve.url, api_token: FAKE_PVE_TOKEN })).status).toBe(
      403,
    );
    expect((await a.req("GET", "integrations/hv")).status).toBe(401);
    expect(pve.actions.filter((x) => x.action === "start")).toHaveLength(0);
  });
});
