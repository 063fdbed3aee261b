import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Actors, createActors } from "../../helpers/actors.ts";

let a: Actors;
beforeAll(async () => {
  a = await createActors();
});
afterAll(async () => a.t.close());

let seq = 0;
/** Creates a service (editor) and answers its body. */
async function service(body: Record<string, unknown> = {}) {
  const res = await a.req("POST", "services", a.editor, { name: `svc-${++seq}`, ...body });
  expect(res.status, JSON.stringify(await res.clone().json())).toBe(201);
  return res.json();
}
const depend = (from: number, to: number, token = a.editor) => a.req("POST", `services/${from}/dependencies`, token, { depends_on_id: to });
const one = async <T = Record<string, unknown>>(query: Promise<T[]>) => (await query)[0]!;

describe("services: happy", () => {
  it("creates with a derived slug, reads, lists, patches and deletes", async () => {
    const [env] = await a.t.sql`insert into environments (name) values ('production') returning id`;
    const created = await a.req("POST", "services", a.editor, {
      name: "Grafana Dashboards",
      environment: "prod",
      environment_id: env!.id,
      status: "running",
      url: "https://grafana.lab",
      ip_address: "10.0.0.10",
      ports: [{ port: 3000 }, { ip: "10.0.0.10", port: 53, protocol: "udp", label: "dns" }],
      tags: ["monitoring", "monitoring"],
    });
    expect(created.status).toBe(201);
    expect(created.headers.get("etag")).toBe('W/"1"');
    const svc = await created.json();
    expect(svc).toMatchObject({
      name: "Grafana Dashboards",
      slug: "grafana-dashboards",
      environment: "prod",
      environment_id: env!.id,
      environment_name: "production",
      status: "running",
      ports: [
        { ip: null, port: 3000, protocol: "tcp", label: null },
        { ip: "10.0.0.10", port: 53, protocol: "udp", label: "dns" },
      ],
      tags: ["monitoring"],
      version: 1,
    });

    expect(await (await a.req("GET", `services/${svc.id}`, a.viewer)).json()).toEqual(svc);

    // A client sends the whole record back: read-only fields are ignored, only what changed changes.
    const patched = await a.req("PATCH", `services/${svc.id}`, a.editor, { ...svc, name: "Grafana", status: "degraded" });
    expect(patched.status).toBe(200);
    expect(await patched.json()).toMatchObject({
      name: "Grafana",
      slug: "grafana-dashboards",
      status: "degraded",
      url: "https://grafana.lab",
      version: 2,
    });

    const page = await (await a.req("GET", "services?q=GRAF&status=degraded&environment=prod&tag=monitoring", a.viewer)).json();
    expect(page).toMatchObject({ total: 1, limit: 25, offset: 0, sort: "name", direction: "asc" });
    expect(page.items[0].id).toBe(svc.id);

    expect((await a.req("DELETE", `services/${svc.id}`, a.admin)).status).toBe(204);
    expect((await a.req("GET", `services/${svc.id}`, a.viewer)).status).toBe(404);
    const audit = await a.t.sql`select action from audit_log where entity_type = 'service' and entity_id = ${String(svc.id)} order by id`;
    expect(audit.map((r) => r.action)).toEqual(["service.create", "service.update", "service.delete"]);
  });

  it("makes derived slugs unique with -2, -3 and keeps the slug when the name changes", async () => {
    const first = await service({ name: "Home Assistant" });
    const second = await service({ name: "home   assistant!" });
    const third = await service({ name: "Home-Assistant" });
    expect([first.slug, second.slug, third.slug]).toEqual(["home-assistant", "home-assistant-2", "home-assistant-3"]);
    expect((await service({ name: "Café Crème" })).slug).toBe("cafe-creme");
    expect((await service({ name: "???" })).slug).toBe("service");
    const explicit = await service({ name: "Anything", slug: "custom-slug" });
    expect(explicit.slug).toBe("custom-slug");
    const renamed = await (await a.req("PATCH", `services/${first.id}`, a.editor, { name: "HA" })).json();
    expect(renamed.slug).toBe("home-assistant");
    const reslugged = await a.req("PATCH", `services/${first.id}`, a.editor, { slug: "ha" });
    expect((await reslugged.json()).slug).toBe("ha");
    // Keeping its own slug is not a conflict.
    expect((await a.req("PATCH", `services/${first.id}`, a.editor, { slug: "ha" })).status).toBe(200);
  });

  it("filters by hardware, compute unit, category and environment id", async () => {
    const [hw] = await a.t.sql`insert into hardware (name) values ('filter-host') returning id`;
    const [cu] = await a.t.sql`insert into compute_units (name, kind, hardware_id) values ('filter-vm', 'vm', ${hw!.id}) returning id`;
    const [cat] = await a.t.sql`insert into categories (name) values ('filter-cat') returning id`;
    const [env] = await a.t.sql`insert into environments (name) values ('filter-env') returning id`;
    const onHw = await service({ hardware_id: hw!.id });
    const onCu = await service({ hardware_id: hw!.id, compute_id: cu!.id, category_id: cat!.id, environment_id: env!.id });
    const ids = async (q: string) => (await (await a.req("GET", `services?${q}`, a.viewer)).json()).items.map((s: { id: number }) => s.id);
    expect(await ids(`hardware_id=${hw!.id}`)).toEqual([onHw.id, onCu.id]);
    expect(await ids(`compute_id=${cu!.id}`)).toEqual([onCu.id]);
    expect(await ids(`category_id=${cat!.id}`)).toEqual([onCu.id]);
    expect(await ids(`environment_id=${env!.id}`)).toEqual([onCu.id]);
    // A compute unit without a hardware node given is fine: what is stored is kept.
    const cuOnly = await service({ compute_id: cu!.id });
    expect(cuOnly).toMatchObject({ compute_id: cu!.id, hardware_id: null });
  });

  it("adds, lists both directions and removes dependencies", async () => {
    const web = await service({ name: "dep-web" });
    const api = await service({ name: "dep-api", status: "degraded" });
    const db = await service({ name: "dep-db" });
    const added = await depend(web.id, api.id);
    expect(added.status).toBe(201);
    expect(await added.json()).toMatchObject({ service_id: web.id, depends_on_id: api.id });
    expect((await depend(web.id, db.id)).status).toBe(201);
    expect((await depend(api.id, db.id)).status).toBe(201);

    const deps = await (await a.req("GET", `services/${web.id}/dependencies`, a.viewer)).json();
    expect(deps.map((d: { name: string }) => d.name)).toEqual(["dep-api", "dep-db"]);
    expect(deps[0]).toMatchObject({ id: api.id, slug: "dep-api", status: "degraded" });
    const dependents = await (await a.req("GET", `services/${db.id}/dependencies?direction=dependents`, a.viewer)).json();
    expect(dependents.map((d: { id: number }) => d.id)).toEqual([api.id, web.id]);

    expect((await a.req("DELETE", `services/${web.id}/dependencies/${api.id}`, a.editor)).status).toBe(204);
    const gone = await a.req("DELETE", `services/${web.id}/dependencies/${api.id}`, a.editor);
    expect(gone.status).toBe(404);
    expect((await gone.json()).detail).toBe(`Dependency of service ${web.id} on service ${api.id} was not found.`);
    const audit = await a.t
      .sql`select action, diff from audit_log where action like 'service.dependency.%' and entity_id = ${String(web.id)} order by id`;
    expect(audit.map((r) => r.action)).toEqual(["service.dependency.create", "service.dependency.create", "service.dependency.delete"]);
  });

  it("links storage, misc items and external nodes", async () => {
    const svc = await service();
    const [st] = await a.t.sql`insert into storage (name, kind) values ('tank', 'pool') returning id`;
    const [misc] = await a.t.sql`insert into misc_items (name, kind) values ('ups', 'power') returning id`;
    const [ext] = await a.t.sql`insert into external_nodes (name, kind) values ('cloudflare', 'cdn') returning id`;

    const s = await a.req("POST", `services/${svc.id}/storage`, a.editor, { storage_id: st!.id, mount_path: "/data" });
    expect(s.status).toBe(201);
    expect(await s.json()).toEqual({ service_id: svc.id, storage_id: st!.id, mount_path: "/data", name: "tank", kind: "pool" });
    expect(await (await a.req("GET", `services/${svc.id}/storage`, a.viewer)).json()).toEqual([
      { service_id: svc.id, storage_id: st!.id, mount_path: "/data", name: "tank", kind: "pool" },
    ]);

    const m = await a.req("POST", `services/${svc.id}/misc`, a.editor, { misc_id: misc!.id });
    expect(m.status).toBe(201);
    expect(await (await a.req("GET", `services/${svc.id}/misc`, a.viewer)).json()).toEqual([
      { service_id: svc.id, misc_id: misc!.id, name: "ups", kind: "power" },
    ]);

    const e = await a.req("POST", `services/${svc.id}/external-dependencies`, a.editor, {
      external_node_id: ext!.id,
      description: "DNS and proxy",
    });
    expect(e.status).toBe(201);
    const relation = await e.json();
    expect(relation).toMatchObject({
      id: expect.any(Number),
      service_id: svc.id,
      external_node_id: ext!.id,
      description: "DNS and proxy",
      name: "cloudflare",
    });
    expect(await (await a.req("GET", `services/${svc.id}/external-dependencies`, a.viewer)).json()).toEqual([relation]);

    expect((await a.req("DELETE", `services/${svc.id}/storage/${st!.id}`, a.editor)).status).toBe(204);
    expect((await a.req("DELETE", `services/${svc.id}/misc/${misc!.id}`, a.editor)).status).toBe(204);
    expect((await a.req("DELETE", `services/${svc.id}/external-dependencies/${relation.id}`, a.editor)).status).toBe(204);
    for (const path of [`storage/${st!.id}`, `misc/${misc!.id}`, `external-dependencies/${relation.id}`])
      expect((await a.req("DELETE", `services/${svc.id}/${path}`, a.editor)).status).toBe(404);
    const audit = await a.t
      .sql`select action from audit_log where entity_type = 'service' and entity_id = ${String(svc.id)} and action like '%link' order by id`;
    expect(audit.map((r) => r.action)).toEqual([
      "service.storage.link",
      "service.misc.link",
      "service.external_dependency.link",
      "service.storage.unlink",
      "service.misc.unlink",
      "service.external_dependency.unlink",
    ]);
  });

  it("check-ip names every service, compute unit, hardware node and IPAM record using the address", async () => {
    const [hw] = await a.t.sql`insert into hardware (name, ip_address) values ('ip-host', '10.20.0.5/24') returning id`;
    const [cu] = await a.t.sql`insert into compute_units (name, kind, ip_address) values ('ip-vm', 'vm', '10.20.0.5') returning id`;
    const [ipam] = await a.t.sql`insert into ip_addresses (address, hostname) values ('10.20.0.5', 'ip-host.lab') returning id`;
    const own = await service({ name: "ip-own", ip_address: "10.20.0.5" });
    const viaPort = await service({ name: "ip-port", ports: [{ ip: "10.20.0.5", port: 443 }] });

    const res = await a.req("POST", "services/check-ip", a.editor, { ip_address: "10.20.0.5" });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      ip_address: "10.20.0.5",
      in_use: true,
      conflicts: [
        { type: "compute_unit", id: cu!.id, name: "ip-vm" },
        { type: "hardware", id: hw!.id, name: "ip-host" },
        { type: "ipam", id: ipam!.id, name: "ip-host.lab" },
        { type: "service", id: own.id, name: "ip-own" },
        { type: "service", id: viaPort.id, name: "ip-port" },
      ],
    });
    const excluded = await (
      await a.req("POST", "services/check-ip", a.editor, { ip_address: "10.20.0.5", exclude_service_id: own.id })
    ).json();
    expect(excluded.conflicts.map((c: { name: string }) => c.name)).not.toContain("ip-own");
    expect(await (await a.req("POST", "services/check-ip", a.editor, { ip_address: "10.20.0.99" })).json()).toEqual({
      ip_address: "10.20.0.99",
      in_use: false,
      conflicts: [],
    });
    // IPv6 spelled another way is the same address.
    const v6 = await service({ name: "ip-v6", ip_address: "2001:db8::7" });
    const found = await (await a.req("POST", "services/check-ip", a.editor, { ip_address: "2001:DB8:0:0:0:0:0:7" })).json();
    expect(found).toMatchObject({ ip_address: "2001:db8::7", in_use: true, conflicts: [{ type: "service", id: v6.id }] });
  });

  it("discovery answers what the inventory knows, and what scans saw at the service's and its host's addresses", async () => {
    const [hw] = await a.t.sql`insert into hardware (name, ip_address, status) values ('disc-host', '10.30.0.1', 'up') returning id`;
    const [cu] = await a.t
      .sql`insert into compute_units (name, kind, hardware_id, ip_address, status) values ('disc-vm', 'vm', ${hw!.id}, '10.30.0.2', 'running') returning id`;
    const [ipam] = await a.t
      .sql`insert into ip_addresses (address, status, hostname) values ('10.30.0.2/24', 'allocated', 'disc-vm.lab') returning id`;
    const svc = await service({ compute_id: cu!.id, hardware_id: hw!.id, ip_address: "10.30.0.2", ports: [{ port: 8080 }] });
    const res = await a.req("GET", `services/${svc.id}/discovery`, a.viewer);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({
      service_id: svc.id,
      ip_address: "10.30.0.2",
      ports: [{ port: 8080, protocol: "tcp" }],
      host: {
        type: "compute_unit",
        id: cu!.id,
        name: "disc-vm",
        ip_address: "10.30.0.2",
        kind: "vm",
        hardware: { id: hw!.id, name: "disc-host", ip_address: "10.30.0.1", status: "up" },
      },
      ipam: [{ id: ipam!.id, address: "10.30.0.2/24", hostname: "disc-vm.lab" }],
      findings: [],
    });
    expect(body.note).toMatch(/once a scan covers them/);
    // A scan that saw the VM's address shows up, with the service's port it found open.
    const [job] = await a.t.sql`insert into scan_jobs (status, targets) values ('completed', '["10.30.0.0/24"]') returning id`;
    const ports = [
      { port: 22, protocol: "tcp", banner: "SSH-2.0-OpenSSH_9.6" },
      { port: 8080, protocol: "tcp" },
    ];
    await a.t
      .sql`insert into scan_results (scan_job_id, ip_address, mac_address, open_ports) values (${job!.id}, '10.30.0.1', null, '[]'), (${job!.id}, '10.30.0.2', 'aa:bb:cc:00:00:02', ${a.t.sql.json(ports)})`;
    const seen = await (await a.req("GET", `services/${svc.id}/discovery`, a.viewer)).json();
    expect(seen.findings).toHaveLength(2);
    expect(seen.findings.find((f: { ip_address: string }) => f.ip_address === "10.30.0.2")).toMatchObject({
      scan_job_id: job!.id,
      mac_address: "aa:bb:cc:00:00:02",
      open_ports: ports,
      service_ports_open: [8080],
      state: "new",
      merge_status: "pending",
    });
    expect(seen.note).toMatch(/newest discovery result/);
    const bare = await (await a.req("GET", `services/${(await service()).id}/discovery`, a.viewer)).json();
    expect(bare).toMatchObject({ ip_address: null, ports: [], host: null, ipam: [], findings: [] });
  });

  it("discovery shows the host, IPAM and findings only to a caller who may read those kinds (issue 36 item 12)", async () => {
    const [hw] = await a.t.sql`insert into hardware (name, ip_address, status) values ('scoped-host', '10.31.0.1', 'up') returning id`;
    const [cu] = await a.t
      .sql`insert into compute_units (name, kind, hardware_id, ip_address, status) values ('scoped-vm', 'vm', ${hw!.id}, '10.31.0.2', 'running') returning id`;
    await a.t.sql`insert into ip_addresses (address, status, hostname) values ('10.31.0.2/24', 'allocated', 'scoped-vm.lab')`;
    const [job] = await a.t.sql`insert into scan_jobs (status, targets) values ('completed', '["10.31.0.0/24"]') returning id`;
    await a.t
      .sql`insert into scan_results (scan_job_id, ip_address, open_ports) values (${job!.id}, '10.31.0.1', '[]'), (${job!.id}, '10.31.0.2', '[]')`;
    const svc = await service({ compute_id: cu!.id, hardware_id: hw!.id, ip_address: "10.31.0.2" });
    const token = async (scopes: string[]) =>
      (await (await a.req("POST", "auth/api-token", a.admin, { label: scopes.join(" "), scopes })).json()).token as string;
    const servicesOnly = await (await a.req("GET", `services/${svc.id}/discovery`, await token(["read:services"]))).json();
    expect(servicesOnly).toMatchObject({ service_id: svc.id, host: null, ipam: [], findings: [] });
    expect(JSON.stringify(servicesOnly)).not.toMatch(/scoped-(host|vm)|10\.31\.0\.1/);
    const withCompute = await (await a.req("GET", `services/${svc.id}/discovery`, await token(["read:services", "read:compute"]))).json();
    expect(withCompute.host).toMatchObject({ type: "compute_unit", name: "scoped-vm", hardware: null });
    const all = await (
      await a.req(
        "GET",
        `services/${svc.id}/discovery`,
        await token(["read:services", "read:compute", "read:hardware", "read:networks", "read:discovery"]),
      )
    ).json();
    expect(all.host).toMatchObject({ name: "scoped-vm", hardware: { name: "scoped-host" } });
    expect(all.ipam).toHaveLength(1);
    expect(all.findings).toHaveLength(2);
  });

  it("deleting a service removes its edges (both directions) and links, and the audit counts them", async () => {
    const up = await service();
    const mid = await service();
    const down = await service();
    const [st] = await a.t.sql`insert into storage (name, kind) values ('cascade-disk', 'disk') returning id`;
    expect((await depend(up.id, mid.id)).status).toBe(201);
    expect((await depend(mid.id, down.id)).status).toBe(201);
    expect((await a.req("POST", `services/${mid.id}/storage`, a.editor, { storage_id: st!.id })).status).toBe(201);

    expect((await a.req("DELETE", `services/${mid.id}`, a.admin)).status).toBe(204);
    const edges = await one(a.t.sql`select count(*)::int as n from service_dependencies where ${mid.id} in (service_id, depends_on_id)`);
    expect(edges.n).toBe(0);
    expect((await one(a.t.sql`select count(*)::int as n from service_storage where service_id = ${mid.id}`)).n).toBe(0);
    expect(await (await a.req("GET", `services/${up.id}/dependencies`, a.viewer)).json()).toEqual([]);
    const unlink = await one(a.t.sql`select diff from audit_log where action = 'service.unlink' and entity_id = ${String(mid.id)}`);
    expect(unlink.diff).toMatchObject({
      removed: { dependency_edges: 2, dependencies: 1, dependents: 1, storage_links: 1, misc_links: 0, external_links: 0 },
      before: { depends_on_ids: [down.id], dependent_ids: [up.id] },
    });
  });
});

describe("services: errors", () => {
  it("404 names the resource and id", async () => {
    const res = await a.req("GET", "services/424242", a.viewer);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error_code: "RESOURCE_NOT_FOUND", detail: "Service 424242 was not found." });
    for (const path of ["dependencies", "storage", "misc", "external-dependencies", "discovery"])
      expect((await a.req("GET", `services/424242/${path}`, a.viewer)).status).toBe(404);
    expect((await depend(424242, 1)).status).toBe(404);
  });

  it("an explicit slug that is taken is a 409 naming slug, and nothing is stored", async () => {
    await service({ name: "taken", slug: "taken-slug" });
    const res = await a.req("POST", "services", a.editor, { name: "other", slug: "taken-slug" });
    expect(res.status).toBe(409);
    const body = await res.json();
    expect(body.detail).toContain('Slug "taken-slug" is already taken');
    expect(body.fields).toHaveProperty("slug");
    expect((await one(a.t.sql`select count(*)::int as n from services where name = 'other'`)).n).toBe(0);
  });

  it("422 names bad fields: slug, status, ports, unknown fields", async () => {
    const res = await a.req("POST", "services", a.editor, {
      name: "bad",
      slug: "Not A Slug",
      status: "exploded",
      ports: [{ port: 70000 }, { port: 22, protocol: "icmp" }],
    });
    expect(res.status).toBe(422);
    expect(Object.keys((await res.json()).fields).sort()).toEqual(["ports.0.port", "ports.1.protocol", "slug", "status"]);
    const unknown = await a.req("POST", "services", a.editor, {
      name: "bad",
      slug: "bad slug",
      colour: "red",
      environment_name: "ignored",
    });
    expect(Object.keys((await unknown.json()).fields).sort()).toEqual(["colour", "slug"]);
    expect((await one(a.t.sql`select count(*)::int as n from services where name = 'bad'`)).n).toBe(0);
  });

  it("missing references are 422 naming each field", async () => {
    const res = await a.req("POST", "services", a.editor, {
      name: "orphan",
      hardware_id: 9999,
      compute_id: 9998,
      environment_id: 9997,
      category_id: 9996,
    });
    expect(res.status).toBe(422);
    const body = await res.json();
    expect(body.fields).toEqual({
      environment_id: "Environment 9997 was not found.",
      hardware_id: "Hardware node 9999 was not found.",
      category_id: "Category 9996 was not found.",
      compute_id: "Compute unit 9998 was not found.",
    });
  });

  it("a compute unit on other hardware is a 422 naming compute_id, on create and on patch", async () => {
    const [h1] = await a.t.sql`insert into hardware (name) values ('host-one') returning id`;
    const [h2] = await a.t.sql`insert into hardware (name) values ('host-two') returning id`;
    const [cu] = await a.t.sql`insert into compute_units (name, kind, hardware_id) values ('vm-on-one', 'vm', ${h1!.id}) returning id`;
    const res = await a.req("POST", "services", a.editor, { name: "split", hardware_id: h2!.id, compute_id: cu!.id });
    expect(res.status).toBe(422);
    expect((await res.json()).fields.compute_id).toBe(
      `Compute unit ${cu!.id} (vm-on-one) runs on hardware node ${h1!.id}, not on hardware node ${h2!.id}.`,
    );
    const svc = await service({ hardware_id: h1!.id, compute_id: cu!.id });
    const moved = await a.req("PATCH", `services/${svc.id}`, a.editor, { hardware_id: h2!.id });
    expect(moved.status).toBe(422);
    expect((await moved.json()).fields).toHaveProperty("compute_id");
    expect((await (await a.req("GET", `services/${svc.id}`, a.viewer)).json()).hardware_id).toBe(h1!.id);
  });

  it("If-Match with a stale version is 412 and changes nothing", async () => {
    const svc = await service();
    expect((await a.req("PATCH", `services/${svc.id}`, a.editor, { description: "one" }, { "if-match": 'W/"1"' })).status).toBe(200);
    expect((await a.req("PATCH", `services/${svc.id}`, a.editor, { description: "two" }, { "if-match": 'W/"1"' })).status).toBe(412);
    expect((await (await a.req("GET", `services/${svc.id}`, a.viewer)).json()).description).toBe("one");
  });

  it("a self-dependency is a 422 naming depends_on_id", async () => {
    const svc = await service();
    const res = await depend(svc.id, svc.id);
    expect(res.status).toBe(422);
    expect((await res.json()).fields).toEqual({ depends_on_id: "A service cannot depend on itself." });
  });

  it("a missing target is a 422, a duplicate a 409", async () => {
    const x = await service();
    const y = await service();
    const missing = await depend(x.id, 777777);
    expect(missing.status).toBe(422);
    expect((await missing.json()).fields).toEqual({ depends_on_id: "Service 777777 was not found." });
    expect((await depend(x.id, y.id)).status).toBe(201);
    const dup = await depend(x.id, y.id);
    expect(dup.status).toBe(409);
    expect((await dup.json()).detail).toContain("already depends on");
  });

  it("a three-service cycle is a 409 naming the cycle as a path of names", async () => {
    const sa = await service({ name: "cycle-a" });
    const sb = await service({ name: "cycle-b" });
    const sc = await service({ name: "cycle-c" });
    expect((await depend(sa.id, sb.id)).status).toBe(201);
    expect((await depend(sb.id, sc.id)).status).toBe(201);
    const res = await depend(sc.id, sa.id);
    expect(res.status).toBe(409);
    const body = await res.json();
    expect(body).toMatchObject({ error_code: "CONFLICT", cycle: [sc.id, sa.id, sb.id, sc.id] });
    expect(body.detail).toBe("Adding this dependency would form a cycle: cycle-c -> cycle-a -> cycle-b -> cycle-c.");
    expect((await one(a.t.sql`select count(*)::int as n from service_dependencies where service_id = ${sc.id}`)).n).toBe(0);
    // The reverse of an existing edge is the shortest cycle.
    const reverse = await (await depend(sb.id, sa.id)).json();
    expect(reverse.detail).toBe("Adding this dependency would form a cycle: cycle-b -> cycle-a -> cycle-b.");
  });

  it("a -> b and b -> a added at the same time: exactly one succeeds", async () => {
    for (let round = 0; round < 5; round++) {
      const x = await service();
      const y = await service();
      const results = await Promise.all([depend(x.id, y.id), depend(y.id, x.id)]);
      expect(results.map((r) => r.status).sort()).toEqual([201, 409]);
      const edges = await one(a.t.sql`select count(*)::int as n from service_dependencies where service_id in (${x.id}, ${y.id})`);
      expect(edges.n).toBe(1);
    }
  });

  it("link targets that do not exist are 422 naming the field; duplicates 409", async () => {
    const svc = await service();
    for (const [path, field] of [
      ["storage", "storage_id"],
      ["misc", "misc_id"],
      ["external-dependencies", "external_node_id"],
    ] as const) {
      const res = await a.req("POST", `services/${svc.id}/${path}`, a.editor, { [field]: 888888 });
      expect(res.status, path).toBe(422);
      expect(Object.keys((await res.json()).fields), path).toEqual([field]);
    }
    const [misc] = await a.t.sql`insert into misc_items (name) values ('dup-misc') returning id`;
    expect((await a.req("POST", `services/${svc.id}/misc`, a.editor, { misc_id: misc!.id })).status).toBe(201);
    expect((await a.req("POST", `services/${svc.id}/misc`, a.editor, { misc_id: misc!.id })).status).toBe(409);
    expect((await a.req("POST", `services/424242/misc`, a.editor, { misc_id: misc!.id })).status).toBe(404);
  });

  it("check-ip refuses something that is not an IP", async () => {
    const res = await a.req("POST", "services/check-ip", a.editor, { ip_address: "not-an-ip" });
    expect(res.status).toBe(422);
    expect((await res.json()).fields).toHaveProperty("ip_address");
  });
});

describe("services: security", () => {
  it("anonymous 401; a viewer reads but cannot write; an editor writes but cannot delete", async () => {
    const svc = await service();
    const other = await service();
    expect((await a.req("GET", "services")).status).toBe(401);
    expect((await a.req("GET", `services/${svc.id}/dependencies`)).status).toBe(401);
    expect((await a.req("GET", `services/${svc.id}/dependencies`, a.viewer)).status).toBe(200);
    expect((await a.req("GET", `services/${svc.id}/discovery`, a.viewer)).status).toBe(200);
    expect((await a.req("POST", "services", a.viewer, { name: "nope" })).status).toBe(403);
    expect((await a.req("PATCH", `services/${svc.id}`, a.viewer, { name: "nope" })).status).toBe(403);
    expect((await depend(svc.id, other.id, a.viewer)).status).toBe(403);
    expect((await a.req("DELETE", `services/${svc.id}/dependencies/${other.id}`, a.viewer)).status).toBe(403);
    expect((await a.req("POST", `services/${svc.id}/misc`, a.viewer, { misc_id: 1 })).status).toBe(403);
    expect((await a.req("POST", "services/check-ip", a.viewer, { ip_address: "10.0.0.1" })).status).toBe(403);
    expect((await a.req("DELETE", `services/${svc.id}`, a.editor)).status).toBe(403);
    expect((await a.req("DELETE", `services/${svc.id}`, a.admin)).status).toBe(204);
    // 403 comes before validation: a viewer learns nothing about the body rules.
    expect((await depend(svc.id, svc.id, a.viewer)).status).toBe(403);
    const writes = await one(a.t.sql`select count(*)::int as n from audit_log where role_at_time = 'viewer' and action like 'service.%'`);
    expect(writes.n).toBe(0);
  });
});
