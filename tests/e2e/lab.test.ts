// Issue 4's end-to-end scenario: build a small lab through HTTP only (hardware -> VMs -> services with
// dependencies, storage, a network) on the product started as the README says, and read it back through
// list, search, the graph and the blast radius.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jsonBody, killAll, type Product, SETUP_TOKEN, startProduct, tempDataDir } from "./helpers.ts";

const data = tempDataDir();
let p: Product;
let token = "";

async function call<T = Record<string, unknown>>(method: string, path: string, body?: unknown): Promise<T> {
  const init: RequestInit = body === undefined ? { method } : { ...jsonBody(body), method };
  init.headers = { ...(init.headers as Record<string, string>), authorization: `Bearer ${token}` };
  const res = await p.fetch(`/api/v1/${path}`, init);
  if (res.status >= 300) throw new Error(`${method} ${path} -> ${res.status} ${await res.text()}`);
  return (res.status === 204 ? {} : await res.json()) as T;
}

beforeAll(async () => {
  p = await startProduct({ DATA_DIR: data.dir, SVC_SETUP_TOKEN: SETUP_TOKEN });
  const init = await p.fetch(
    "/api/v1/bootstrap/initialize",
    jsonBody({ email: "lab@example.com", password: "a long lab admin password", setup_token: SETUP_TOKEN }),
  );
  expect(init.status).toBe(200);
  token = (await init.json()).token;
}, 90_000);

afterAll(async () => {
  await killAll();
  data.remove();
});

describe("a small lab through HTTP only", () => {
  it("builds it and reads it back", async () => {
    const host = await call<{ id: number }>("POST", "hardware", { name: "pve-lab", role: "hypervisor", memory_gb: 64, status: "up" });
    const nas = await call<{ id: number }>("POST", "hardware", { name: "nas-lab", role: "nas", status: "up" });
    const vm = await call<{ id: number }>("POST", "compute-units", {
      name: "vm-apps",
      kind: "vm",
      hardware_id: host.id,
      memory_mb: 8192,
      cpu_cores: 4,
    });
    const db = await call<{ id: number; slug: string }>("POST", "services", { name: "Postgres DB", compute_id: vm.id, status: "running" });
    const app = await call<{ id: number }>("POST", "services", {
      name: "Wiki",
      compute_id: vm.id,
      status: "running",
      ports: [{ port: 443 }],
    });
    await call("POST", `services/${app.id}/dependencies`, { depends_on_id: db.id });
    const pool = await call<{ id: number }>("POST", "storage", {
      name: "tank",
      kind: "pool",
      capacity_gb: 4000,
      used_gb: 1200,
      hardware_id: nas.id,
    });
    await call("POST", `services/${db.id}/storage`, { storage_id: pool.id });
    const lan = await call<{ id: number }>("POST", "networks", { name: "lab-lan", cidr: "192.168.50.0/24", gateway: "192.168.50.1" });
    await call("POST", `networks/${lan.id}/hardware-members`, { hardware_id: host.id });
    await call("POST", `networks/${lan.id}/hardware-members`, { hardware_id: nas.id });
    expect(db.slug).toBe("postgres-db");

    const services = await call<{ total: number; items: { name: string }[] }>("GET", "services?sort=name");
    expect(services.items.map((s) => s.name)).toEqual(["Postgres DB", "Wiki"]);
    const vms = await call<{ total: number }>("GET", `compute-units?hardware_id=${host.id}`);
    expect(vms.total).toBe(1);

    const found = await call<{ results: { type: string; name: string }[] }>("GET", "search?q=lab");
    expect(found.results.map((r) => `${r.type}:${r.name}`)).toEqual(
      expect.arrayContaining(["hardware:pve-lab", "hardware:nas-lab", "network:lab-lan"]),
    );

    const graph = await call<{ nodes: { id: string }[]; edges: { source: string; target: string; relation: string }[] }>(
      "GET",
      "graph/topology",
    );
    expect(graph.nodes).toHaveLength(7);
    const relations = graph.edges.map((e) => `${e.source}>${e.target}:${e.relation}`).sort();
    expect(relations).toEqual(
      [
        `hw-${host.id}>cu-${vm.id}:hosts`,
        `cu-${vm.id}>svc-${db.id}:runs`,
        `cu-${vm.id}>svc-${app.id}:runs`,
        `svc-${app.id}>svc-${db.id}:depends_on`,
        `svc-${db.id}>st-${pool.id}:uses`,
        `hw-${nas.id}>st-${pool.id}:has_storage`,
        `hw-${host.id}>net-${lan.id}:on_network`,
        `hw-${nas.id}>net-${lan.id}:on_network`,
      ].sort(),
    );

    const blast = await call<{ total_impact_count: number; summary: string }>("GET", `intel/blast-radius/hardware/${host.id}`);
    // The NAS shares the network; the VM, both services and the NAS's pool all follow.
    expect(blast.total_impact_count).toBe(5);
    expect(blast.summary).toBe('Hardware node "pve-lab" is up; if it goes DOWN: 1 VM and 2 services affected, plus 2 other assets.');
  });
});
