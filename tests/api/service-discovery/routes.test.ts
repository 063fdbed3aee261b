// GET /api/v1/sd/ansible and /api/v1/sd/prometheus through the app (docs/adr/0482): who may read them
// (their own scopes, read:* too; 401 without a credential, 403 without the scope), their shapes on a
// small lab, the filters (422 for an unknown parameter, site or environment), no secret or free text in
// the answer, and the ETag revalidation.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Actors, createActors } from "../../helpers/actors.ts";
import { populateSdLab, type SdLab, scopedToken } from "./lab.ts";

let a: Actors;
let lab: SdLab;
let ansibleOnly: string;
let promOnly: string;
let readAll: string;

beforeAll(async () => {
  a = await createActors();
  lab = await populateSdLab(a.t.sql);
  ansibleOnly = await scopedToken(a, ["read:ansible-inventory"]);
  promOnly = await scopedToken(a, ["read:prometheus-sd"]);
  readAll = await scopedToken(a, ["read:*"]);
});
afterAll(async () => a?.t.close());

describe("access", () => {
  it("answers 401 without a credential and 403 for a token without the route's scope", async () => {
    for (const path of ["sd/ansible", "sd/prometheus"]) {
      const anon = await a.req("GET", path);
      expect(anon.status).toBe(401);
      expect((await anon.json()).error_code).toBe("UNAUTHORIZED");
    }
    const wrong = await a.req("GET", "sd/ansible", promOnly);
    expect(wrong.status).toBe(403);
    expect((await wrong.json()).detail).toBe("This operation needs the read:ansible-inventory scope.");
    expect((await a.req("GET", "sd/prometheus", ansibleOnly)).status).toBe(403);
  });

  it("a scope of its own reads that answer and nothing else; read:* and a viewer read both", async () => {
    expect((await a.req("GET", "sd/ansible", ansibleOnly)).status).toBe(200);
    expect((await a.req("GET", "sd/prometheus", promOnly)).status).toBe(200);
    expect((await a.req("GET", "hardware", ansibleOnly)).status).toBe(403);
    expect((await a.req("GET", "services", promOnly)).status).toBe(403);
    for (const token of [readAll, a.viewer]) {
      expect((await a.req("GET", "sd/ansible", token)).status).toBe(200);
      expect((await a.req("GET", "sd/prometheus", token)).status).toBe(200);
    }
  });

  it("lists both scopes among the grantable ones", async () => {
    const body = await (await a.req("GET", "auth/scopes", a.viewer)).json();
    const scopes = body.scopes.map((s: { scope: string }) => s.scope);
    expect(scopes).toEqual(expect.arrayContaining(["read:ansible-inventory", "read:prometheus-sd"]));
  });
});

describe("GET /sd/ansible", () => {
  it("answers the hosts with an address, grouped by kind, site, role, environment and tag", async () => {
    const res = await a.req("GET", "sd/ansible", ansibleOnly);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    const inv = await res.json();
    const containerName = `container_${lab.container}`;
    expect(Object.keys(inv._meta.hostvars).sort()).toEqual([containerName, "node-a", "web-1"]);
    expect(inv.all.children).toEqual([
      "env_prod",
      "role_hypervisor",
      "site_berlin_dc_1",
      "tag_critical",
      "tag_web",
      "tag_web_tier",
      "type_container",
      "type_hardware",
      "type_vm",
    ]);
    expect(inv.type_hardware).toEqual({ hosts: ["node-a"] });
    expect(inv.site_berlin_dc_1).toEqual({ hosts: [containerName, "node-a", "web-1"] });
    expect(inv.env_prod).toEqual({ hosts: ["node-a", "web-1"] });
    expect(inv.tag_web).toEqual({ hosts: ["web-1"] });
    expect(inv._meta.hostvars["node-a"]).toEqual({
      ansible_host: "127.0.0.1",
      svc_kind: "hardware",
      svc_id: lab.nodeA,
      svc_name: "node-a",
      svc_status: "unknown",
      svc_role: "Hypervisor",
      svc_vendor: "Dell",
      svc_model: null,
      svc_cpu: null,
      svc_memory_gb: null,
      svc_mac_address: "aa:bb:cc:dd:ee:01",
      svc_location: null,
      svc_site: "Berlin DC-1",
      svc_site_id: lab.siteId,
      svc_environment: "prod",
      svc_tags: ["critical", "web tier"],
      svc_custom_fields: {},
    });
    expect(inv._meta.hostvars["web-1"]).toMatchObject({ ansible_host: "127.0.0.2", svc_kind: "vm", svc_host: "node-a", svc_os: "debian" });
    expect(inv._meta.hostvars[containerName]).toMatchObject({ ansible_host: "fd00::12", svc_name: "Cache Box" });
    expect(JSON.stringify(inv)).not.toContain("hunter2");
  });

  it("filters by kind, site, environment and tag", async () => {
    const hosts = async (q: string) =>
      Object.keys((await (await a.req("GET", `sd/ansible?${q}`, ansibleOnly)).json())._meta.hostvars).sort();
    expect(await hosts("kind=vm")).toEqual(["web-1"]);
    expect(await hosts(`site_id=${lab.siteId}&kind=hardware`)).toEqual(["node-a"]);
    expect(await hosts("environment=prod")).toEqual(["node-a", "web-1"]);
    expect(await hosts("tag=critical")).toEqual(["node-a"]);
    expect(await hosts("tag=no-such-tag")).toEqual([]);
  });
});

describe("GET /sd/prometheus", () => {
  it("answers one target group per port with an address, labelled __meta_svc_*", async () => {
    const groups = await (await a.req("GET", "sd/prometheus", promOnly)).json();
    expect(groups.map((g: { targets: string[] }) => g.targets[0])).toEqual([
      "127.0.0.1:53", // dns: the hardware's address without its prefix length
      "[fd00::12]:6379", // redis: its container's IPv6 address
      "127.0.0.3:443", // web: the port's own address (a service's ports by number)
      "127.0.0.2:9100", // web: its VM's address
    ]);
    expect(groups[3].labels).toEqual({
      __meta_svc_service_id: expect.stringMatching(/^\d+$/),
      __meta_svc_service_name: "web",
      __meta_svc_service_slug: "web",
      __meta_svc_service_status: "running",
      __meta_svc_category: "",
      __meta_svc_environment: "prod",
      __meta_svc_site: "Berlin DC-1",
      __meta_svc_site_id: String(lab.siteId),
      __meta_svc_host_kind: "vm",
      __meta_svc_host_id: String(lab.vm),
      __meta_svc_host_name: "web-1",
      __meta_svc_port: "9100",
      __meta_svc_port_label: "metrics",
      __meta_svc_port_protocol: "tcp",
      __meta_svc_tags: ",critical,web,",
    });
  });

  it("filters by tag, site, environment, status, port label and protocol", async () => {
    const targets = async (q: string) =>
      (await (await a.req("GET", `sd/prometheus?${q}`, promOnly)).json()).map((g: { targets: string[] }) => g.targets[0]);
    expect(await targets("tag=web&port_label=metrics")).toEqual(["127.0.0.2:9100"]);
    expect(await targets("protocol=udp")).toEqual(["127.0.0.1:53"]);
    expect(await targets("status=degraded")).toEqual(["127.0.0.1:53"]);
    expect(await targets("environment=prod")).toEqual(["127.0.0.3:443", "127.0.0.2:9100"]);
    expect(await targets(`site_id=${lab.siteId}&port_label=metrics`)).toEqual(["[fd00::12]:6379", "127.0.0.2:9100"]);
  });
});

describe("bad queries and revalidation", () => {
  it.each([
    ["sd/ansible?sites=1", "sites"],
    ["sd/ansible?kind=router", "kind"],
    ["sd/ansible?site_id=abc", "site_id"],
    ["sd/ansible?site_id=999999", "site_id"],
    ["sd/prometheus?environment=nope", "environment"],
    ["sd/prometheus?protocol=sctp", "protocol"],
    ["sd/prometheus?tags=web", "tags"],
  ])("%s is a 422 naming %s", async (path, field) => {
    const res = await a.req("GET", path, a.viewer);
    expect(res.status).toBe(422);
    const body = await res.json();
    expect(body.error_code).toBe("VALIDATION_ERROR");
    expect(JSON.stringify(body.detail)).toContain(field);
  });

  it("answers 304 to If-None-Match while nothing changed, and a new ETag once something did", async () => {
    const first = await a.req("GET", "sd/prometheus", promOnly);
    const etag = first.headers.get("etag");
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect(first.headers.get("cache-control")).toBe("private, no-cache");
    const again = await a.req("GET", "sd/prometheus", promOnly, undefined, { "if-none-match": etag! });
    expect(again.status).toBe(304);
    await a.t.sql`update services set status = 'stopped' where slug = 'dns'`;
    const changed = await a.req("GET", "sd/prometheus", promOnly, undefined, { "if-none-match": etag! });
    expect(changed.status).toBe(200);
    expect(changed.headers.get("etag")).not.toBe(etag);
  });

  it("documents both routes with their scopes in the OpenAPI document", async () => {
    const doc = await (await a.req("GET", "/api/openapi.json")).json();
    expect(doc.paths["/api/v1/sd/ansible"].get.description).toContain("Needs scope `read:ansible-inventory`.");
    expect(doc.paths["/api/v1/sd/prometheus"].get.description).toContain("Needs scope `read:prometheus-sd`.");
    const names = doc.paths["/api/v1/sd/prometheus"].get.parameters.map((p: { name: string }) => p.name);
    expect(names).toEqual(["site_id", "environment", "tag", "status", "port_label", "protocol"]);
  });
});
