// GET /discovery/proxmox-runs and /discovery/proxmox-runs/{run_id}: the hypervisor discover runs newest
// first as a plain array, filtered by provider config, `limit` from 1 (default 100; above 500 clamped to
// 500, docs/adr/0410; 0 or a non-integer: 422 naming limit), one run by id (404 "Proxmox discover run not found"), readable by every role, 401 without a token.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Actors, createActors } from "../../helpers/actors.ts";

let a: Actors;
let pve: number;
let other: number;
const runs: number[] = [];

async function run(integrationId: number | null, fields: { status?: string; trigger?: string; errors?: string[] } = {}): Promise<number> {
  const [row] = await a.t.sql<{ id: number }[]>`
    insert into hv_discover_runs (integration_id, status, trigger, triggered_by, completed_at, cluster_name, nodes_imported, vms_imported, cts_imported, rows_written, vanished, errors)
    values (${integrationId}, ${fields.status ?? "completed"}, ${fields.trigger ?? "scheduled"}, 'scheduler', now(), 'lab', 3, 12, 4, 19,
      ${a.t.sql.json([{ entity_type: "compute_unit", entity_id: 7, external_id: "qemu/101", name: "old-vm" }])}, ${a.t.sql.json(fields.errors ?? [])})
    returning id`;
  return row!.id;
}

beforeAll(async () => {
  a = await createActors();
  const configs = await a.t.sql<
    { id: number }[]
  >`insert into integration_configs (type, name, config_url) values ('hv', 'pve', 'https://pve.lab:8006'), ('hv', 'pve2', 'https://pve2.lab:8006') returning id`;
  pve = configs[0]!.id;
  other = configs[1]!.id;
  runs.push(
    await run(pve),
    await run(other, { status: "failed", errors: ["401 Unauthorized: bad token"] }),
    await run(pve, { trigger: "manual" }),
    await run(pve, { status: "running" }),
  );
});
afterAll(async () => {
  await a?.t.close();
});

describe("GET /discovery/proxmox-runs", () => {
  it("answers every run newest first, with the reference's fields and ours", async () => {
    const res = await a.req("GET", "discovery/proxmox-runs", a.viewer);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.map((r: { id: number }) => r.id)).toEqual([...runs].reverse());
    expect(body[3]).toEqual({
      id: runs[0],
      integration_id: pve,
      status: "completed",
      trigger: "scheduled",
      triggered_by: "scheduler",
      started_at: expect.any(String),
      completed_at: expect.any(String),
      cluster_name: "lab",
      nodes_imported: 3,
      vms_imported: 12,
      cts_imported: 4,
      networks_imported: 0,
      storage_imported: 0,
      rows_written: 19,
      vanished: [{ entity_type: "compute_unit", entity_id: 7, external_id: "qemu/101", name: "old-vm" }],
      errors: [],
      audit_id: null,
    });
  });

  it("filters by integration_id and bounds limit", async () => {
    const mine = await (await a.req("GET", `discovery/proxmox-runs?integration_id=${pve}`, a.viewer)).json();
    expect(mine.map((r: { id: number }) => r.id)).toEqual([runs[3], runs[2], runs[0]]);
    const theirs = await (await a.req("GET", `discovery/proxmox-runs?integration_id=${other}`, a.viewer)).json();
    expect(theirs).toEqual([expect.objectContaining({ id: runs[1], status: "failed", errors: ["401 Unauthorized: bad token"] })]);
    expect(await (await a.req("GET", "discovery/proxmox-runs?integration_id=999999", a.viewer)).json()).toEqual([]);
    const two = await (await a.req("GET", "discovery/proxmox-runs?limit=2", a.viewer)).json();
    expect(two.map((r: { id: number }) => r.id)).toEqual([runs[3], runs[2]]);
    expect((await a.req("GET", "discovery/proxmox-runs?limit=500", a.viewer)).status).toBe(200);
    expect((await a.req("GET", "discovery/proxmox-runs?limit=501", a.viewer)).status).toBe(200);
    for (const bad of ["0", "-1", "abc", "2.5"]) {
      const res = await a.req("GET", `discovery/proxmox-runs?limit=${bad}`, a.viewer);
      expect(res.status, bad).toBe(422);
      const body = await res.json();
      expect(body.error_code).toBe("VALIDATION_ERROR");
      expect(body.fields).toHaveProperty("limit");
    }
    const res = await a.req("GET", "discovery/proxmox-runs?integration_id=x", a.viewer);
    expect(res.status).toBe(422);
    expect((await res.json()).fields).toHaveProperty("integration_id");
  });

  it("needs a signed-in caller", async () => {
    expect((await a.req("GET", "discovery/proxmox-runs")).status).toBe(401);
    expect((await a.req("GET", `discovery/proxmox-runs/${runs[0]}`)).status).toBe(401);
  });
});

describe("GET /discovery/proxmox-runs/{run_id}", () => {
  it('answers one run, and 404 "Proxmox discover run not found" for an unknown id', async () => {
    const res = await a.req("GET", `discovery/proxmox-runs/${runs[1]}`, a.viewer);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ id: runs[1], integration_id: other, status: "failed", completed_at: expect.any(String) });
    for (const id of ["987654", "99999999999"]) {
      const missing = await a.req("GET", `discovery/proxmox-runs/${id}`, a.viewer);
      expect(missing.status, id).toBe(404);
      expect(await missing.json()).toMatchObject({ error_code: "RESOURCE_NOT_FOUND", detail: "Proxmox discover run not found" });
    }
    expect((await a.req("GET", "discovery/proxmox-runs/abc", a.viewer)).status).toBe(422);
  });
});
